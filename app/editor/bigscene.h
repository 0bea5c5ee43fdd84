#pragma once
/// A big level for `shoal --bench-open` and the big-level tests: `walls` short walls spread
/// over a wide arena, a few hundred obstacles and pickups, and a few groups near the centre,
/// which stays clear of walls so tools can draw there. Deterministic for one `seed`.

#include <shoal/scenedesc.h>

#include <cstdint>

namespace shoal::ui {

/// m: the square around the origin that bigScene() keeps free of walls and obstacles.
constexpr double kBigSceneClearHalf = 40.0;

/// A level that passes validateScene() with `walls` walls of 5 points 1-3 m apart (4 pieces
/// each, so up to 240,000 walls stay under kMaxGeometryPieces with the obstacles). Points are
/// whole millimetres, so a saved file is about 230 bytes per wall: 215,000 walls are ~50 MB.
SceneDesc bigScene(int walls, std::uint64_t seed = 1);

} // namespace shoal::ui
