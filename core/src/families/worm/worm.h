#pragma once
/// Worm (seed 002). Each agent is one worm's head; the body is the exact path the head took,
/// kept as a polyline of joints in a ring per worm. The head crawls at `speed`; the head
/// segment grows while the tail segment shrinks by as much, so the length stays constant
/// unless the worm eats. Turns happen only at joints: once the head segment is
/// minSegmentLength long and the wanted direction differs, a new joint is made and the new
/// head segment turns by at most maxTurnAngle (a sharper turn takes transition segments, one
/// per minSegmentLength). The body is drawn as a ribbon of `width` with mitred joints: the
/// offset edges of neighbouring segments meet at their intersection.
///
/// Steering: while the pointer is held every worm heads for it; after release each worm keeps
/// the last pressed point until its head is within arriveDistance, then wanders.
/// Bodies: the head is solid to other bodies too, and nobody moves it (its body is its path),
/// so the worm keeps it off them itself: a leg stops short of every body it meets
/// (bodiesNear), and never brings the head nearer one it already touches; the look-ahead
/// steers round bodies ahead as round walls, and a head stopped by one bends along it (or
/// halts, as at a wall, until the way clears).
/// Walls: the head is a solid body of half the width, kept by the worm itself (the world never
/// moves a worm's head, see keepsOwnBodies). It moves leg by leg, each leg only as far as its
/// centre stays half the width from every surface, ahead, beside the leg and round convex
/// corners and wall ends alike (clearRun), so the path, and with it the body, never crosses
/// geometry. What stops it (a corner's tip too) bends it along (slide) or halts it, and no joint
/// bends more than maxTurnAngle there either: where the two conflict the worm halts. The
/// look-ahead and the way-out check see surfaces as the legs do, so sliding worms bend round
/// corners before they touch and halting is rare (see wallAwareHeading and the wallResponse
/// tooltip).
///
/// Fixes to the seed: the turn is re-aimed at the target at every joint instead of replaying
/// a remembered angle, so a moving pointer is followed; the line-intersection join is computed
/// in closed form, which has no zero denominator at a straight joint; minSegmentLength >=
/// width x tan(maxTurnAngle / 2) is enforced so two mitres never fold a segment; the head
/// stays on the centre line (no corner docking, hence no jerk when turning).

#include "kernels/largepages.h"
#include "kernels/prefetch.h"
#include "scene/paramtable.h"
#include "world/behaviour.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace shoal {

/// A worm group's parameters in runtime units (meaning, ranges: wormParamSpecs()).
struct WormParams
{
    float speed = 2.5f;              ///< m/s
    float length = 6.0f;             ///< m, body length at spawn (plus growth eaten)
    float width = 0.6f;              ///< m, ribbon width
    float minSegmentLength = 0.5f;   ///< m, head segment length before the next turn
    float maxTurnAngle = 0.5235988f; ///< rad per joint (authored in deg, 1..90)
    float growthPerCoin = 0.0f;      ///< m
    float eatRadius = 0.5f;          ///< m
    float wallResponse = 1.0f;       ///< choice index: 0 stop, 1 slide
    float wanderTurn = 0.2617994f;   ///< rad per joint when there is no target (authored in deg)
    float arriveDistance = 1.0f;     ///< m

    WallResponse response() const
    {
        return wallResponse < 0.5f ? WallResponse::Stop : WallResponse::Slide;
    }
};

const std::vector<ParamSpec>& wormParamSpecs();
WormParams wormParams(const ParamValues& values);
/// minSegmentLength >= width x tan(maxTurnAngle / 2): below that, the inner mitres of two
/// joints overlap on one segment and the ribbon folds over itself.
std::optional<Error> checkWormRelations(const ParamValues& values);
const FamilyView& wormView();

/// Runs one group of worms: keeps their bodies (a ring of joints each) and steers their heads.
class WormBehaviour final : public Behaviour, public AgentBodies
{
public:
    void setParams(const ParamValues& values) override;
    void spawn(Group& group, const GroupDesc& desc, Random& random, const StaticGeometry& geometry,
               SpawnOccupancy& placed) override;
    std::size_t preparePlan(Group& group, const StepContext& ctx) override;
    void planPart(Group& group, const StepContext& ctx, std::size_t part, int worker) override;
    /// Worms that eat coins take them from the level's list, in worm order (a coin two
    /// heads reach in one step goes to the first worm), once every worm has moved: the
    /// parts run on every thread, coins or not.
    void finishPlan(Group& group, const StepContext& ctx) override;
    float queryRadius() const override { return m_params.width; }
    bool keepsOwnBodies() const override { return true; }
    float bodyRadius() const override { return 0.5f * m_params.width; }
    float keepDistance() const override { return m_params.width; }
    std::size_t memoryBytes() const override;
    void hashState(std::uint64_t& h) const override;
    void saveState(StateWriter& out) const override;
    bool loadState(StateReader& in, const StaticGeometry& geometry) override;
    /// A worm's body is the path its head took: one cannot appear or vanish mid-level.
    bool allowsSpawning() const override { return false; }
    const std::vector<std::uint32_t>* pickupsTaken() const override { return &m_eaten; }
    const WormParams& params() const { return m_params; }

    // Read access for the editor and tests. `worm` is the agent index in the group.
    int wormCount() const { return m_worms; }
    /// Points of the body polyline, head first, tail last (at least 2).
    int jointCount(int worm) const { return m_count[static_cast<std::size_t>(worm)]; }
    Vec2 joint(int worm, int k) const;
    /// The whole polyline, head first (`out` is reused).
    void joints(int worm, std::vector<Vec2>& out) const;
    /// Where the worm is heading: the pointer while held, then the last pressed position
    /// until the head reaches it.
    bool hasTarget(int worm) const { return m_hasTarget[static_cast<std::size_t>(worm)] != 0; }
    Vec2 target(int worm) const;
    /// Length the body has (or grows to): `length` plus what it has eaten, m.
    float length(int worm) const;
    /// Length of the polyline now, m (below length() while a meal is still growing in).
    double bodyLength(int worm) const { return m_bodyLength[static_cast<std::size_t>(worm)]; }
    /// The mitred ribbon: left and right edge points, one per polyline point (head first).
    /// Consecutive segments' offset edges meet at one point, so there is no gap or overlap
    /// at any joint; at the head and tail the edge ends square across.
    void outline(int worm, std::vector<Vec2>& left, std::vector<Vec2>& right) const override;

    // AgentBodies: a viewer draws each worm from these.
    int bodyCount() const override { return m_worms; }
    float bodyWidth() const override { return m_params.width; }
    float segmentLength() const override { return m_params.minSegmentLength; }
    int pointCount(int worm) const override { return jointCount(worm); }
    Vec2 point(int worm, int k) const override { return joint(worm, k); }
    float centreLineLength(int worm) const override { return static_cast<float>(bodyLength(worm)); }

    void sketch(const Group& group, const StepContext& ctx, const SketchRequest& request,
                Sketch& out) const override;
    const char* agentState(const Group& group, std::size_t i) const override;
    const AgentBodies* bodies() const override { return this; }
    /// Worms are kept in the order of their heads' cells like the school's fish, so a step
    /// reads the level, the grid and the other bodies near one worm after another; their
    /// rings stay where they are (m_ring says whose is whose).
    bool allowsReordering() const override { return true; }
    void permuteAgents(const std::vector<std::uint32_t>& order) override;

private:
    /// The bodies near the head being stepped (gatherNear), nearest first.
    static constexpr int kNearCapacity = 16;
    struct NearBodies
    {
        NearBody at[kNearCapacity];
        int count = 0;
    };
    /// Joints a worm's step may add at most (a joint where it turns, one where it bends at
    /// a wall): preparePlan() makes room for them first, so no part grows the rings.
    static constexpr int kJointsPerStep = 2;
    void allocate(int worms, int capacity);
    /// Whether worm w's ring is the w-th for every w (no reordering since the rings were laid).
    bool ringsInOrder() const;
    void growCapacity();
    int requiredCapacity() const;
    std::size_t slot(int w, int k) const
    {
        int s = m_headSlot[static_cast<std::size_t>(w)] + k;
        if (s >= m_capacity)
            s -= m_capacity;
        return static_cast<std::size_t>(m_ring[static_cast<std::size_t>(w)]) *
                   static_cast<std::size_t>(m_capacity) +
               static_cast<std::size_t>(s);
    }
    /// How many worms ahead planPart() asks for a worm's head and tail slots.
    static constexpr std::size_t kPrefetchWorms = 4;
    void prefetchEnds(int w) const
    {
        const int count = m_count[static_cast<std::size_t>(w)];
        prefetchLine(&m_joints[slot(w, 0)]);
        prefetchLine(&m_joints[slot(w, count - 2)]);
    }
    Vec2 fixedJoint(int w, int k) const
    {
        const JointSlot& j = m_joints[slot(w, k)];
        return {j.x, j.y};
    }
    /// Direction of segment k (joint k+1 -> joint k, toward the head); `fallback` if empty.
    Vec2 segmentDirection(int w, int k, Vec2 fallback) const;
    float fitLength(const StaticGeometry& geometry, Vec2 head, float heading, float wanted) const;
    void layBody(int w, Vec2 head, float heading, float bodyLength);
    /// Lays worm w along `points` (head first, at least 2, each joint within maxTurnAngle and
    /// each segment at least minSegmentLength but the last), its head segment along `heading`.
    void layBody(int w, const std::vector<Vec2>& points, float heading);
    /// A spawned worm's resting pose: a gentle wave behind the head (phase `phase`, rad), cut
    /// where it would come within half the width of geometry. `out` gets the joints, head
    /// first; returns the length laid, m (0: nothing fits).
    float curvedBody(const StaticGeometry& geometry, Vec2 head, float heading, float phase,
                     std::vector<Vec2>& out) const;
    void resetBodies(const Group& group, const StaticGeometry* geometry);
    void pushJoint(int w);
    /// Moves the head `distance` m further along its heading.
    void advanceHead(int w, float distance);
    void trimTail(int w);
    /// Starts a new head segment along `heading` (or re-aims an empty one).
    void setHeadingAtJoint(int w, float heading);
    /// `wanted`, limited to maxTurnAngle from turnBase().
    float limitedTurn(int w, float wanted) const;
    /// Feeler length: half the width, two segments and a turning radius (capped), m.
    float lookAhead() const;
    /// At a joint in slide mode: `wanted`, or the allowed turn that keeps clear of walls and
    /// leaves a way out. `stepLength` = speed x dt, m.
    /// `walls` null: only the bodies `near` are steered round (stop mode, or no
    /// wall within reach).
    float wallAwareHeading(const NearBodies& near, int w, Vec2 head, float wanted, float stepLength,
                           const StaticGeometry* walls) const;
    /// wallAwareHeading with no turn that is clear and leaves a way out: the hardest turn
    /// toward the side with a way out, else the side whose feeler (`reachLeft`,
    /// `reachRight`, m) reaches further, else toward `wanted`.
    float walledInTurn(int w, Vec2 head, float wanted, float reachLeft, float reachRight,
                       float stepLength, const StaticGeometry* walls) const;
    /// Whether the worm, making a joint onto `heading` at `head`, could then circle at its
    /// sharpest turn (maxTurnAngle at every joint) to the left (side +1) or the right (-1)
    /// without its head meeting geometry.
    bool circleIsClear(Vec2 head, float heading, float side, float stepLength,
                       const StaticGeometry& geometry) const;
    /// How long a segment is when its joint is made: minSegmentLength rounded up to whole
    /// steps of `stepLength` m (a joint is made at the first step that finds it long enough).
    float segmentChord(float stepLength) const;
    /// circleIsClear to either side: a way out the worm can always take.
    bool hasWayOut(Vec2 head, float heading, float stepLength,
                   const StaticGeometry& geometry) const;
    /// The heading a turn is measured from: the head segment's, or the segment behind an
    /// empty head segment (then the turn re-aims that joint).
    float turnBase(int w) const;
    /// The look-ahead's clearRun: how far the head gets from `head` along the unit `dir`, up
    /// to `look` m, before it comes within half the width of a surface, by three rays (along
    /// the centre line and either side of it), each stopping the head half the width off the
    /// line of the surface it meets. `surface` (optional): the surface that stops it first.
    float feelerReach(const StaticGeometry& geometry, Vec2 head, Vec2 dir, float look,
                      RayHit* surface) const;
    /// How far the head gets from `from` along the unit `dir`, up to `length` m, as a solid
    /// body: its centre never comes nearer any surface than half the width (a couple of
    /// millimetres of slack), beside the leg and round corners as well as ahead. `surface`
    /// (optional) gets what stopped it: the surface met ahead, or the surface point nearest the
    /// head where it stopped beside the leg, with the normal from that point toward the head.
    float clearRun(const StaticGeometry& geometry, Vec2 from, Vec2 dir, float length,
                   RayHit* surface) const;
    /// Where the head gets moving `length` m along `heading` from `from` (clearRun, and
    /// bodyRun against the bodies near); `blocked` is set when geometry or a body shortened
    /// the move, `byBody` (optional) when it was a body.
    Vec2 advance(const NearBodies& near, float heading, Vec2 from, float length,
                 const StaticGeometry* geometry, bool* blocked, RayHit* surface,
                 bool* byBody = nullptr) const;
    /// How far the head gets from `from` along the unit `dir`, up to `length` m, before it
    /// comes within a skin of touching a body `near` it; a body it already touches
    /// stops it only if the move leads nearer that body's centre. `contact` (optional): the
    /// body's surface point and the normal from it toward the head, when one stopped it.
    float bodyRun(const NearBodies& near, Vec2 from, Vec2 dir, float length, RayHit* contact) const;
    /// Lists the bodies the head of worm w at `head` may meet this step or see ahead.
    void gatherNear(const Group& group, int w, Vec2 head, const StepContext& ctx,
                    NearBodies& near) const;
    /// Where worm w heads this step: the pointer, the last pressed point, or a wander.
    struct Aim
    {
        float heading = 0.0f;
        float goalDistance = 0.0f;
        bool atGoal = true;
    };
    Aim aim(const Group& group, int w, Vec2 head, const StepContext& ctx);
    /// A wall stopped the head `rest` m short: bend along it (slide) or toward the target
    /// (stop) and crawl on. Returns how far the head went after the bend.
    /// `byBody`: a body stopped it, and the head bends along the body whatever the wall
    /// response.
    float bendAtWall(const NearBodies& near, int w, float wanted, float rest, const RayHit& surface,
                     const StaticGeometry* geometry, bool byBody);
    /// Coins within eatRadius of the head are eaten; the body grows by growthPerCoin each.
    /// (Of the coins in m_coins, the ones not taken when this step's eating began.)
    void eatCoins(int w, Vec2 head, const StepContext& ctx);
    void stepWorm(Group& group, int w, const StepContext& ctx, NearBodies& near);

    WormParams m_params;
    int m_worms = 0;
    int m_capacity = 0; ///< joint slots per worm (ring buffer)

    /// A joint slot of a worm's ring: where the joint is, and the full length of the segment
    /// from it toward the tail. One struct, not three arrays: a step reads a worm's head and
    /// tail slots, each then one cache line (at 100,000 worms the rings are 50 MB).
    struct JointSlot
    {
        float x = 0.0f;
        float y = 0.0f;
        float segLength = 0.0f;
    };
    // Per joint slot, worms x capacity. Joints never move once made, except the head.
    /// (On large pages: the world reorders worms, not rings, so a step reads the rings in an
    /// order unlike their layout, a page per worm.)
    using Rings = std::vector<JointSlot, LargePageAllocator<JointSlot>>;
    Rings m_joints;

    // Per worm.
    std::vector<std::uint32_t> m_ring; ///< which ring of m_joints is this worm's
    std::vector<int> m_headSlot;       ///< ring index of the head joint
    std::vector<int> m_count; ///< joints in the ring, head and the tail segment's far end included
    std::vector<double> m_pathLength; ///< sum of segLength over the worm's segments
    std::vector<double> m_tailCut;    ///< length already eaten off the last segment's far end
    std::vector<double> m_bodyLength; ///< polyline length = m_pathLength - m_tailCut
    std::vector<float> m_heading;     ///< rad, direction of the head segment
    std::vector<float> m_grown;       ///< m gained from coins
    std::vector<float> m_targetX, m_targetY;
    std::vector<std::uint8_t> m_hasTarget;

    /// Per worker, the bodies near the head it is stepping (scratch of planPart()).
    std::vector<NearBodies> m_near;
    /// The group's target as last taken (Group::targetVersion): a new one sends every worm.
    std::uint32_t m_seenTargetVersion = 0;
    /// The coins eaten in the last plan: (worm, pickup index) pairs (pickupsTaken()).
    std::vector<std::uint32_t> m_eaten;
    /// The coins left on the level when the last plan's eating began, in pickup order
    /// (scratch of finishPlan: the worms look only at these, not at every pickup).
    std::vector<std::uint32_t> m_coins;
    /// Where those coins are, and a grid of them (finishPlan's scratch, as m_coins).
    std::vector<float> m_coinX, m_coinY;
    UniformGrid m_coinGrid;
    /// eatCoins' scratch: the coins (places in m_coins) round the head.
    std::vector<std::uint32_t> m_coinsNear;
    /// permuteAgents()'s room, one per type of the per-worm arrays (no allocation once warm).
    struct Reordering
    {
        std::vector<std::uint32_t> u32;
        std::vector<int> i32;
        std::vector<double> f64;
        std::vector<float> f32;
        std::vector<std::uint8_t> u8;
    };
    Reordering m_reordering;
};

} // namespace shoal
