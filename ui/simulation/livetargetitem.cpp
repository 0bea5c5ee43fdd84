#include "simulation/livetargetitem.h"

#include "viewport/items/markeritem.h"

#include <QPainter>

namespace shoal::ui {

LiveTargetItem::LiveTargetItem(int group, const QColor& color) : m_group(group), m_color(color)
{
    setFlag(ItemIgnoresTransformations);
    setAcceptedMouseButtons(Qt::NoButton);
    setZValue(kZValue);
}

void LiveTargetItem::setColor(const QColor& color)
{
    m_color = color;
    update();
}

QRectF LiveTargetItem::boundingRect() const
{
    return QRectF(-kSize, -kSize, 6.0 * kSize, 2.0 * kSize);
}

void LiveTargetItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    MarkerItem::paintTarget(painter, m_color, kSize);
    QPen ring(m_color, 1.5, Qt::DashLine);
    painter->setPen(ring);
    painter->setBrush(Qt::NoBrush);
    painter->drawEllipse(QPointF(0, 0), kSize * 0.75, kSize * 0.75);
    painter->setPen(m_color.lighter(130));
    painter->drawText(QPointF(kSize * 0.8, -kSize * 0.4), QObject::tr("live target"));
}

} // namespace shoal::ui
