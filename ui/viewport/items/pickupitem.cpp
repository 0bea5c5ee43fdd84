#include "viewport/items/pickupitem.h"

#include "viewport/viewportstyle.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace shoal::ui {

PickupItem::PickupItem(int index, QGraphicsItem* parent)
    : EditableItem({ItemKind::Pickup, index}, parent)
{
    setFlag(QGraphicsItem::ItemIgnoresTransformations);
    setZValue(6);
}

void PickupItem::sync(const SceneDesc& scene)
{
    const std::size_t i = static_cast<std::size_t>(ref().index);
    if (i >= scene.pickups.size())
        return;
    setPos(style::toQt(scene.pickups[i].position));
    if (m_kind != scene.pickups[i].kind) {
        m_kind = scene.pickups[i].kind;
        update();
    }
}

bool PickupItem::hitTest(QPointF scenePos, double mpp) const
{
    const QPointF d = scenePos - pos();
    return std::hypot(d.x(), d.y()) <= (style::kPickupPixels / 2.0 + 2.0) * mpp;
}

QRectF PickupItem::boundingRect() const
{
    const double half = style::kPickupPixels / 2.0 + 4.0;
    return QRectF(-half, -half, 2.0 * half, 2.0 * half);
}

void PickupItem::paintIcon(QPainter* painter, PickupKind kind, double size)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const double s = size / 2.0;
    if (kind == PickupKind::Coin) {
        const double r = s * 0.78;
        painter->setPen(QPen(style::kCoinEdge, std::max(1.0, size / 14.0)));
        painter->setBrush(style::kCoin);
        painter->drawEllipse(QPointF(0, 0), r, r);
        painter->setPen(QPen(style::kCoinEdge.lighter(140), std::max(1.0, size / 18.0)));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(QPointF(0, 0), r * 0.58, r * 0.58);
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(255, 255, 255, 150));
        painter->drawEllipse(QPointF(-r * 0.35, -r * 0.38), r * 0.2, r * 0.14);
    } else {
        // A fish facing right: an almond body and a forked tail.
        QPainterPath body;
        body.moveTo(s * 0.95, 0.0);
        body.cubicTo(s * 0.55, -s * 0.62, -s * 0.35, -s * 0.62, -s * 0.5, 0.0);
        body.cubicTo(-s * 0.35, s * 0.62, s * 0.55, s * 0.62, s * 0.95, 0.0);
        QPainterPath tail;
        tail.moveTo(-s * 0.42, 0.0);
        tail.lineTo(-s * 0.98, -s * 0.5);
        tail.lineTo(-s * 0.82, 0.0);
        tail.lineTo(-s * 0.98, s * 0.5);
        tail.closeSubpath();
        painter->setPen(QPen(style::kFishEdge, std::max(1.0, size / 16.0), Qt::SolidLine,
                             Qt::RoundCap, Qt::RoundJoin));
        painter->setBrush(style::kFish);
        painter->drawPath(tail.united(body));
        painter->setPen(Qt::NoPen);
        painter->setBrush(style::kFishEdge);
        painter->drawEllipse(QPointF(s * 0.5, -s * 0.1), s * 0.1, s * 0.1);
    }
    painter->restore();
}

void PickupItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing);
    if (isEditorSelected() || isHovered()) {
        painter->setPen(QPen(isEditorSelected() ? style::kSelection : style::kHover, 2.0));
        painter->setBrush(Qt::NoBrush);
        painter->drawEllipse(QPointF(0, 0), style::kPickupPixels / 2.0 + 2.5,
                             style::kPickupPixels / 2.0 + 2.5);
    }
    paintIcon(painter, m_kind, style::kPickupPixels);
}

} // namespace shoal::ui
