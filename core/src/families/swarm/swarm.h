#pragma once
/// Swarm (seed 003). Enemies seek the player (or another group's leader) at `speed`, face
/// their velocity, and scatter: for every neighbour closer than minAllowedRadius R, push away
/// by (R - d) along the separating direction (squared distance tested first).
///
/// Fixes to the seed: the push is shared between the two enemies of a pair (pushStrength),
/// which stops the overshoot jitter; and an enemy stops pressing toward the target while one
/// ahead of it is already close (settleFactor), so a swarm around a still player settles
/// into a disc instead of crushing into one point. And a wall between an enemy and its goal
/// is gone round, along the swarm's flow field, instead of pressed into.

#include "geometry/flowroute.h"
#include "scene/paramtable.h"
#include "world/behaviour.h"

#include <cstdint>
#include <vector>

namespace shoal {

struct SwarmParams
{
    float speed = 3.0f;            ///< m/s
    float minAllowedRadius = 1.0f; ///< R, m
    float pushStrength = 0.5f;     ///< fraction of (R - d) applied per step
    float settleFactor = 0.95f;    ///< stop pressing when someone ahead is closer than this x R
    float stopDistance = 0.6f;     ///< m from the target at which an enemy stops seeking
    float feelerLength = 1.5f;     ///< m
    float wallWeight = 1.5f;
    float radius = 0.35f; ///< m
};

const std::vector<ParamSpec>& swarmParamSpecs();
std::optional<Error> checkSwarmRelations(const ParamValues& values);
const FamilyView& swarmView();

class SwarmBehaviour final : public Behaviour
{
public:
    void setParams(const ParamValues& values) override;
    /// The default placement, and the route readied over the level (see swarm.cpp).
    void spawn(Group& group, const GroupDesc& desc, Random& random, const StaticGeometry& geometry,
               SpawnOccupancy& placed) override;
    void aimRoutes(Group& group, const StepContext& ctx, std::vector<FlowField*>& aimed) override;
    std::size_t preparePlan(Group& group, const StepContext& ctx) override;
    void planPart(Group& group, const StepContext& ctx, std::size_t part, int worker) override;
    void finishPlan(Group& group, const StepContext& ctx) override;
    bool allowsReordering() const override { return true; }
    void saveState(StateWriter& out) const override;
    bool loadState(StateReader& in, const StaticGeometry& geometry) override;
    float queryRadius() const override { return m_params.minAllowedRadius; }
    /// Cells as large as R: a query finds about three neighbours, in three fuller rows.
    GridCellShape gridCells() const override
    {
        return {m_params.minAllowedRadius, m_params.minAllowedRadius};
    }
    float bodyRadius() const override { return m_params.radius; }
    float keepDistance() const override { return 0.8f * m_params.minAllowedRadius; }
    const SwarmParams& params() const { return m_params; }
    void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                Sketch& out) const override;
    std::optional<Vec2> goal(const Group& group, const StepContext& ctx) const override;
    /// A swarm feels along the way to its goal, not along its heading.
    FeelerUse feelers() const override { return {m_params.feelerLength, true}; }
    std::size_t memoryBytes() const override
    {
        return m_route.memoryBytes() + (m_faceX.capacity() + m_faceY.capacity()) * sizeof(float);
    }
    /// The way round walls to the goal, as the last step planned it.
    const FlowRoute& route() const { return m_route; }

private:
    template <class Search>
    void planPartWith(Group& group, const StepContext& ctx, std::size_t part);
    SwarmParams m_params;
    FlowRoute m_route{FlowRoute::Goal::Chased}; ///< to the goal, shared by the whole swarm
    /// Per agent, the plan's scratch: the direction it faces if it seeks. Headings are worked
    /// out after the loop, four at a time.
    std::vector<float> m_faceX, m_faceY;
};

/// Where a swarm group heads: the player, or agent 0 of the group it chases.
Vec2 swarmGoal(const Group& group, const StepContext& ctx);
/// Whether the swarm seeks at all: it chases a group, or there is a player.
bool swarmHasGoal(const Group& group, const StepContext& ctx);

} // namespace shoal
