#pragma once
/// What the routes of a scene cost: the cell rule of a level's flow fields and the memory
/// the fields of its routed groups need, so validateScene() can refuse a level whose routes
/// would not fit (kMaxRouteFieldBytes) before anything is built. FlowOccupancy lays out its
/// grid by the same rule (routeCellSize()), so the estimate is the layout the runtime makes.

#include <shoal/expected.h>
#include <shoal/scenedesc.h>

#include <cstddef>
#include <optional>

namespace shoal {

/// Cells of one route grid at most (a whole level's field for one radius).
constexpr std::size_t kMaxRouteCells = std::size_t(1) << 22;
/// Bytes a flow field keeps per slot of its grid (FlowField: distance, anchor, a bend bit;
/// the search's own buffers are a scratch per thread, not per field). test_flowfield holds
/// the field to it.
constexpr double kRouteFieldBytesPerSlot = 8.125;
/// Bytes the flow fields of one level may need in all: refused beyond, by validateScene().
/// About 3,500 routed squads in a 100 m level, 15 at the largest grid (4M cells).
constexpr double kMaxRouteFieldBytes = 512.0 * 1024.0 * 1024.0;

/// The side of a route cell for bodies of `bodyRadius` m in a level `width` by `height` m:
/// half the radius clamped to [0.5 m, 1 m], doubled until the grid (with its one-cell frame)
/// has at most kMaxRouteCells slots.
float routeCellSize(float bodyRadius, double width, double height);
/// The slots of that grid, frame included.
double routeSlots(float bodyRadius, double width, double height);

/// The fields a scene's routed groups may hold at once and their bytes: one per tank squad
/// that may have tanks (each drives to a target of its own), one per swarm chase (the player
/// or a group's leader) and radius among the swarms that may have agents (swarms chasing the
/// same one share a field). Followers route in small windows and are not counted.
struct RouteBudget
{
    std::size_t fields = 0;
    double bytes = 0.0;
};
RouteBudget routeBudget(const SceneDesc& scene);
/// An error naming what the routes need and the limit, when routeBudget() exceeds
/// kMaxRouteFieldBytes.
std::optional<Error> checkRouteBudget(const SceneDesc& scene);

} // namespace shoal
