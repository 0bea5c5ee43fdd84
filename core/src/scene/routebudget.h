#pragma once
/// What the routes of a scene cost: the cell rule of a level's flow fields and the memory
/// the fields of its routed groups need, so validateScene() can refuse a level whose routes
/// would not fit (kMaxRouteFieldBytes) before anything is built. FlowOccupancy lays out its
/// grid by the same rule (routeCellSize()), so the estimate is the layout the runtime makes.

#include <shoal/expected.h>
#include <shoal/scenedesc.h>
#include <shoal/scenelimits.h>

#include <cstddef>
#include <optional>

namespace shoal {

/// Cells of one route grid at most (a whole level's field for one radius).
constexpr std::size_t kMaxRouteCells = std::size_t(1) << 22;
/// Bytes a flow field keeps per slot of its grid (FlowField: distance, anchor, a bend bit and
/// a settled bit; the search's own buffers are a scratch per thread, not per field).
/// test_flowfield holds the field to it.
constexpr double kRouteFieldBytesPerSlot = 8.25;
/// The side of a route cell for bodies of `bodyRadius` m in a level `width` by `height` m:
/// half the radius clamped to [0.5 m, 1 m], doubled until the grid (with its one-cell frame)
/// has at most kMaxRouteCells slots.
float routeCellSize(float bodyRadius, double width, double height);
/// The slots of that grid, frame included.
double routeSlots(float bodyRadius, double width, double height);

/// An error naming what the routes need and the limit, when routeBudget() exceeds
/// kMaxRouteFieldBytes.
std::optional<Error> checkRouteBudget(const SceneDesc& scene);

} // namespace shoal
