#include "viewport/items/previewitem.h"

#include "viewport/editorscene.h"
#include "viewport/viewportstyle.h"

#include <QPainter>

namespace shoal::ui {

namespace {
constexpr double kDotPixels = 7.0;
}

PreviewItem::PreviewItem()
{
    setZValue(30);
    setAcceptedMouseButtons(Qt::NoButton);
}

double PreviewItem::metresPerPixel() const
{
    const auto* editor = qobject_cast<const EditorScene*>(scene());
    return editor ? editor->metresPerPixel() : 0.02;
}

void PreviewItem::setPath(const QPainterPath& path, const QPen& pen, const QBrush& brush)
{
    prepareGeometryChange();
    m_path = path;
    m_pen = pen;
    m_pen.setCosmetic(true);
    m_brush = brush;
    update();
}

void PreviewItem::setVertices(const QPolygonF& points, int highlight)
{
    prepareGeometryChange();
    m_vertices = points;
    m_highlight = highlight;
    update();
}

void PreviewItem::clear()
{
    prepareGeometryChange();
    m_path = QPainterPath();
    m_vertices.clear();
    m_highlight = -1;
    update();
}

QRectF PreviewItem::boundingRect() const
{
    const double margin = (kDotPixels * 2.0 + m_pen.widthF()) * metresPerPixel();
    QRectF r = m_path.boundingRect() | m_vertices.boundingRect();
    return r.adjusted(-margin, -margin, margin, margin);
}

void PreviewItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(m_pen);
    painter->setBrush(m_brush);
    painter->drawPath(m_path);
    const double mpp = metresPerPixel();
    for (int i = 0; i < m_vertices.size(); ++i) {
        const double r = (i == m_highlight ? kDotPixels : kDotPixels / 2.0) * mpp;
        QPen edge(style::kHandleEdge, 1.5);
        edge.setCosmetic(true);
        painter->setPen(edge);
        painter->setBrush(i == m_highlight ? style::kSelection : style::kHandleFill);
        painter->drawEllipse(m_vertices[i], r, r);
    }
}

IconPreviewItem::IconPreviewItem(Painter painter, double size)
    : m_painter(std::move(painter)), m_size(size)
{
    setFlag(QGraphicsItem::ItemIgnoresTransformations);
    setZValue(30);
    setOpacity(0.7);
    setAcceptedMouseButtons(Qt::NoButton);
}

QRectF IconPreviewItem::boundingRect() const
{
    const double half = m_size / 2.0 + 4.0;
    return QRectF(-half, -half, 2.0 * half, 2.0 * half);
}

void IconPreviewItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    m_painter(painter);
}

} // namespace shoal::ui
