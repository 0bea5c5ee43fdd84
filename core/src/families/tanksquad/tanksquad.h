#pragma once
/// Tank squad (seed 001). Every member heads for the group target (weighted by targetWeight,
/// scaled down inside targetCloseDistance), keeps apart within keepDistance, aligns with
/// neighbours, and drives with a limited turn rate; a target close behind is reached by
/// reversing rather than a U-turn.
///
/// Fixes to the seed: a squad comes to rest, as a squad. Each tank takes a parking spot of
/// its own as it arrives (ParkingSpots: a hexagonal cluster round the target, keepDistance +
/// 2 x arriveDistance apart, the far row first), drives there on its own once it is within
/// keepDistance of it, parks inside arriveDistance of it, eases to speed 0 and stays put
/// until the target moves: nobody orbits the target or jostles for the one spot, and the
/// parked squad keeps its spacing. Tanks beyond the spots the level has room for park when
/// they touch a parked tank nearer the target inside the disc the squad needs. A wall between
/// a tank and the target is driven round along the squad's flow field. A tank brakes for any
/// tank it is closing on, abeam too, so that it stops before they touch.

#include "families/tanksquad/parkingspots.h"
#include "geometry/flowroute.h"
#include "math/assignment.h"
#include "scene/paramtable.h"
#include "world/behaviour.h"

namespace shoal {

struct TankSquadParams
{
    float moveSpeed = 5.0f;      ///< m/s
    float rotateSpeed = 1.5708f; ///< rad/s (authored in deg/s)
    float targetWeight = 1.25f;
    float targetCloseDistance = 20.0f; ///< m
    float arriveDistance = 0.2f;       ///< m, from its parking spot
    float keepDistance = 6.0f;         ///< m
    float keepWeight = 1.0f;
    float moveWeight = 0.8f;
    float speedEasing = 2.0f;  ///< 1/s
    float turnDeadZone = 0.2f; ///< rad
    float turnSlowdown = 0.8f;
    float reverseDistance = 15.0f; ///< m
    float reverseSpeed = 0.6f;     ///< fraction of moveSpeed
    float feelerLength = 4.0f;     ///< m
    float wallWeight = 2.0f;
    float radius = 1.5f; ///< m
};

const std::vector<ParamSpec>& tankSquadParamSpecs();
std::optional<Error> checkTankSquadRelations(const ParamValues& values);
const FamilyView& tankSquadView();

class TankSquadBehaviour final : public Behaviour
{
public:
    /// Squads of up to this many tanks park on spots of their own; a bigger one the seed's
    /// way. Who takes which spot is worked out again twice a second while tanks are under
    /// way, in O(n^3): for 64, about 0.3 ms.
    static constexpr std::size_t kMaxSquadWithSpots = 64;

    void setParams(const ParamValues& values) override;
    /// Places the tanks as every family does, and routes to the target already: the level's
    /// free space and the field are built with the world, not in its first step (tens of
    /// milliseconds on a large level, a stalled first frame).
    void spawn(Group& group, const GroupDesc& desc, Random& random, const StaticGeometry& geometry,
               SpawnOccupancy& placed) override;
    /// Tanks start a hull's length apart beyond touching where there is room (the hull's
    /// corners and the barrel reach past the body's disc), all facing the target.
    SpawnPose spawnPose() const override { return {0.6f * m_params.radius, true}; }
    void aimRoutes(Group& group, const StepContext& ctx, std::vector<FlowField*>& aimed) override;
    std::size_t preparePlan(Group& group, const StepContext& ctx) override;
    void planPart(Group& group, const StepContext& ctx, std::size_t part, int worker) override;
    void finishPlan(Group& group, const StepContext& ctx) override;
    bool allowsReordering() const override { return true; }
    float queryRadius() const override { return m_params.keepDistance; }
    float bodyRadius() const override { return m_params.radius; }
    float keepDistance() const override { return 2.0f * m_params.radius; }
    const TankSquadParams& params() const { return m_params; }
    void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                Sketch& out) const override;
    std::optional<Vec2> goal(const Group& group, const StepContext& ctx) const override;
    FeelerUse feelers() const override { return {m_params.feelerLength, false}; }
    const char* agentState(const Group& group, std::size_t i) const override;
    std::size_t memoryBytes() const override;
    void permuteAgents(const std::vector<std::uint32_t>& order) override;
    void hashState(std::uint64_t& h) const override;
    void saveState(StateWriter& out) const override;
    bool loadState(StateReader& in, const StaticGeometry& geometry) override;
    void agentAdded(const Group& group) override;
    void agentRemoved(std::size_t i) override;
    bool setAgentGoal(const Group& group, std::size_t i, std::optional<Vec2> goal) override;

    /// The way round walls to the target, as the last step planned it.
    const FlowRoute& route() const { return m_route; }
    /// Where the squad parks round its target.
    const ParkingSpots& spots() const { return m_spots; }
    /// The spot tank i has claimed (an index into spots()), or -1.
    int spotOf(std::size_t i) const { return i < m_spotOf.size() ? m_spotOf[i] : -1; }

private:
    template <class Search> std::size_t preparePlanWith(Group& group, const StepContext& ctx);
    /// One part's tanks planned over `search` (tanksquadkernel.h).
    template <class Search>
    void planPartWith(Group& group, const StepContext& ctx, std::size_t part, int worker,
                      const Search& search);
    /// planPartWith on the grid eight lanes at a time (AVX2: tanksquadplanwide.cpp).
    void planPartWide(Group& group, const StepContext& ctx, std::size_t part, int worker);
    /// Lays the spots out again when what they depend on changed (the target, the level, the
    /// squad's size, its spacing); then every tank sets off anew. Returns whether it did.
    bool keepSpotsCurrent(const Group& group, const StaticGeometry& geometry, bool targetMoved);
    /// The direction the squad arrives at its target along: from its centre, along the
    /// route's last leg; zero when the squad is round its target already.
    Vec2 arrivalDirection(const Group& group);
    /// What the squad's route must reach: its tanks and the ground its spots are laid on.
    FlowRoute::Cover routeCover(const Group& group) const;
    /// Whether the tanks under way should be given their spots again this step.
    bool reassignDue(const Group& group);
    /// Gives the tanks under way (every tank when `fresh`) the spots no parked tank holds.
    void assignSpots(const Group& group, bool fresh);
    /// A tank stuck behind a parked one on its way further in swaps spots with it.
    void moveUpPastStuckTanks(Group& group);
    /// Where the route from `from` comes into sight of the target (`from` when it is).
    Vec2 wayIn(Vec2 from) const;

    TankSquadParams m_params;
    /// Numbers the neighbour scan works with, held here rather than written as literals in
    /// it: from a literal the compiler rebuilds the lanes inside the scan's loop, two
    /// instructions apiece, where it now keeps them or reads them from memory.
    struct ScanNumbers
    {
        float one = 1.0f;
        float quarter = 0.25f;   ///< cos^2 of 60 degrees: the nose and tail cones
        float glancing = 0.05f;  ///< the least cosine a closing tank counts with
        float touching = 1e-12f; ///< kTouchingDistance2: on top of each other (m^2)
    } m_scanNumbers;
    std::uint32_t m_seenTargetVersion = 0;
    FlowRoute m_route; ///< to the target, shared by the whole squad
    ParkingSpots m_spots;
    std::vector<std::int32_t> m_spotOf;    ///< per tank: its spot, or -1
    std::vector<std::uint8_t> m_keepsSpot; ///< per tank: moved up, keeps its spot till parked
    /// Per tank, a goal of its own (World::setAgentGoal), NaN for none; empty until one is set.
    std::vector<float> m_ownX, m_ownY;
    void permuteOwnGoals(const std::vector<std::uint32_t>& order);
    int m_reassignIn = 0; ///< steps until the tanks under way are reassigned
    /// What the spots were laid out for.
    struct SpotLayout
    {
        bool valid = false;
        std::size_t count = 0;
        float spacing = 0.0f;
        float radius = 0.0f;
        std::uint64_t occupancyChanges = 0;
        /// Laid out while the route to the target was still searched (FlowRoute::pending):
        /// without its field, and again once it lands.
        bool routePending = false;
    } m_layout;
    // Scratch of the assignment.
    std::vector<std::int32_t> m_permuted;
    std::vector<std::uint8_t> m_held;             ///< per spot: a parked tank holds it
    std::vector<std::uint32_t> m_rows, m_columns; ///< the tanks under way, the free spots
    std::vector<Vec2> m_entries;                  ///< where each comes into sight of the target
    std::vector<float> m_order, m_cost;
    AssignmentScratch m_assignment;
    std::vector<std::uint8_t> m_nextFlags;      ///< this step's flags, applied after planning
    std::vector<float> m_sortedVx, m_sortedVy;  ///< neighbour velocities in cell order (scratch)
    std::vector<float> m_sortedWay, m_sortedId; ///< their goal distances and identities
    std::vector<float> m_forwardX, m_forwardY;  ///< each tank's heading vector, in cell order
    /// Per worker, the grid's slot x, for the scan's walk (scratch).
    std::vector<std::vector<float>> m_slotX;
    bool m_resettle = false;     ///< this step's plan sets every tank off anew (preparePlan)
    std::size_t m_inspected = 0; ///< the inspected tank's index when it is this squad's, else n
    std::vector<std::uint32_t>
        m_sortedArrived; ///< parked neighbours in cell order: lane masks (scratch)
};

} // namespace shoal
