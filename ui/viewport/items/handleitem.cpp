#include "viewport/items/handleitem.h"

#include "viewport/viewportstyle.h"

#include <QPainter>

#include <cmath>

namespace shoal::ui {

HandleItem::HandleItem(const ItemRef& owner, Role role, int index, QGraphicsItem* parent)
    : QGraphicsItem(parent), m_owner(owner), m_role(role), m_index(index)
{
    setFlag(QGraphicsItem::ItemIgnoresTransformations);
    setAcceptedMouseButtons(Qt::NoButton);
    setZValue(25);
}

bool HandleItem::hitTest(QPointF scenePos, double mpp) const
{
    const QPointF d = scenePos - pos();
    const double reach = (style::kHandlePixels / 2.0 + 3.0) * mpp;
    return std::abs(d.x()) <= reach && std::abs(d.y()) <= reach;
}

void HandleItem::setActive(bool active)
{
    if (m_active == active)
        return;
    m_active = active;
    update();
}

QRectF HandleItem::boundingRect() const
{
    const double half = style::kHandlePixels / 2.0 + 2.0;
    return QRectF(-half, -half, 2.0 * half, 2.0 * half);
}

void HandleItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    const double half = style::kHandlePixels / 2.0;
    painter->setPen(QPen(style::kHandleEdge, 1.5));
    painter->setBrush(m_active ? style::kSelection : style::kHandleFill);
    if (m_role == Role::Radius)
        painter->drawEllipse(QPointF(0, 0), half, half);
    else
        painter->drawRect(QRectF(-half, -half, 2.0 * half, 2.0 * half));
}

} // namespace shoal::ui
