#pragma once
/// Finds room in the level for things that arrive in it (a duplicate, a paste): a place where
/// their box overlaps no wall, obstacle, pickup, spawn area, agent, target or the player start,
/// as near as can be to where the user wants them, inside the level's bounds.

#include "document/itemids.h"
#include <shoal/scenedesc.h>

#include <optional>
#include <vector>

namespace shoal::ui {

/// How far out freeOffset() looks by default: twelve half boxes each way.
constexpr int kDefaultRings = 12;

/// The box around every referenced thing (m); empty refs give an empty box at the origin.
Rect itemsExtent(const SceneDesc& scene, const ItemRefs& refs);

/// How many things `scene` holds that `box` (m) overlaps, or comes nearer than `clearance`
/// (m) to; counting stops past `limit`. INT_MAX when the box is not inside the bounds.
int overlapCount(const SceneDesc& scene, const Rect& box, double clearance, int limit);

/// True when `box` (m) overlaps nothing `scene` holds, `clearance` (m) apart, and lies inside
/// the bounds.
bool isFreeSpace(const SceneDesc& scene, const Rect& box, double clearance);

/// The offset (m) that moves `boxes` (one per thing, m) to the nearest free place around
/// where `wanted` moves them, trying places half the biggest box (plus `clearance`) apart in
/// rings outwards, on the grid of `gridStep` (m) when it is positive. A level with no free
/// place within `maxRings` rings gets the nearest place that overlaps the fewest things;
/// none when the joint box fits nowhere inside the bounds. Never offset zero (a copy there
/// could not be told from its original), nor a place where a box overlaps `avoid` (m).
std::optional<Point2> freeOffset(const SceneDesc& scene, const std::vector<Rect>& boxes,
                                 Point2 wanted, double clearance, double gridStep = 0.0,
                                 int maxRings = kDefaultRings,
                                 const std::optional<Rect>& avoid = std::nullopt);

/// Where a duplicate of `refs` goes: beside the originals (right, left, below, above, then
/// further out), in free space. Falls back to `clearance` down and right when the level is full.
Point2 duplicateOffset(const SceneDesc& scene, const ItemRefs& refs, double clearance,
                       double gridStep = 0.0);

} // namespace shoal::ui
