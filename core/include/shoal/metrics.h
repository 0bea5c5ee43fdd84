#pragma once
/// What a user would notice about a group, measured every step.

#include <shoal/export.h>
#include <shoal/vec2.h>

#include <cstdint>

namespace shoal {

struct SHOAL_API GroupMetrics
{
    int agents = 0; ///< agents in the group (for fish: school members + free fish)
    int active = 0; ///< agents taking part (fish: in the school; others: all)
    /// Active agents with another within the family's neighbour radius: the nearest-neighbour
    /// distances are theirs (all 0 when none has).
    int withNeighbour = 0;
    float nearestMin = 0;          ///< smallest nearest-neighbour distance, m
    float nearestMean = 0;         ///< mean nearest-neighbour distance, m
    float nearestMedian = 0;       ///< median nearest-neighbour distance, m
    int insideKeep = 0;            ///< agents whose nearest neighbour is inside the keep distance
    int outsideBand = 0;           ///< agents whose nearest neighbour is beyond the band (fish)
    float polarization = 0;        ///< |mean unit heading| in [0, 1]: 1 = all aligned
    float meanSpeed = 0;           ///< m/s
    float maxSpeed = 0;            ///< m/s
    int penetrations = 0;          ///< pairs within the group overlapping by more than 5 cm
    float maxPenetration = 0;      ///< m, deepest overlap within the group
    int crossPenetrations = 0;     ///< pairs with a body of another group overlapping > 5 cm
    float crossMaxPenetration = 0; ///< m, deepest overlap with another group's body
    int wallOverlaps = 0;          ///< agents overlapping a wall or obstacle by more than 5 cm
    float wallOverlapMax = 0;      ///< m, deepest body-wall overlap
    int wallOverlapAgent = -1;     ///< id of the agent with the deepest (-1: none)
    Vec2 wallOverlapAt;            ///< where that agent is
    /// The longest a body of this group has been overlapping another body (of any group) by
    /// more than 5 cm without a break, s; which agent (id, -1: none) and where it is.
    float overlapSeconds = 0;
    int overlapAgent = -1;
    Vec2 overlapAt;
    int wallCrossings = 0;               ///< motions that crossed geometry this step (must be 0)
    std::int64_t totalWallCrossings = 0; ///< since the world was built
    int crossingAgent = -1;              ///< id of an agent that crossed this step (-1: none)
    Vec2 crossingFrom;                   ///< its motion
    Vec2 crossingTo;
    int stuck = 0;              ///< slower than epsilon for 2 s while away from the goal
    int blocked = 0;            ///< agents whose motion geometry shortened this step
    float goalDistanceMean = 0; ///< mean distance to the goal (target, player, behind point)
    float goalDistanceMax = 0;
    int atGoal = 0;
};

/// Penetration above this depth counts as a collision.
constexpr float kPenetrationTolerance = 0.05f;
/// An overlap deeper than the tolerance that lasts longer than this is a failure (s): a
/// crowd may squeeze a body for a moment, never for longer.
constexpr float kOverlapSeconds = 0.1f;
/// Below this speed (m/s) an agent is "not moving" for the stuck metric.
constexpr float kStuckSpeed = 0.05f;
/// How long an agent must be still, away from its goal, to count as stuck.
constexpr float kStuckSeconds = 2.0f;

} // namespace shoal
