#pragma once
/// A pickup in the viewport: a small fish icon for a free fish, a coin disc for a coin.
/// Drawn at a constant size in pixels (it ignores the view's zoom).

#include "viewport/items/editableitem.h"

namespace shoal::ui {

class PickupItem : public EditableItem
{
public:
    explicit PickupItem(int index, QGraphicsItem* parent = nullptr);

    void sync(const SceneDesc& scene) override;
    bool hitTest(QPointF scenePos, double metresPerPixel) const override;
    QRectF extent() const override { return QRectF(pos(), pos()); }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

    PickupKind kind() const { return m_kind; }

    /// Paints a pickup icon of `size` pixels centred on the origin (also used by the tools
    /// dock's icons and the pickup tool's preview).
    static void paintIcon(QPainter* painter, PickupKind kind, double size);

private:
    PickupKind m_kind = PickupKind::Coin;
};

} // namespace shoal::ui
