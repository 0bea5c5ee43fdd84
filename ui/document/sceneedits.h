#pragma once
/// Edits computed on a plain SceneDesc: what a move, a duplicate or a new group does to the
/// scene. Undo commands apply them to the Document; tools apply them to a copy first to check
/// the result with validateScene() before anything reaches the undo stack.

#include "document/itemids.h"
#include <shoal/scenedesc.h>

#include <string>

namespace shoal::ui {

/// True when `ref` names something the scene has (a spawn area needs a group with a spawn,
/// a squad target a group with a target, the player start an enabled player).
bool refExists(const SceneDesc& scene, const ItemRef& ref);

/// Refs that still exist, in the same order.
ItemRefs existingRefs(const SceneDesc& scene, const ItemRefs& refs);

/// Moves every referenced thing by `offset` (m). Unknown refs are skipped.
void moveItems(SceneDesc& scene, const ItemRefs& refs, Point2 offset);

/// `offset` shortened per axis so that everything the scene keeps inside its bounds (pickups,
/// spawn areas, targets, the player start) stays inside them after moveItems().
Point2 clampMoveOffset(const SceneDesc& scene, const ItemRefs& refs, Point2 offset);

/// The axis-aligned box around a referenced thing, in metres (a point for markers).
Rect itemExtent(const SceneDesc& scene, const ItemRef& ref);

/// True when a group the user creates (a new group, a painted spawn area) becomes the
/// player's group with it: a fish school, in a level whose player is enabled and leads none.
bool playerTakesNewGroup(const SceneDesc& scene, const GroupDesc& group);

/// Inserts a group the user creates at `index` (-1 = append), and makes it the player's group
/// when playerTakesNewGroup() says so: what makeAddGroupCommand() does to the document.
void insertNewGroup(SceneDesc& scene, int index, const GroupDesc& group);

/// `base` if no group has that name, else "base 2", "base 3", ...
std::string uniqueGroupName(const SceneDesc& scene, const std::string& base);

/// A point clamped into `bounds`.
Point2 clampToBounds(const Rect& bounds, Point2 p);

/// The normalised rectangle spanned by two corners, intersected with `bounds`.
Rect rectFromCorners(Point2 a, Point2 b);
Rect intersectRects(const Rect& a, const Rect& b);

} // namespace shoal::ui
