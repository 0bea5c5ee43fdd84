#pragma once
/// What the user calls each editable thing ("Wall", "Free Fish", "Spawn Area"), for the lines
/// of the undo history and the viewport's menus: a line names what it did ("Duplicate Spawn
/// Area", "Move 3 Coins"), never an internal word like "item" or "pickup" where one kind is
/// meant.

#include "document/itemids.h"
#include <shoal/scenedesc.h>

#include <QString>

namespace shoal::ui {

/// A kind's name without the scene: "Wall", ..., "Pickup" (a pickup's own is pickupName()).
QString kindName(ItemKind kind);

/// One thing's name, as the view and the tools call it: "Wall", "Obstacle", "Free Fish",
/// "Coin", "Spawn Area", "Squad Target", "Player Start".
QString itemName(const SceneDesc& scene, const ItemRef& ref);

/// Several things: "Wall" for one, "3 Walls" for several of one kind, "4 Items" for a mix.
QString itemsName(const SceneDesc& scene, const ItemRefs& refs);

/// A pickup's name by its kind: "Free Fish" or "Coin".
QString pickupName(PickupKind kind);

/// "Add Wall", "Add Free Fish", ...: the history line of a thing a tool adds.
QString addText(const QString& name);

} // namespace shoal::ui
