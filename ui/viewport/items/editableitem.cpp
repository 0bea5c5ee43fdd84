#include "viewport/items/editableitem.h"

#include <QLineF>

#include <algorithm>
#include <cmath>

namespace shoal::ui {

EditableItem::EditableItem(const ItemRef& ref, QGraphicsItem* parent)
    : QGraphicsItem(parent), m_ref(ref)
{
    setAcceptedMouseButtons(Qt::NoButton);
}

void EditableItem::setEditorSelected(bool selected)
{
    if (m_selected == selected)
        return;
    m_selected = selected;
    repaint();
}

void EditableItem::setHovered(bool hovered)
{
    if (m_hovered == hovered)
        return;
    m_hovered = hovered;
    repaint();
}

void EditableItem::setMetresPerPixel(double metresPerPixel)
{
    if (m_metresPerPixel == metresPerPixel)
        return;
    if (boundsFollowScale())
        prepareGeometryChange();
    m_metresPerPixel = metresPerPixel;
    metresPerPixelChanged();
}

double distanceToSegment(QPointF p, QPointF a, QPointF b)
{
    const QPointF ab = b - a;
    const double lengthSquared = QPointF::dotProduct(ab, ab);
    double t = lengthSquared > 0.0 ? QPointF::dotProduct(p - a, ab) / lengthSquared : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const QPointF closest = a + t * ab;
    return std::hypot(p.x() - closest.x(), p.y() - closest.y());
}

} // namespace shoal::ui
