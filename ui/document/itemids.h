#pragma once
/// Names an editable thing of the authored scene by kind and index, so selections, tools and
/// undo commands refer to the document's data (which survives item rebuilds) rather than to
/// QGraphicsItems (which are rebuilt on every change).

#include <QList>
#include <QMetaType>

namespace shoal::ui {

enum class ItemKind
{
    Wall,        ///< index = wall
    Obstacle,    ///< index = obstacle
    Pickup,      ///< index = pickup
    SpawnArea,   ///< index = group (its spawn rectangle)
    SquadTarget, ///< index = group (a tank squad's target)
    PlayerStart, ///< index unused (0)
};

/// One editable thing. Vertex handles are not ItemRefs: they belong to the selected item.
struct ItemRef
{
    ItemKind kind = ItemKind::Wall;
    int index = 0;

    bool operator==(const ItemRef& o) const { return kind == o.kind && index == o.index; }
    bool operator!=(const ItemRef& o) const { return !(*this == o); }
    bool operator<(const ItemRef& o) const
    {
        return kind != o.kind ? static_cast<int>(kind) < static_cast<int>(o.kind) : index < o.index;
    }
};

using ItemRefs = QList<ItemRef>;

} // namespace shoal::ui

Q_DECLARE_METATYPE(shoal::ui::ItemRef)
