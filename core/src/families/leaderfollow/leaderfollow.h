#pragma once
/// Leader following (seed 004). Agent 0 of the group is the leader, the rest follow it. Every
/// agent is an OpenSteer-style vehicle (mass, maxSpeed, maxForce): the steering force is
/// truncated to maxForce, divided by mass, the velocity truncated to maxSpeed, and the heading
/// eased toward the velocity with `damping`. The leader wanders (a target on a circle ahead
/// of it, jittered each step); followers arrive at the point leaderBehindDistance behind the
/// leader, keep apart from each other, and get out of the leader's way while they are inside
/// evadeDistance of the point ahead of it. Everyone steers away from walls with feelers.
/// When the player leads the group, agent 0 is the player: it is read, never planned.
///
/// Fixes to the seed: the evade test compares the squared distance with evadeDistance squared
/// (the seed squares an uninitialised value, so its followers never evade); a standing
/// leader's behind and ahead points use its heading instead of normalising a zero velocity;
/// the wander jitter is a rate (m/s) scaled by the step, not a per-frame amount; the evading
/// follower also steps sideways out of the leader's path instead of only fleeing ahead of it;
/// followers keep their separation from the leader's body too (the evade zone starts half a
/// metre ahead of it, so a leader turning into its group used to walk through them); a
/// wandering leader that meets a wall turns its wander target away from it, so it does not
/// keep pressing into the wall and squeezing followers against it; a follower with a wall
/// between it and the point behind goes round it, along a flow field the group keeps over a
/// window round that point while any follower needs it.

#include "geometry/flowroute.h"
#include "scene/paramtable.h"
#include "world/behaviour.h"

#include <optional>
#include <vector>

namespace shoal {

struct LeaderFollowParams
{
    float mass = 1.0f;                 ///< kg
    float maxSpeed = 3.0f;             ///< m/s
    float maxForce = 8.0f;             ///< N
    float damping = 6.0f;              ///< 1/s, heading easing toward the velocity
    float wanderRadius = 1.5f;         ///< m
    float wanderDistance = 3.0f;       ///< m
    float wanderJitter = 4.0f;         ///< m/s
    float leaderSpeed = 0.6f;          ///< fraction of maxSpeed
    float leaderBehindDistance = 2.0f; ///< m (the seed's LEADER_BEHIND_DIST)
    float slowingRadius = 2.0f;        ///< m
    float separationRadius = 1.2f;     ///< m
    float separationWeight = 8.0f;
    float evadeDistance = 1.5f; ///< m
    float evadeWeight = 3.0f;
    float arriveWeight = 1.0f;
    float feelerLength = 2.5f; ///< m
    float wallWeight = 3.0f;
    float radius = 0.35f; ///< m
};

const std::vector<ParamSpec>& leaderFollowParamSpecs();
LeaderFollowParams leaderFollowParams(const ParamValues& values);
/// evadeDistance must stay below 2 x leaderBehindDistance (unless it is 0): otherwise the
/// point followers are sent to lies inside the zone they flee.
std::optional<Error> checkLeaderFollowRelations(const ParamValues& values);
const FamilyView& leaderFollowView();

/// The leader's points (behind, ahead, wander circle) from the group's current state: what
/// sketch() draws and what the tests measure against.
struct LeaderFollowOverlay
{
    bool valid = false; ///< false for an empty group
    Vec2 leader;        ///< agent 0's position
    Vec2 forward;       ///< unit: the leader's velocity direction, or its heading at rest
    Vec2 behind;        ///< where followers arrive
    Vec2 ahead;         ///< centre of the evade zone
    float evadeDistance = 0;
    bool wanders = false; ///< false when the player leads: no wander circle
    Vec2 wanderCenter;    ///< centre of the wander circle
    Vec2 wanderTarget;    ///< the jittered point on it the leader steers toward
    float wanderRadius = 0;
};

class LeaderFollowBehaviour final : public Behaviour
{
public:
    /// Groups of at most this many agents separate a lane group of followers at a time from
    /// every member, without the grid: a group of 20 spans a few cells, whose short runs
    /// would leave most lanes of a neighbour scan idle. Their grid is not built at all.
    static constexpr std::size_t kSmallGroup = 32;

    void setParams(const ParamValues& values) override;
    void spawn(Group& group, const GroupDesc& desc, Random& random, const StaticGeometry& geometry,
               SpawnOccupancy& placed) override;
    /// The group's agents plan as one part (its plan reads and writes state of the whole
    /// group as it goes).
    /// The leader's route to a target (World::setTarget), reaching the leader.
    void aimRoutes(Group& group, const StepContext& ctx, std::vector<FlowField*>& aimed) override;
    std::size_t preparePlan(Group& group, const StepContext& ctx) override;
    void planPart(Group& group, const StepContext& ctx, std::size_t part, int worker) override;
    float queryRadius() const override;
    bool searchesGrid(const Group& group) const override
    {
        return group.agents.size() > kSmallGroup;
    }
    float bodyRadius() const override { return m_params.radius; }
    /// Two body radii: a follower whose nearest neighbour is closer than that is touching it,
    /// which is what a user sees as crowding (half the separation radius would sit inside
    /// the bodies with the default sizes and never report anything visible).
    float keepDistance() const override { return 2.0f * m_params.radius; }
    std::size_t memoryBytes() const override;
    void hashState(std::uint64_t& h) const override;
    void saveState(StateWriter& out) const override;
    bool loadState(StateReader& in, const StaticGeometry& geometry) override;
    void agentAdded(const Group& group) override;
    void agentRemoved(std::size_t i) override;

    const LeaderFollowParams& params() const { return m_params; }
    LeaderFollowOverlay overlay(const Group& group) const;
    void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                Sketch& out) const override;
    std::optional<Vec2> goal(const Group& group, const StepContext& ctx) const override;
    FeelerUse feelers() const override { return {m_params.feelerLength, false}; }
    const char* agentState(const Group& group, std::size_t i) const override;
    /// The followers' way round walls to the point behind the leader (active only while a
    /// wall is between some follower and the point).
    const FlowRoute& route() const { return m_route; }

private:
    void planWhole(Group& group, const StepContext& ctx);
    void ensureWanderState(const Group& group);
    /// The leader wanders (when the player does not lead).
    void wander(Group& group, const StepContext& ctx);
    /// Applies `force` to agent i and moves it; `room` is the clearance at its position.
    void integrate(Group& group, const StepContext& ctx, std::size_t i, Vec2 force,
                   float speedLimit, float room) const;

    LeaderFollowParams m_params;
    // Per agent: the wander target's offset from the wander circle's centre (world axes, on
    // the circle). Only a wandering leader uses its entry; sized with the group.
    std::vector<float> m_wanderX;
    std::vector<float> m_wanderY;
    FlowRoute m_route;
    /// The leader's way round walls to a target a game set (World::setGoal), when it has one.
    FlowRoute m_leaderRoute;
    int m_wallSeenFor =
        0; ///< steps the route stays on: a wall was between a follower and the point
    float m_spread = 0.0f; ///< last step, the furthest follower from the point, m
};

} // namespace shoal
