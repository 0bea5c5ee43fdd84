#pragma once
/// Every limit a scene must keep, in one place: validateScene() and the readers enforce them
/// where a value comes in (scene files, input scripts, --set), and refuse what breaks one with
/// the field, the value and the limit; nothing is clamped. docs/scene-format.md lists them with
/// the reasons.

#include <cstddef>
#include <cstdint>

namespace shoal {

/// m: the farthest any coordinate of a scene (bounds, walls, obstacles, spawns, targets,
/// pickups, the player, an input script's pointer) may lie from the origin on either axis.
/// The runtime works in float, whose spacing is below 1 mm (2^-10 m) up to 2^14 m: every
/// place in a level is then held to the millimetre.
constexpr double kMaxCoordinate = 16384.0;
/// m, widest and tallest bounds: any bounds within ±kMaxCoordinate.
constexpr double kMaxWorldExtent = 2.0 * kMaxCoordinate;
/// m: walls and obstacles may reach this far past the bounds (a wall drawn to the edge and a
/// little beyond), never further: nothing out there can be reached.
constexpr double kGeometryMargin = 100.0;

/// Points in one wall or one polygon obstacle.
constexpr std::size_t kMaxShapePoints = 100000;
/// The runtime splits wall and outline edges into pieces of at most this length (m).
constexpr double kGeometryPieceLength = 4.0;
/// Pieces of static geometry in a whole level: each edge counts one per started
/// kGeometryPieceLength, each circle and convex polygon one.
constexpr std::size_t kMaxGeometryPieces = 1000000;
/// Groups in a level (the body pass numbers them in 16 bits).
constexpr std::size_t kMaxGroups = 60000;
/// Agents one spawn area may ask for.
constexpr int kMaxSpawnCount = 1000000;
/// Agents in a whole level: spawn counts and listed agents of every group.
constexpr std::size_t kMaxAgents = 4000000;
/// Joints the worms of a level may hold in all: each worm keeps room for
/// wormJointCapacity(length, minSegmentLength) joints from the start (12 bytes each), so
/// 10,000 long worms of fine segments would need gigabytes before the first step. A million
/// worms of 32 segments (the bench's largest) keep 48,000,000: 576 MB.
constexpr std::size_t kMaxWormJoints = 64000000;
/// Joints one worm keeps room for: a quarter more than its length in its shortest segments
/// (it grows by eating), and a few spare.
constexpr std::size_t wormJointCapacity(double length, double minSegmentLength)
{
    const double segment = minSegmentLength > 0.01 ? minSegmentLength : 0.01;
    const double joints = 1.25 * length / segment;
    const auto whole = static_cast<std::size_t>(joints);
    return (static_cast<double>(whole) < joints ? whole + 1 : whole) + 8;
}
/// Pickups in a level: each is looked at by the fish every step.
constexpr std::size_t kMaxPickups = 10000;
/// Checks a scene may carry (each is read every step of a check run).
constexpr std::size_t kMaxChecks = 1000;
/// m: the largest circle obstacle's radius.
constexpr double kMaxCircleRadius = kMaxWorldExtent;
/// Degrees: headings in a scene are at most this far from 0 either way (a float angle
/// still has a thousandth of a degree there).
constexpr double kMaxHeadingDegrees = 36000.0;

/// Bytes the flow fields of one level's routes may need in all (routeBudget() in
/// <shoal/scenedesc.h>): about 3,500 routed squads in a 100 m level, 15 at the largest grid
/// (4M cells).
constexpr double kMaxRouteFieldBytes = 512.0 * 1024.0 * 1024.0;
/// Bytes of a scene file the readers take by default (`--max-file-size` raises it).
constexpr std::size_t kDefaultMaxSceneBytes = std::size_t{64} << 20;

constexpr double kMinStep = 0.001; ///< s, smallest simulation.dt
constexpr double kMaxStep = 0.1;   ///< s, largest simulation.dt
/// m: consecutive wall and polygon points closer than this are refused (Box2D welds
/// vertices closer than its 0.005 m linear slop, which breaks chains).
constexpr double kMinPointSpacing = 0.01;

} // namespace shoal
