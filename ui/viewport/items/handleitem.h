#pragma once
/// A handle on the selected item: a wall or polygon vertex, a circle's radius, or a spawn
/// area's corner. Drawn at a constant size in pixels; the select tool drags it.

#include "document/itemids.h"

#include <QGraphicsItem>

namespace shoal::ui {

class HandleItem : public QGraphicsItem
{
public:
    enum class Role
    {
        Vertex, ///< index = vertex of a wall or polygon obstacle
        Radius, ///< a circle obstacle's radius (on the circle, at +x)
        Corner, ///< index = spawn-area corner: 0 (min x, min y), 1 (max x, min y), 2 max, 3
    };

    HandleItem(const ItemRef& owner, Role role, int index, QGraphicsItem* parent = nullptr);

    const ItemRef& owner() const { return m_owner; }
    Role role() const { return m_role; }
    int index() const { return m_index; }

    bool hitTest(QPointF scenePos, double metresPerPixel) const;
    void setActive(bool active);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    ItemRef m_owner;
    Role m_role;
    int m_index;
    bool m_active = false;
};

} // namespace shoal::ui
