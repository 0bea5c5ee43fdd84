#pragma once
/// Fish school (seed 000). Free fish idle until the player swims within pickRadius, then join
/// its school for good. Members keep a distance band to neighbours (attract beyond
/// keepMaxDistance, repel inside keepMinDistance), align with neighbours' movement, and drive
/// with a turn rate limited to rotateSpeed, slowing while they turn.
///
/// Fixes to the seed: the player counts as a neighbour and the school matches its velocity
/// (followWeight), so the school follows it (the seed's members never see the player);
/// alignment uses every neighbour, not only those outside the band, and matches their
/// velocity rather than a normalised direction, so a school settles when the player rests;
/// zero vectors are never normalised; rotateSpeed is a real turn rate in deg/s; free fish
/// wait within half the pick radius of where they were placed (a hard bound on every move).

#include "scene/paramtable.h"
#include "world/behaviour.h"

namespace shoal {

struct FishSchoolParams
{
    float moveSpeed = 3.4f;       ///< m/s
    float rotateSpeed = 5.6f;     ///< rad/s (authored in deg/s)
    float neighborRadius = 3.0f;  ///< m
    float neighborCount = 6.0f;   ///< nearest neighbours the band is kept to
    float keepMinDistance = 1.6f; ///< m
    float keepMaxDistance = 2.0f; ///< m
    float keepWeight = 1.0f;
    float moveWeight = 0.8f;
    float followWeight = 0.6f;
    float pickRadius = 1.0f;   ///< m
    float speedEasing = 2.0f;  ///< 1/s
    float turnDeadZone = 0.2f; ///< rad (authored in deg)
    float turnSlowdown = 0.8f;
    float rayLength = 0.8f; ///< m
    float radius = 0.3f;    ///< m
    float idleDrift = 0.3f; ///< m/s
};

const std::vector<ParamSpec>& fishSchoolParamSpecs();
std::optional<Error> checkFishSchoolRelations(const ParamValues& values);
const FamilyView& fishSchoolView();

class FishSchoolBehaviour final : public Behaviour
{
public:
    void setParams(const ParamValues& values) override;
    void spawn(Group& group, const GroupDesc& desc, Random& random, const StaticGeometry& geometry,
               SpawnOccupancy& placed) override;
    std::size_t preparePlan(Group& group, const StepContext& ctx) override;
    void planPart(Group& group, const StepContext& ctx, std::size_t part, int worker) override;
    void finishPlan(Group& group, const StepContext& ctx) override;
    float queryRadius() const override { return m_params.neighborRadius; }
    float bodyRadius() const override { return m_params.radius; }
    float keepDistance() const override { return m_params.keepMinDistance; }
    float bandOuterDistance() const override { return m_params.keepMaxDistance; }
    bool isActive(const Group& group, std::size_t i) const override;
    std::size_t memoryBytes() const override;
    void hashState(std::uint64_t& h) const override;
    void saveState(StateWriter& out) const override;
    bool loadState(StateReader& in, const StaticGeometry& geometry) override;
    void agentAdded(const Group& group) override;
    void agentRemoved(std::size_t i) override;
    void agentMoved(std::size_t i) override;
    bool allowsReordering() const override { return true; }
    /// Free fish (not in the school, see isActive) wait on their tether: the school goes
    /// round them.
    std::uint8_t placeHeldWithout() const override { return kAgentInSchool; }
    void permuteAgents(const std::vector<std::uint32_t>& order) override;
    void adoptPickups(Group& group, std::vector<PickupState>& pickups, Random& random) override;
    void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                Sketch& out) const override;
    FeelerUse feelers() const override { return {m_params.rayLength, false}; }
    const char* agentState(const Group& group, std::size_t i) const override;
    const FishSchoolParams& params() const { return m_params; }

private:
    template <class Search>
    void planPartWith(Group& group, const StepContext& ctx, std::size_t part, int worker,
                      const Search& search);
    /// planPart on the grid eight lanes at a time (AVX2; fishschoolplanwide.cpp): only where
    /// the machine has it and the step asks for it.
    void planPartWide(Group& group, const StepContext& ctx, std::size_t part, int worker);
    /// Sizes the free fish's homes for n agents and empties the joined lists.
    void prepareState(std::size_t n, int workers);
    /// Copies the neighbour attributes a scan reads into cell order; notes where the free
    /// fish are (m_freeFish).
    template <class Search>
    void gatherInCellOrder(const Search& search, const AgentArrays& a, const StepContext& ctx);
    FishSchoolParams m_params;
    /// Free fish picked up this step, per worker (applied after planning).
    std::vector<std::vector<std::uint32_t>> m_joined;
    std::vector<float> m_homeX, m_homeY; ///< where each free fish waits (NaN until first seen)
    std::vector<float> m_sortedVx, m_sortedVy; ///< neighbour velocities in cell order (scratch)
    /// School members' positions in cell order, NaN for free fish so a scan never counts them
    /// (scratch).
    std::vector<float> m_memberX, m_memberY;
    /// A member's scan sees every member round it, and tells the body pass how far the
    /// nearest fellow is (Group::startNearest2); free fish are invisible to it, so each
    /// member measures them itself: their places where the step began, while there are at
    /// most kFreeFishSeen (m_freeFishKnown; with more, members tell nothing).
    static constexpr std::size_t kFreeFishSeen = 16;
    std::vector<Vec2> m_freeFish;
    bool m_freeFishKnown = false;
};

} // namespace shoal
