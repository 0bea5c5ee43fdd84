#include "viewport/sceneview.h"

#include "tools/abstracttool.h"
#include "viewport/editorscene.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

namespace {
constexpr double kWheelZoomStep = 1.2; ///< per wheel notch (120 units)
constexpr double kFitMargin = 0.94;    ///< the level fills this share of the viewport
} // namespace

SceneView::SceneView(EditorScene* scene, QWidget* parent)
    : QGraphicsView(scene, parent), m_scene(scene)
{
    setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform |
                   QPainter::TextAntialiasing);
    // Agents move every frame: repaint the whole viewport rather than tracking regions.
    setViewportUpdateMode(QGraphicsView::FullViewportUpdate);
    // The level and its grid change only with an edit, a scroll or a zoom: kept as a picture
    // (EditorScene::redrawBackground). Drawn every frame, their full-height fills were each
    // cut by Qt's raster engine into parts for its thread pool, thousands of task switches
    // a second while playing.
    setCacheMode(QGraphicsView::CacheBackground);
    setTransformationAnchor(QGraphicsView::NoAnchor);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setDragMode(QGraphicsView::NoDrag);
    setFrameShape(QFrame::NoFrame);
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setPixelsPerMetre(kNominalPixelsPerMetre);
    refreshCursor();
}

void SceneView::setPixelsPerMetre(double ppm)
{
    ppm = std::clamp(ppm, kMinPixelsPerMetre, kMaxPixelsPerMetre);
    m_keepFitted = false;
    m_pixelsPerMetre = ppm;
    setTransform(QTransform::fromScale(ppm, -ppm));
    m_scene->setMetresPerPixel(1.0 / ppm);
    emit zoomChanged(ppm);
}

void SceneView::zoomBy(double factor, QPoint anchor)
{
    const QPointF before = mapToScene(anchor);
    setPixelsPerMetre(m_pixelsPerMetre * factor);
    const QPointF after = mapToScene(anchor);
    // Scroll so the point that was under the mouse is under it again.
    const QPointF delta = before - after;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() +
                                    int(std::lround(delta.x() * m_pixelsPerMetre)));
    verticalScrollBar()->setValue(verticalScrollBar()->value() -
                                  int(std::lround(delta.y() * m_pixelsPerMetre)));
}

void SceneView::panBy(QPoint delta)
{
    m_keepFitted = false;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
    verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
}

void SceneView::zoomIn()
{
    zoomBy(kWheelZoomStep, viewport()->rect().center());
}

void SceneView::zoomOut()
{
    zoomBy(1.0 / kWheelZoomStep, viewport()->rect().center());
}

void SceneView::fitToLevel()
{
    const QRectF level = m_scene->levelRect();
    const QSize size = viewport()->size();
    if (level.isEmpty() || size.isEmpty())
        return;
    const double ppm =
        std::min(size.width() / level.width(), size.height() / level.height()) * kFitMargin;
    setPixelsPerMetre(ppm);
    centerOn(level.center());
    m_fitted = true;
    m_keepFitted = true;
}

void SceneView::refreshCursor()
{
    // On the view, which the viewport shows as its own: a cursor set on the viewport makes
    // QGraphicsView look up the items under the pointer at every mouse release, to restore
    // an item's cursor, and in a level of 200,000 walls that look-up took half a second.
    viewport()->unsetCursor();
    if (m_panning)
        setCursor(Qt::ClosedHandCursor);
    else if (m_spaceHeld)
        setCursor(Qt::OpenHandCursor);
    else if (m_scene->tool())
        setCursor(m_scene->tool()->cursor());
    else
        setCursor(Qt::ArrowCursor);
}

void SceneView::showEvent(QShowEvent* event)
{
    QGraphicsView::showEvent(event);
    if (!m_fitted)
        fitToLevel();
}

void SceneView::resizeEvent(QResizeEvent* event)
{
    QGraphicsView::resizeEvent(event);
    if (m_keepFitted)
        fitToLevel();
}

bool SceneView::event(QEvent* event)
{
    // Space is Play/Pause's shortcut, but over the viewport it also pans: take it as a key
    // event here and decide on release (tap = toggle play, drag = pan).
    if (event->type() == QEvent::ShortcutOverride) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Space && key->modifiers() == Qt::NoModifier) {
            event->accept();
            return true;
        }
    }
    return QGraphicsView::event(event);
}

void SceneView::wheelEvent(QWheelEvent* event)
{
    const QPoint angle = event->angleDelta();
    if (angle.y() == 0) {
        event->ignore();
        return;
    }
    zoomBy(std::pow(kWheelZoomStep, angle.y() / 120.0), event->position().toPoint());
    event->accept();
}

void SceneView::mousePressEvent(QMouseEvent* event)
{
    setFocus(Qt::MouseFocusReason);
    if (event->button() == Qt::MiddleButton || (event->button() == Qt::LeftButton && m_spaceHeld)) {
        m_panning = true;
        m_spaceUsedForPan = m_spaceHeld;
        m_panLast = event->position().toPoint();
        refreshCursor();
        event->accept();
        return;
    }
    QGraphicsView::mousePressEvent(event);
}

void SceneView::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning) {
        const QPoint pos = event->position().toPoint();
        panBy(pos - m_panLast);
        m_panLast = pos;
        event->accept();
        return;
    }
    emit cursorMoved(mapToScene(event->position().toPoint()));
    QGraphicsView::mouseMoveEvent(event);
}

void SceneView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning && (event->button() == Qt::MiddleButton || event->button() == Qt::LeftButton)) {
        m_panning = false;
        refreshCursor();
        event->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(event);
}

void SceneView::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (m_spaceHeld || event->button() == Qt::MiddleButton) {
        mousePressEvent(event);
        return;
    }
    QGraphicsView::mouseDoubleClickEvent(event);
}

void SceneView::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space && event->modifiers() == Qt::NoModifier) {
        if (!event->isAutoRepeat()) {
            m_spaceHeld = true;
            m_spaceUsedForPan = false;
            refreshCursor();
        }
        event->accept();
        return;
    }
    // Straight to the scene's handler: a scene only gets key events through
    // QGraphicsView while its window is active, and tools must not depend on that.
    m_scene->handleKeyPress(event);
}

void SceneView::keyReleaseEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Space) {
        if (!event->isAutoRepeat() && m_spaceHeld) {
            m_spaceHeld = false;
            if (!m_spaceUsedForPan)
                emit playToggleRequested();
            refreshCursor();
        }
        event->accept();
        return;
    }
    QGraphicsView::keyReleaseEvent(event);
}

void SceneView::focusOutEvent(QFocusEvent* event)
{
    m_spaceHeld = false;
    m_panning = false;
    refreshCursor();
    QGraphicsView::focusOutEvent(event);
}

void SceneView::drawForeground(QPainter* painter, const QRectF&)
{
    // A scale bar in the bottom-left corner: a round length close to 120 px.
    const double target = 120.0 / m_pixelsPerMetre;
    const double magnitude = std::pow(10.0, std::floor(std::log10(target)));
    double length = magnitude;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * magnitude <= target)
            length = m * magnitude;
    const double px = length * m_pixelsPerMetre;

    painter->save();
    painter->resetTransform();
    painter->setRenderHint(QPainter::Antialiasing, false);
    const QPoint origin(16, viewport()->height() - 18);
    const QString text = length >= 1.0 ? tr("%1 m").arg(length) : tr("%1 cm").arg(length * 100.0);
    QFont font = painter->font();
    font.setPointSizeF(8.5);
    painter->setFont(font);
    const QRect textRect(origin.x(), origin.y() - 20, int(px), 14);
    painter->setPen(QPen(QColor(0, 0, 0, 150), 3.0));
    painter->drawLine(origin, origin + QPoint(int(px), 0));
    painter->setPen(QPen(QColor(0xdf, 0xe4, 0xea), 1.0));
    painter->drawLine(origin, origin + QPoint(int(px), 0));
    painter->drawLine(origin + QPoint(0, -4), origin + QPoint(0, 3));
    painter->drawLine(origin + QPoint(int(px), -4), origin + QPoint(int(px), 3));
    painter->drawText(textRect, Qt::AlignHCenter | Qt::AlignBottom, text);
    painter->restore();
}

} // namespace shoal::ui
