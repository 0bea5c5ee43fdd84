#include "tools/chaintool.h"

#include "viewport/editorscene.h"
#include "viewport/items/previewitem.h"
#include "viewport/viewportstyle.h"

#include <QGraphicsSceneMouseEvent>
#include <QKeyEvent>

#include <cmath>

namespace shoal::ui {

namespace {
constexpr double kClosePixels = 9.0;  ///< a click this close to the first point closes the loop
constexpr double kRepeatPixels = 3.0; ///< a click this close to the last point adds nothing

double distance(QPointF a, QPointF b)
{
    return std::hypot(a.x() - b.x(), a.y() - b.y());
}
} // namespace

void ChainTool::activate(EditorScene* scene)
{
    AbstractTool::activate(scene);
    m_preview = addPreview(new PreviewItem);
}

bool ChainTool::nearFirst(QPointF pos) const
{
    return m_points.size() >= 3 &&
           distance(pos, m_points.first()) <= kClosePixels * scene()->metresPerPixel();
}

void ChainTool::addPoint(QPointF pos)
{
    const QPointF p = scene()->snap(pos);
    if (!m_points.isEmpty() &&
        distance(p, m_points.last()) <=
            std::max(kRepeatPixels * scene()->metresPerPixel(), kMinPointSpacing))
        return;
    m_points.append(p);
}

bool ChainTool::closeOrAddPoint(QPointF pos)
{
    if (nearFirst(pos)) {
        finish(true);
        return true;
    }
    addPoint(pos);
    return false;
}

void ChainTool::mousePressed(QGraphicsSceneMouseEvent* event)
{
    if (event->button() == Qt::RightButton) {
        if (isBusy())
            finish(false);
        return;
    }
    if (event->button() != Qt::LeftButton)
        return;
    if (closeOrAddPoint(event->scenePos()))
        return;
    m_cursor = scene()->snap(event->scenePos());
    m_hasCursor = true;
    updatePreview();
}

void ChainTool::mouseMoved(QGraphicsSceneMouseEvent* event)
{
    m_cursor = nearFirst(event->scenePos()) ? m_points.first() : scene()->snap(event->scenePos());
    m_hasCursor = true;
    updatePreview();
}

void ChainTool::mouseReleased(QGraphicsSceneMouseEvent*) {}

void ChainTool::mouseDoubleClicked(QGraphicsSceneMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return;
    if (!closeOrAddPoint(event->scenePos()))
        finish(false);
}

void ChainTool::keyPressed(QKeyEvent* event)
{
    if (!isBusy()) {
        event->ignore();
        return;
    }
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        finish(false);
        break;
    case Qt::Key_Escape:
        cancel();
        break;
    case Qt::Key_Backspace:
    case Qt::Key_Delete:
        m_points.removeLast();
        updatePreview();
        break;
    default:
        event->ignore();
        return;
    }
    event->accept();
}

void ChainTool::finish(bool closed)
{
    std::vector<Point2> points;
    for (QPointF p : m_points)
        points.push_back(style::toPoint(p));
    m_points.clear();
    m_hasCursor = false;
    updatePreview();
    commitChain(points, closed);
}

void ChainTool::cancel()
{
    m_points.clear();
    m_hasCursor = false;
    updatePreview();
}

void ChainTool::updatePreview()
{
    if (!m_preview)
        return;
    if (m_points.isEmpty()) {
        m_preview->clear();
        return;
    }
    QPainterPath path;
    path.moveTo(m_points.first());
    for (int i = 1; i < m_points.size(); ++i)
        path.lineTo(m_points[i]);
    if (m_hasCursor)
        path.lineTo(m_cursor);
    if (alwaysClosed())
        path.closeSubpath();
    m_preview->setPath(path, QPen(style::kPreview, 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin),
                       previewBrush());
    const bool closing = m_hasCursor && m_points.size() >= 3 && m_cursor == m_points.first();
    m_preview->setVertices(m_points, closing ? 0 : -1);
}

} // namespace shoal::ui
