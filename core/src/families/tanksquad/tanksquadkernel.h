#pragma once
// The tank squad's plan kernel: a tank's goal, its neighbour scan, its wish and its drive as
// inlined templates over a neighbour search and its lanes, and TankSquadBehaviour::
// planPartWith over them. Included by tanksquadplan.cpp (the grid on four lanes and the
// brute-force reference) and by tanksquadplanwide.cpp (the grid on eight lanes, inside its
// AVX2 region): the helpers live in an unnamed namespace on purpose, so each file has its
// own copies, built for its own instruction set. Each file instantiates planPartWith for its
// own searches only (the wide one for WideGrid alone): an instance both built, one for AVX2,
// could be the one the linker hands the baseline's callers (tests/build/avx_guard.py fails
// the build then).

#include "families/tanksquad/tanksquad.h"

#include "kernels/lanetrig.h"
#include "kernels/neighbourscan.h"
#include "math/fastmath.h"
#include "steering/drive.h"
#include "steering/steering.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace shoal {

namespace {

// The seed's "target is behind" test: forward dot direction-to-target below this.
constexpr float kBehindDot = -0.2f;
// Near its spot a tank drives no slower than this share of the speed it could still stop
// from (speedEasing x distance): it coasts a quarter of the way after parking.
constexpr float kCreep = 0.5f;
// A blocked tank that moved along its heading at less than this share of its cruise speed
// was held back: it drives on from the speed it had.
constexpr float kHeldBack = 0.1f;

/// What one tank's neighbour scan found.
struct SquadScan
{
    Vec2 keep;                  ///< the push away from the tanks within keepDistance
    Vec2 align;                 ///< sum of their velocities
    float gapAhead = 0.0f;      ///< bumper to bumper to the nearest tank in front, m
    bool parkedAhead = false;   ///< that tank is parked
    bool touchesParked = false; ///< a parked tank nearer the target touches this one
    /// How far the tank may drive forward (backward) before it touches a tank it closes on,
    /// anywhere in its front (rear) half: driving s along the heading shortens the way to a
    /// tank at angle a off the nose by at most s cos a, so the room is gap / cos a.
    float roomAhead = 0.0f;
    float roomBehind = 0.0f;
    /// Squared distance to the nearest squad mate within keepDistance (FLT_MAX with none).
    float nearest2 = std::numeric_limits<float>::max();
};

/// One tank as its plan sees it.
struct Tank
{
    std::size_t i = 0;
    std::uint32_t slot = 0; ///< cell-order index
    Vec2 pos;
    Vec2 forward;
    Vec2 target;
    float dist = 0.0f;   ///< to its goal (its spot, or the target)
    float way = 0.0f;    ///< how far it had to go at the step's start (its goalDistance)
    bool stuck = false;  ///< held up for two seconds
    float id = 0.0f;     ///< its identity, as a float (exact below 2^24)
    float actual = 0.0f; ///< the speed it moved at last step, along its heading (signed)
};

/// What the scan reads of the neighbours, in cell order.
struct SquadLanes
{
    const float* vx;
    const float* vy;
    const std::uint32_t* arrived; ///< lane masks: parked
    const float* way;             ///< goalDistance
    const float* id;
};

/// The scan's lanes of the squad's parameters and numbers: the same for every tank of a step,
/// so they are made once per step rather than once per tank.
template <class V> struct ScanConstants
{
    template <class Numbers> // TankSquadBehaviour::ScanNumbers
    ScanConstants(const TankSquadParams& p, const Numbers& numbers)
        : range(p.keepDistance), keepDistance(p.keepDistance), inverseKeep(1.0f / p.keepDistance),
          hull(2.0f * p.radius), one(numbers.one), quarter(numbers.quarter),
          glancing(numbers.glancing), touching(numbers.touching)
    {
    }
    float range; ///< keepDistance
    V keepDistance;
    V inverseKeep;
    V hull; ///< two radii: bumper to bumper at this distance
    V one;
    V quarter;
    V glancing;
    V touching;
    V zero{0.0f};
};

/// What of the scan a tank's plan reads this step: the rest is not worked out.
struct ScanNeeds
{
    bool touchesParked = false; ///< whether a parked tank nearer the target touches it
    bool roomBehind = false;    ///< how far it may back up
};

/// a.sum(), b.sum(), c.sum() and d.sum() into out[0..3].
template <class V> SHOAL_FORCE_INLINE inline void sumLanes(V a, V b, V c, V d, float out[4])
{
    out[0] = a.sum();
    out[1] = b.sum();
    out[2] = c.sum();
    out[3] = d.sum();
}

#if SHOAL_SSE2_LANES
/// The same four sums with one transpose and three adds instead of four horizontal sums:
/// each is (v0 + v1) + (v2 + v3), as Float4::sum() adds them.
SHOAL_FORCE_INLINE inline void sumLanes(Float4 a, Float4 b, Float4 c, Float4 d, float out[4])
{
    __m128 r0 = a.v, r1 = b.v, r2 = c.v, r3 = d.v;
    _MM_TRANSPOSE4_PS(r0, r1, r2, r3); // r0 = (a0, b0, c0, d0), r1 = (a1, b1, c1, d1), ...
    _mm_storeu_ps(out, _mm_add_ps(_mm_add_ps(r0, r1), _mm_add_ps(r2, r3)));
}
#endif

/// How the squad's scans walk their neighbours: scanNeighbours() itself (the brute-force
/// reference, and builds without SSE2).
template <class Search> class SquadWalk
{
public:
    SquadWalk(const Search&, float, std::vector<float>&) {}
    static void prepareSlots(const Search&, std::size_t, std::vector<float>&) {}
    template <class Kernel>
    SHOAL_FORCE_INLINE void scan(const Search& search, Vec2 p, float radius, std::uint32_t self,
                                 Kernel&& kernel)
    {
        scanNeighbours(search, p, radius, self, kernel);
    }
};

#if SHOAL_SSE2_LANES
/// The grid's forEachRange() and scanNeighbours() for every tank of a step, for less per tank:
/// the same runs of slots, the same lane groups and the same lanes in range, so the kernel
/// sees exactly what scanNeighbours() hands it. What every query of the step shares is worked
/// out once (the padded reach, the grid's cells); a query's cell box takes one lane group;
/// and a tank's own slot is left out by a NaN in a copy of the slots' x (never in range),
/// where scanNeighbours() tests every lane group for it and for its run's end: here only a
/// run's last group is cut at the end. V is the lanes (Float4 here, Float8 in the wide plan).
template <class V> class GridSquadWalk
{
public:
    using Mask = typename V::Mask;

    /// Copies the slots' x of `grid` (of `count` points) into `slotX`, for a walk: each
    /// thread walks its own copy, as the walk marks the tank's own slot in it.
    static void prepareSlots(const UniformGrid& grid, std::size_t count, std::vector<float>& slotX)
    {
        // A grid of no points has no slot storage to copy (a squad whose spawn placed none).
        if (grid.size() == 0)
            slotX.assign(kLanePadding, 0.0f);
        else
            slotX.assign(grid.slotX(), grid.slotX() + count + kLanePadding);
    }
    /// Queries of `radius` in `grid`, over `slotX` as prepareSlots() left it.
    GridSquadWalk(const UniformGrid& grid, float radius, std::vector<float>& slotX)
        : m_grid(grid), m_slotX(slotX), m_radius2(radius * radius), m_cols(grid.columns())
    {
        // As UniformGrid::cellBox() pads and scales a query's box.
        const float reach = radius * 1.0001f + 1e-5f;
        const Vec2 origin = grid.origin();
        const GridCellShape cells = grid.cellShape();
        const float columns = static_cast<float>(grid.columns());
        const float rows = static_cast<float>(grid.rows());
        m_reach = _mm_setr_ps(-reach, -reach, reach, reach);
        m_origin = _mm_setr_ps(origin.x, origin.y, origin.x, origin.y);
        m_inverse = _mm_setr_ps(1.0f / cells.columnWidth, 1.0f / cells.rowHeight,
                                1.0f / cells.columnWidth, 1.0f / cells.rowHeight);
        m_upper = _mm_setr_ps(columns, rows, columns - 1.0f, rows - 1.0f);
        m_last = _mm_setr_epi32(0, 0, grid.columns() - 1, grid.rows() - 1);
        m_empty = grid.size() == 0;
    }

    template <class Kernel>
    SHOAL_FORCE_INLINE void scan(Vec2 p, std::uint32_t self, Kernel&& kernel)
    {
        // cellBox(): lanes (x0, y0, x1, y1) of the box, each the same float arithmetic.
        const __m128 f = _mm_mul_ps(
            _mm_sub_ps(_mm_add_ps(_mm_setr_ps(p.x, p.y, p.x, p.y), m_reach), m_origin), m_inverse);
        const __m128 zero = _mm_setzero_ps();
        // fx0 < cols && fy0 < rows && fx1 >= 0 && fy1 >= 0 (NaN fails every one).
        const int inside = (_mm_movemask_ps(_mm_cmplt_ps(f, m_upper)) & 3) |
                           (_mm_movemask_ps(_mm_cmpge_ps(f, zero)) & 12);
        if (m_empty || inside != 15)
            return;
        // x0 = fx0 > 0 ? int(fx0) : 0, ..., x1 = fx1 < cols - 1 ? int(fx1) : cols - 1, ...
        const __m128 take = _mm_shuffle_ps(_mm_cmpgt_ps(f, zero), _mm_cmplt_ps(f, m_upper),
                                           _MM_SHUFFLE(3, 2, 1, 0));
        const __m128i box = _mm_or_si128(_mm_and_si128(_mm_castps_si128(take), _mm_cvttps_epi32(f)),
                                         _mm_andnot_si128(_mm_castps_si128(take), m_last));
        alignas(16) int cell[4];
        _mm_store_si128(reinterpret_cast<__m128i*>(cell), box);

        constexpr int W = V::kWidth;
        const float* xs = m_slotX.data();
        const float* ys = m_grid.slotY();
        const V px(p.x);
        const V py(p.y);
        const V r2(m_radius2);
        const float own = xs[self];
        m_slotX[self] = std::numeric_limits<float>::quiet_NaN();
        auto lanesAt = [&](std::uint32_t slot, Mask valid) SHOAL_FORCE_INLINE {
            const V dx = px - V::load(xs + slot);
            const V dy = py - V::load(ys + slot);
            const V d2 = dx * dx + dy * dy;
            kernel(slot, dx, dy, d2, (d2 <= r2) & valid);
        };
        const typename V::Slots lanes = V::slotsFrom(0);
        const typename V::Slots none = V::everyLane(~0u); // no lane is the tank's own
        const Mask every = V::validLanes(lanes, V::everyLane(W), none);
        for (int y = cell[1]; y <= cell[3]; ++y) {
            const int rowBase = y * m_cols;
            const std::uint32_t begin = m_grid.cellBegin(rowBase + cell[0]);
            const std::uint32_t end = m_grid.cellBegin(rowBase + cell[2] + 1);
            if (begin >= end)
                continue;
            std::uint32_t slot = begin;
            for (; end - slot > W; slot += W)
                lanesAt(slot, every);
            // The run's last group: lanes past its end are the next cells' points.
            lanesAt(slot, V::validLanes(lanes, V::everyLane(end - slot), none));
        }
        m_slotX[self] = own;
    }

private:
    const UniformGrid& m_grid;
    std::vector<float>& m_slotX;
    float m_radius2;
    int m_cols;
    bool m_empty = false;
    __m128 m_reach, m_origin, m_inverse, m_upper;
    __m128i m_last;
};

/// The four-lane walk on the grid.
template <> class SquadWalk<UniformGrid> : public GridSquadWalk<Float4>
{
public:
    using GridSquadWalk<Float4>::GridSquadWalk;
    template <class Kernel>
    SHOAL_FORCE_INLINE void scan(const UniformGrid&, Vec2 p, float, std::uint32_t self,
                                 Kernel&& kernel)
    {
        GridSquadWalk<Float4>::scan(p, self, kernel);
    }
};
#endif

/// The nearest tank in front a scan has met, lane by lane: its gap and whether it is parked.
/// The first met wins a tie (the lanes meet their tanks in slot order). The wide plan's
/// eight lanes keep more (tanksquadplanwide.cpp).
template <class V> struct NearestInFront
{
    using Mask = typename V::Mask;
    V gap;
    Mask parked = noLanes<V>();

    explicit NearestInFront(V keepDistance) : gap(keepDistance) {}
    /// The lanes of `candidates` nearer than the nearest yet.
    SHOAL_FORCE_INLINE Mask nearer(Mask candidates, V gaps) const
    {
        return candidates & (gaps < gap);
    }
    /// Those lanes (`nearer`, of lane group `slot`) become the nearest; `parkedLanes` say
    /// which of them are parked.
    SHOAL_FORCE_INLINE void take(Mask nearer, V gaps, Mask parkedLanes, std::uint32_t)
    {
        gap = select(nearer, gaps, gap);
        parked = (nearer & parkedLanes) | andNot(nearer, parked);
    }
    /// take() where no lane is parked.
    SHOAL_FORCE_INLINE void takeUnparked(Mask nearer, V gaps, std::uint32_t)
    {
        gap = select(nearer, gaps, gap);
        parked = andNot(nearer, parked);
    }
    /// The nearest of all lanes into `gapAhead` (left as it is when no lane is below it) and
    /// `parkedAhead`: the first lane's, on a tie. No lane is NaN or -0 (a gap is d - hull),
    /// so the lanes equal to the least are those not above it.
    SHOAL_FORCE_INLINE void result(float& gapAhead, bool& parkedAhead) const
    {
        const float nearest = minLane(gap);
        if (nearest < gapAhead) {
            gapAhead = nearest;
            const int first = __builtin_ctz(static_cast<unsigned>(laneBits(gap <= V(nearest))));
            parkedAhead = (laneBits(parked) >> first) & 1;
        }
    }
};

/// Keep distance (v1) and align (v2) within keepDistance, a lane of neighbours at a time.
/// A tank keeps its distance from the tanks ahead of it on the way (less far to go; the same,
/// and a lower identity), not from those behind: two abeam at a door would otherwise push
/// each other off it for ever; now one goes first. Also the room in front of and behind the
/// hull (bumper to bumper, m) for braking, whether the nearest tank in front is parked, and
/// (with kTouchesParked) whether an arrived member nearer the target touches this one (then
/// this tank has arrived too). The room behind only with kRoomBehind.
template <bool kTouchesParked, bool kRoomBehind, class Search>
SHOAL_FORCE_INLINE inline SquadScan
scanSquadFor(const Search& search, const ScanConstants<typename Search::Lanes>& c, const Tank& t,
             const SquadLanes& lanes, std::uint64_t seed, SquadWalk<Search>& walk)
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;
    const V forwardX(t.forward.x);
    const V forwardY(t.forward.y);
    const V fromTargetX(t.pos.x - t.target.x);
    const V fromTargetY(t.pos.y - t.target.y);
    const V dist2(t.dist * t.dist);
    const V myWay(t.way);
    const V myId(t.id);
    // A stuck tank stops braking for the tanks behind it on the way (even nose to nose): in a
    // jam the one with the least way to go drives on, and the jam unwinds behind it.
    const Mask noseCone = V(t.stuck ? 0.0f : 1.0f) > V(0.5f);
    // Sums in the four-lane order at any width (V::Sum); minima in any order.
    typename V::Sum alignX, alignY, keepX, keepY;
    NearestInFront<V> nearestAhead(c.keepDistance);
    V roomAheadLanes = c.keepDistance;
    V roomBehindLanes = c.keepDistance;
    Mask arrivedLanes = noLanes<V>();
    Mask touched = noLanes<V>();
    V nearestLanes(std::numeric_limits<float>::max());
    walk.scan(
        search, t.pos, c.range, t.slot,
        [&](std::uint32_t slot, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
            // Most lane groups of a query's runs hold no tank within range (a tank has about
            // five neighbours in some four groups): they would add nothing.
            if (!any(in))
                return;
            nearestLanes = min(select(in, d2, nearestLanes), nearestLanes);
            alignX += masked(in, V::load(lanes.vx + slot));
            alignY += masked(in, V::load(lanes.vy + slot));
            // Lanes exactly on top of this tank are left to touchingSplit.
            const Mask touching = in & (d2 < c.touching);
            touched = touched | touching;
            const Mask pushing = andNot(touching, in);
            const V d = sqrt(d2); // (near) zero only on lanes the masks drop
            const V s = (c.one - d * c.inverseKeep) / d;
            const V theirWay = V::load(lanes.way + slot);
            const Mask ahead =
                (theirWay < myWay) | ((theirWay <= myWay) & (V::load(lanes.id + slot) < myId));
            keepX += masked(pushing & ahead, dx * s);
            keepY += masked(pushing & ahead, dy * s);
            // Within 60 degrees of the nose (the other is in front: `toward`, the heading's
            // share of the way from it to this tank, is negative) or the tail.
            const V toward = dx * forwardX + dy * forwardY;
            const Mask cone = pushing & (toward * toward > c.quarter * d2);
            const Mask inFront = toward < c.zero;
            const V gap = d - c.hull;
            const Mask closerAhead = nearestAhead.nearer(cone & inFront, gap);
            // Braking: driving s along the heading closes on a tank at angle a off
            // the nose by s cos a, so the room is gap / cos a (the glancing ones
            // barely count). For the tanks that are parked, ahead on the way or in
            // the nose (tail) cone: one behind, off to the side, gives way instead,
            // or two touching side by side at a door would hold each other there
            // for ever.
            Mask closing = pushing & ((cone & noseCone) | ahead);
            // Most lane groups hold no parked tank (a squad parks round its target only):
            // they skip what only parked ones change. (Masks: the same bits either way.)
            const Mask parked = V::loadMask(lanes.arrived + slot);
            if (any(parked)) {
                closing = closing | (pushing & parked);
                nearestAhead.take(closerAhead, gap, parked, slot);
                if (kTouchesParked) {
                    // The other's offset from the target is (pos - target) - (dx, dy).
                    const V ox = fromTargetX - dx;
                    const V oy = fromTargetY - dy;
                    arrivedLanes = arrivedLanes | (pushing & parked & (ox * ox + oy * oy < dist2));
                }
            } else {
                nearestAhead.takeUnparked(closerAhead, gap, slot);
            }
            const V room = max(gap, c.zero) * d / max(abs(toward), c.glancing * d);
            roomAheadLanes = min(roomAheadLanes, select(closing & inFront, room, roomAheadLanes));
            if (kRoomBehind)
                roomBehindLanes =
                    min(roomBehindLanes, select(andNot(inFront, closing), room, roomBehindLanes));
        });
    const float keepDistance = c.range;
    SquadScan out;
    float sums[4];
    sumLanes(keepX, keepY, alignX, alignY, sums);
    out.keep = {sums[0], sums[1]};
    if (SHOAL_UNLIKELY(any(touched)))
        out.keep += touchingSplit(search, t.pos, t.slot, static_cast<std::uint32_t>(t.i), seed, 3,
                                  [](std::uint32_t) { return true; });
    out.align = {sums[2], sums[3]};
    // The nearest tank in front (no lane is above keepDistance).
    out.gapAhead = keepDistance;
    nearestAhead.result(out.gapAhead, out.parkedAhead);
    out.roomAhead = minLane(roomAheadLanes);
    out.roomBehind = kRoomBehind ? minLane(roomBehindLanes) : keepDistance;
    out.touchesParked = any(arrivedLanes);
    out.nearest2 = minLane(nearestLanes);
    return out;
}

/// scanSquadFor() with what `needs` asks for: one loop per combination, as a test in every
/// lane group would cost about what it saves.
template <class Search>
SHOAL_FORCE_INLINE inline SquadScan
scanSquad(const Search& search, const ScanConstants<typename Search::Lanes>& c, const Tank& t,
          ScanNeeds needs, const SquadLanes& lanes, std::uint64_t seed, SquadWalk<Search>& walk)
{
    if (needs.touchesParked)
        return needs.roomBehind ? scanSquadFor<true, true>(search, c, t, lanes, seed, walk)
                                : scanSquadFor<true, false>(search, c, t, lanes, seed, walk);
    return needs.roomBehind ? scanSquadFor<false, true>(search, c, t, lanes, seed, walk)
                            : scanSquadFor<false, false>(search, c, t, lanes, seed, walk);
}

/// How a tank heads for its goal this step.
enum class Heading : std::uint8_t
{
    Spot,     ///< toward its spot, in the squad
    Parking,  ///< among the spots: keeping apart, not copying the others' movement
    Alone,    ///< its spot is near: straight there, keeping apart and aligning no more
    Overflow, ///< no spot for it: toward the target, parks against the parked tanks
    /// A goal of its own (World::setAgentGoal): straight there, keeping apart from the others
    /// (no spot keeps them apart at the goal, nor on the way), aligning with none.
    Own
};

/// Whether the tank parks this step: it was parked (and the target stayed), or the squad has
/// no target; a tank with a spot once it is inside arriveDistance of it; one without (more
/// tanks than spots) when it reaches the target, touches a parked tank nearer it, or has its
/// nose against a parked tank near the squad's parking disc (as close as it gets).
SHOAL_FORCE_INLINE inline bool parks(bool wasParked, const SquadScan& scan, const Group& group,
                                     const TankSquadParams& p, float dist, float parkRadius,
                                     bool resettle, Heading heading)
{
    if (wasParked || (!group.hasTarget && heading != Heading::Alone && heading != Heading::Own))
        return true;
    if (heading == Heading::Alone || heading == Heading::Own)
        return dist < p.arriveDistance;
    if (heading != Heading::Overflow)
        return false;
    return scan.touchesParked || dist < p.arriveDistance ||
           (!resettle && scan.parkedAhead && scan.gapAhead < 0.5f && dist < 2.0f * parkRadius);
}

/// What a tank's rules want this step: a direction, a cruise speed (negative reversing) and
/// the flags that say so.
struct TankWish
{
    Vec2 direction;
    float cruise = 0.0f;
    bool reverse = false;
    std::uint8_t flags = 0;
};

/// Parked: no more steering, ease to a stop (what ends the orbiting and jostling of the
/// seed, where separation kept every tank driving forever). Otherwise the target's pull
/// (`targetPull`) plus keeping apart, aligning and the walls; with `reverse` (a goal close
/// behind) the tank backs up to it.
SHOAL_FORCE_INLINE inline TankWish tankWish(const TankSquadParams& p,
                                            const StaticGeometry& geometry, const Tank& t,
                                            float room, const SquadScan& scan, bool arrived,
                                            Vec2 targetPull, Heading heading, bool reverse)
{
    TankWish wish;
    if (arrived) {
        wish.flags = kAgentArrived | kAgentAtGoal;
        return wish;
    }
    wish.cruise = p.moveSpeed;
    wish.direction = targetPull;
    // Near its spot a tank drives there alone: the spots keep the distance, and pushing
    // apart would only push it off its place (braking still keeps it clear of the others).
    // Among the spots, copying the movement of tanks bound for other spots would only lead
    // it away from its own.
    if (heading != Heading::Alone)
        wish.direction += scan.keep.normalizedOr({}) * p.keepWeight;
    if (heading == Heading::Spot || heading == Heading::Overflow)
        wish.direction += scan.align.normalizedOr({}) * p.moveWeight;
    wish.direction +=
        geometry.feelerAvoidance(t.pos, t.forward, p.feelerLength, room) * p.wallWeight;
    if (reverse) {
        wish.reverse = true;
        wish.cruise = -p.moveSpeed * p.reverseSpeed;
        wish.flags = kAgentReversing;
    }
    return wish;
}

/// A tank's move along its drive `r` to its next state. The speed is capped so that, braking
/// at speedEasing, the tank stops before it touches a tank in its way (the seed only steers
/// apart, and a fast tank still rams a parked one); `cruise` is the eased cruise speed it
/// keeps for the next step.
SHOAL_FORCE_INLINE inline void moveTank(AgentArrays& a, std::size_t i, Vec2 pos,
                                        const TankSquadParams& p, const StaticGeometry& geometry,
                                        float dt, float room, DriveResult r, float cruise,
                                        float roomAhead, float roomBehind, bool& blocked)
{
    if (r.speed > 0.0f)
        r.speed = std::min(r.speed, std::max(0.0f, roomAhead) * p.speedEasing);
    else if (r.speed < 0.0f)
        r.speed = std::max(r.speed, -std::max(0.0f, roomBehind) * p.speedEasing);
    const Vec2 want = pos + r.forward * (r.speed * dt);
    const Vec2 next =
        geometry.constrainMove(pos, want, p.radius, WallResponse::Slide, &blocked, room);
    a.nx[i] = next.x;
    a.ny[i] = next.y;
    a.nvx[i] = (next.x - pos.x) * (1.0f / dt);
    a.nvy[i] = (next.y - pos.y) * (1.0f / dt);
    a.nheading[i] = r.heading;
    a.nspeed[i] = std::fabs(cruise) < 1e-3f ? 0.0f : cruise;
}

/// The tanks under way this step and driving forward, queued until there are a lane group's
/// worth: their wish (tankWish) and drive (driveLanes) then run on W tanks at once, each lane
/// exactly what it would be alone, for about what one tank costs.
template <int W> struct DriveQueue
{
    int count = 0;
    std::uint32_t index[W];
    std::uint8_t flags[W];
    alignas(16) std::uint32_t keeps[W];  ///< lane masks: keeps apart (tankWish)
    alignas(16) std::uint32_t aligns[W]; ///< lane masks: aligns
    alignas(16) float heading[W];
    alignas(16) float forwardX[W];
    alignas(16) float forwardY[W];
    alignas(16) float pullX[W]; ///< the target's pull
    alignas(16) float pullY[W];
    alignas(16) float keepX[W]; ///< the scan's push apart
    alignas(16) float keepY[W];
    alignas(16) float alignX[W]; ///< the scan's summed velocities
    alignas(16) float alignY[W];
    alignas(16) float wallX[W]; ///< the feelers' push off the walls, weighted
    alignas(16) float wallY[W];
    alignas(16) float speed[W]; ///< the cruise speed it had (a.speed)
    alignas(16) float x[W];
    alignas(16) float y[W];
    alignas(16) float room[W]; ///< clearance where it is
    alignas(16) float roomAhead[W];
    alignas(16) float roomBehind[W];

    void push(std::size_t i, std::uint8_t tankFlags, float tankHeading, const Tank& t, Vec2 pull,
              const SquadScan& scan, Vec2 wall, float tankSpeed, float clearance, Heading kind)
    {
        const int l = count++;
        index[l] = static_cast<std::uint32_t>(i);
        flags[l] = tankFlags;
        keeps[l] = kind != Heading::Alone ? ~0u : 0u;
        aligns[l] = kind == Heading::Spot || kind == Heading::Overflow ? ~0u : 0u;
        heading[l] = tankHeading;
        forwardX[l] = t.forward.x;
        forwardY[l] = t.forward.y;
        pullX[l] = pull.x;
        pullY[l] = pull.y;
        keepX[l] = scan.keep.x;
        keepY[l] = scan.keep.y;
        alignX[l] = scan.align.x;
        alignY[l] = scan.align.y;
        wallX[l] = wall.x;
        wallY[l] = wall.y;
        speed[l] = tankSpeed;
        x[l] = t.pos.x;
        y[l] = t.pos.y;
        room[l] = clearance;
        roomAhead[l] = scan.roomAhead;
        roomBehind[l] = scan.roomBehind;
    }

    /// Lanes [count, W) copy lane 0, so a part-filled group computes harmless values there.
    void padIdleLanes()
    {
        for (int l = count; l < W; ++l) {
            for (float* v : {heading, forwardX, forwardY, pullX, pullY, keepX, keepY, alignX,
                             alignY, wallX, wallY, speed, x, y, room, roomAhead, roomBehind})
                v[l] = v[0];
            keeps[l] = keeps[0];
            aligns[l] = aligns[0];
        }
    }
};

/// (x, y) += v.normalizedOr({}) * weight on the lanes of `use`: Vec2's operations, lane by
/// lane.
template <class V>
SHOAL_FORCE_INLINE inline void addUnit(V& x, V& y, V vx, V vy, float weight, typename V::Mask use)
{
    const V length2 = vx * vx + vy * vy;
    const V inverse = V(1.0f) / sqrt(length2);
    const typename V::Mask zero = length2 < V(1e-12f);
    const V w(weight);
    x = select(use, x + maskedOff(zero, vx * inverse) * w, x);
    y = select(use, y + maskedOff(zero, vy * inverse) * w, y);
}

/// Drives the queued tanks and moves them to their next state (flags to `nextFlags`):
/// tankWish(), the cruise speed's easing and moveTank()'s arithmetic lane by lane, the same
/// operations in the same order; a lane whose move may come near a wall goes through
/// constrainMove itself.
template <class V>
SHOAL_FORCE_INLINE inline void driveQueued(DriveQueue<V::kWidth>& q, AgentArrays& a,
                                           const TankSquadParams& p, const StaticGeometry& geometry,
                                           const DriveSettings& settings, float dt,
                                           std::uint8_t* nextFlags)
{
    constexpr int W = V::kWidth;
    q.padIdleLanes();
    V directionX = V::load(q.pullX);
    V directionY = V::load(q.pullY);
    addUnit(directionX, directionY, V::load(q.keepX), V::load(q.keepY), p.keepWeight,
            V::loadMask(q.keeps));
    addUnit(directionX, directionY, V::load(q.alignX), V::load(q.alignY), p.moveWeight,
            V::loadMask(q.aligns));
    directionX = directionX + V::load(q.wallX);
    directionY = directionY + V::load(q.wallY);
    const V speedWas = V::load(q.speed);
    const V cruise =
        speedWas + (V(p.moveSpeed) - speedWas) * V(clamp01(p.speedEasing * dt)); // ease()
    const DriveLanes<V> r = driveLanes(V::load(q.heading), V::load(q.forwardX), V::load(q.forwardY),
                                       directionX, directionY, cruise, settings);
    const V zero(0.0f);
    const V easing(p.speedEasing);
    // std::min(speed, cap) is cap < speed ? cap : speed, min(cap, speed) here; std::max
    // likewise.
    const V ahead = min(max(V::load(q.roomAhead), zero) * easing, r.speed);
    const V behind = max(-max(V::load(q.roomBehind), zero) * easing, r.speed);
    const V speed = select(r.speed > zero, ahead, select(r.speed < zero, behind, r.speed));
    const V x = V::load(q.x);
    const V y = V::load(q.y);
    const V moveStep = speed * V(dt);
    const V wantX = x + r.forwardX * moveStep;
    const V wantY = y + r.forwardY * moveStep;
    // constrainMove's own test for a move that stays clear of every wall.
    const V room = V::load(q.room) - V(StaticGeometry::moveReach(p.radius));
    const V offX = x - wantX;
    const V offY = y - wantY;
    const int freeLanes = laneBits((room > zero) & (offX * offX + offY * offY < room * room));
    const V inverseDt(1.0f / dt);
    alignas(16) float nextX[W], nextY[W], velocityX[W], velocityY[W], heading[W], cruiseOut[W];
    wantX.store(nextX);
    wantY.store(nextY);
    ((wantX - x) * inverseDt).store(velocityX);
    ((wantY - y) * inverseDt).store(velocityY);
    r.heading.store(heading);
    select(abs(cruise) < V(1e-3f), zero, cruise).store(cruiseOut);
    // Held here: a store through nextFlags (bytes) would make the compiler reload them.
    float* const nx = a.nx.data();
    float* const ny = a.ny.data();
    float* const nvx = a.nvx.data();
    float* const nvy = a.nvy.data();
    float* const nheading = a.nheading.data();
    float* const nspeed = a.nspeed.data();
    for (int l = 0; l < q.count; ++l) {
        const std::size_t i = q.index[l];
        bool blocked = false;
        if (SHOAL_UNLIKELY(!((freeLanes >> l) & 1))) {
            const Vec2 pos{q.x[l], q.y[l]};
            const Vec2 next = geometry.constrainMove(pos, {nextX[l], nextY[l]}, p.radius,
                                                     WallResponse::Slide, &blocked, q.room[l]);
            nextX[l] = next.x;
            nextY[l] = next.y;
            velocityX[l] = (next.x - pos.x) * (1.0f / dt);
            velocityY[l] = (next.y - pos.y) * (1.0f / dt);
        }
        nx[i] = nextX[l];
        ny[i] = nextY[l];
        nvx[i] = velocityX[l];
        nvy[i] = velocityY[l];
        nheading[i] = heading[l];
        nspeed[i] = cruiseOut[l];
        nextFlags[i] = q.flags[l] | (blocked ? kAgentBlocked : 0);
    }
    q.count = 0;
}

/// Where a tank heads this step, which way, and how far it has to go.
struct TankGoal
{
    Vec2 point;            ///< its spot, or the target
    Vec2 direction;        ///< unit: straight there, or along the route round a wall
    float distance = 0.0f; ///< straight, or along the route where that matters
    /// The squad target's distance (along the route where that matters): the goal metric, and
    /// who is ahead of whom on the way.
    float toTarget = 0.0f;
    Heading heading = Heading::Overflow;
    bool rounding = false; ///< along the route round a wall
};

/// `nearWay`: below this straight distance the rules tell a longer way from a shorter one
/// (slowing down, reversing, parking, who goes first), so the route's length is looked up;
/// further out the straight one does (the route is no shorter).
SHOAL_FORCE_INLINE inline TankGoal tankGoal(const Group& group, const FlowRoute::Cells& route,
                                            const ParkingSpots& spots, int spot,
                                            const TankSquadParams& p, Vec2 pos, Vec2 forward,
                                            float nearWay, float parkingZone)
{
    TankGoal g;
    if (!group.hasTarget) {
        g.point = pos; // without a target a squad holds where it is
        g.direction = forward;
        return g;
    }
    g.point = spot >= 0 ? spots.spot(spot) : group.target;
    const Vec2 to = g.point - pos;
    const float length2 = to.lengthSquared();
    g.distance = std::sqrt(length2);
    g.toTarget = spot >= 0 ? distance(pos, group.target) : g.distance;
    const bool nearSpot = spot >= 0 && g.distance < p.keepDistance;
    g.heading = spot < 0
                    ? Heading::Overflow
                    : (nearSpot ? Heading::Alone
                                : (g.toTarget < parkingZone ? Heading::Parking : Heading::Spot));
    // A wall between the tank and the target: the squad's route round it, and its length.
    // (Spots are in sight of the target; one close by is driven to straight.)
    int cell = 0;
    if (!nearSpot && route.bends(pos, cell)) {
        g.rounding = true;
        g.direction = route.direction(cell);
        if (g.toTarget < nearWay)
            g.distance = g.toTarget = route.pathDistance(cell, pos);
    } else {
        // to.normalizedOr(forward), with the length it has already.
        g.direction = length2 < 1e-12f ? forward : to * (1.0f / g.distance);
    }
    return g;
}

/// A tank sent to a goal of its own (World::setAgentGoal): straight there (its feelers keep
/// it off walls, keeping apart from its squad mates: Heading::Own), parking inside
/// arriveDistance of it as at a spot.
inline TankGoal ownGoal(Vec2 point, Vec2 pos, Vec2 forward)
{
    TankGoal g;
    g.point = point;
    const Vec2 to = point - pos;
    g.distance = g.toTarget = to.length();
    g.direction = to.normalizedOr(forward);
    g.heading = Heading::Own;
    return g;
}

/// The inspected tank's shares of its wish, as tankWish and driveQueued weigh them: the
/// target's pull (or the route's, round walls), keeping apart, aligning and the walls; and
/// braking, the share of its cruise speed it gives up for what is ahead, backward along its
/// heading. Parked, it wants nothing.
void inspectTank(Inspection& seen, std::uint64_t step, const TankSquadParams& p,
                 const StaticGeometry& geometry, const Tank& t, float room, const SquadScan& scan,
                 bool arrived, bool reverse, Vec2 pull, const TankGoal& goal, float cruise)
{
    seen.begin(step, "wish");
    if (arrived)
        return;
    const bool keeps = goal.heading != Heading::Alone;
    const bool aligns = goal.heading == Heading::Spot || goal.heading == Heading::Overflow;
    seen.add(goal.rounding ? "route" : "target", pull);
    seen.add("separation", keeps ? scan.keep.normalizedOr({}) * p.keepWeight : Vec2{});
    seen.add("alignment", aligns ? scan.align.normalizedOr({}) * p.moveWeight : Vec2{});
    seen.add("walls",
             geometry.feelerAvoidance(t.pos, t.forward, p.feelerLength, room) * p.wallWeight);
    const float cap = std::max(reverse ? scan.roomBehind : scan.roomAhead, 0.0f) * p.speedEasing;
    const float speed = std::fabs(cruise);
    const float braking = speed > cap && speed > 0.0f ? 1.0f - cap / speed : 0.0f;
    seen.wanted = {};
    for (const RuleShare& rule : seen.rules)
        seen.wanted += rule.vector;
    seen.add("braking", t.forward * (reverse ? braking : -braking));
}

} // namespace

template <class Search>
void TankSquadBehaviour::planPartWith(Group& group, const StepContext& ctx, std::size_t part,
                                      int worker, const Search& search)
{
    AgentArrays& a = group.agents;
    const TankSquadParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const float dt = ctx.dt;
    const DriveSettings settings = driveSettings(p.rotateSpeed, p.turnDeadZone, p.turnSlowdown, dt);
    const std::size_t n = a.size();
    const bool resettle = m_resettle;
    // Touching a parked tank parks a tank without a spot only inside the disc the whole squad
    // needs around the target (hexagonal packing at keepDistance, with some slack).
    const float parkRadius =
        p.arriveDistance + 0.6f * p.keepDistance * std::sqrt(static_cast<float>(n));
    // Within this of the target a tank bound for a spot is among the spots.
    const float parkingZone = m_spots.reach() + p.keepDistance;
    // Where slowing down, reversing and who goes first at a door tell a longer way from a
    // shorter one: the route's length is looked up there (a cache miss per tank), the
    // straight one does further out.
    const float nearWay =
        std::max({p.targetCloseDistance, p.reverseDistance, parkingZone + p.keepDistance});
    const SquadLanes lanes{m_sortedVx.data(), m_sortedVy.data(), m_sortedArrived.data(),
                           m_sortedWay.data(), m_sortedId.data()};
    const FlowRoute::Cells route = m_route.cells();
    // Goals of their own (World::setAgentGoal): none, nearly always.
    const bool ownGoals = m_ownX.size() == n;
    static_assert(ScanNumbers{}.touching == kTouchingDistance2, "the scan's touching distance");
    const ScanConstants<typename Search::Lanes> constants(p, m_scanNumbers);
    // The drive's lanes: as wide as the scan (eight lanes: lanes8.h's helpers).
    using Lanes = typename Search::Lanes;
    DriveQueue<Lanes::kWidth> queue;
    SquadWalk<Search> walk(search, constants.range, m_slotX[static_cast<std::size_t>(worker)]);
    float* startClearance = group.startClearance.data(); // handed to the world's wall rule
    float* startNearest2 = group.startNearest2.data();   // and how far the others are
    const float range2 = constants.range * constants.range;
    const auto [begin, end] = ctx.planPartRange(n, part);
    for (std::size_t k = begin; k < end; ++k) {
        if (k + StaticGeometry::kPrefetchAhead < end) { // the grids' lines, early
            const std::size_t ahead =
                search.sortedIndex(static_cast<std::uint32_t>(k + StaticGeometry::kPrefetchAhead));
            const Vec2 at{a.px[ahead], a.py[ahead]};
            geometry.prefetchClearance(at);
            route.prefetchDirection(at);
        }
        Tank t;
        t.i = search.sortedIndex(static_cast<std::uint32_t>(k));
        t.slot = static_cast<std::uint32_t>(k);
        const std::size_t i = t.i;
        t.pos = {a.px[i], a.py[i]};
        const float room = geometry.clearance(t.pos); // one lookup serves the feelers and the move
        startClearance[i] = room;
        // fromAngle(a.heading[i]), worked out four at a time by preparePlanWith().
        t.forward = {m_forwardX[k], m_forwardY[k]};
        const bool own = SHOAL_UNLIKELY(ownGoals) && !std::isnan(m_ownX[i]);
        const TankGoal goal = own ? ownGoal({m_ownX[i], m_ownY[i]}, t.pos, t.forward)
                                  : tankGoal(group, route, m_spots, m_spotOf[i], p, t.pos,
                                             t.forward, nearWay, parkingZone);
        t.target = goal.point;
        t.dist = goal.distance;
        std::uint8_t flags =
            a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentReversing));
        if (resettle)
            flags &= static_cast<std::uint8_t>(~(kAgentArrived | kAgentAtGoal));

        Vec2 direction = goal.direction * p.targetWeight;
        if (t.dist < p.targetCloseDistance)
            direction *= t.dist / p.targetCloseDistance;
        // The last metres to a spot at no less than the speed it can stop from there: the
        // seed's slowdown alone creeps the last metre for seconds.
        if (goal.heading == Heading::Alone || goal.heading == Heading::Own)
            direction = direction.normalizedOr({}) *
                        std::max(direction.length(),
                                 std::min(1.0f, kCreep * p.speedEasing * t.dist / p.moveSpeed));
        const bool overflow = goal.heading == Heading::Overflow;
        t.way = lanes.way[k]; // a.goalDistance[i] and a.id[i], read in order
        t.stuck = (a.flags[i] & kAgentStuck) != 0;
        t.id = lanes.id[k];
        t.actual = dot(Vec2(a.vx[i], a.vy[i]), t.forward);
        // Held back (blocked: a wall stopped it, or bodies ahead that could not give way
        // pushed it back) to under a tenth of its cruise speed: it drives on from the speed
        // it had, not its cruise speed. Otherwise it would press on at full cruise into what
        // holds it, squeezing a crowd it cannot part.
        const float speedHad =
            (a.flags[i] & kAgentBlocked) && a.speed[i] > 0.0f && t.actual < kHeldBack * a.speed[i]
                ? std::max(t.actual, 0.0f)
                : a.speed[i];
        const bool wasParked = !resettle && (a.flags[i] & kAgentArrived);
        // A goal close behind is reached by reversing (not a corner of the route round a
        // wall: where the route bends a tank turns toward it, or it would back and fill on
        // the edge of the cells that see the target).
        const bool reverse = !goal.rounding && dot(t.forward, goal.direction) < kBehindDot &&
                             t.dist < p.reverseDistance;
        // A parked tank only coasts to a stop, at this speed: of its neighbours it only needs
        // to know how far it may coast, and nothing once it stands still.
        const bool parked = wasParked || (!group.hasTarget && !own);
        const float coast = parked ? ease(t.actual, 0.0f, p.speedEasing, dt) : 0.0f;
        const bool scans = !parked || coast > 0.0f || coast < 0.0f;
        ScanNeeds needs;
        needs.touchesParked = !parked && overflow && !resettle && t.dist < parkRadius;
        // Only a tank whose speed may ease below zero reads the room behind it.
        needs.roomBehind = parked ? coast < 0.0f : reverse || a.speed[i] < 0.0f || t.actual < 0.0f;
        // Made in place: assigned from the scan's result, the copy read the result as
        // sixteen bytes just after it was stored as floats and flags, a stall the store
        // buffer cannot forward (measured: a twenty-fifth of the plan at 10,000 tanks).
        SquadScan scan =
            scans ? scanSquad(search, constants, t, needs, lanes, ctx.seed, walk) : SquadScan{};
        // How far every other body lies, for the body pass: a tank that does not look round
        // learns nothing.
        startNearest2[i] = 0.0f;
        if (scans) {
            // Other groups' bodies: kept apart from like squad mates, and braked for ahead.
            float othersBeyond2 = 0.0f;
            const OtherBodies others =
                othersNear(ctx, group, t.pos, p.radius, t.forward, p.keepDistance, &othersBeyond2);
            scan.keep += others.away;
            scan.gapAhead = std::min(scan.gapAhead, others.gapAhead);
            scan.roomAhead = std::min(scan.roomAhead, others.gapAhead);
            // Every squad mate lies beyond the nearest the scan saw, or beyond its range.
            startNearest2[i] = std::min(std::min(scan.nearest2, range2), othersBeyond2);
        }
        const bool arrived =
            parks(wasParked, scan, group, p, t.dist, parkRadius, resettle, goal.heading);
        if (SHOAL_UNLIKELY(ctx.inspection != nullptr) &&
            ctx.inspection->wants(group.index, a.id[i])) {
            inspectTank(*ctx.inspection, ctx.step, p, geometry, t, room, scan, arrived, reverse,
                        direction, goal, ease(a.speed[i], p.moveSpeed, p.speedEasing, dt));
            m_inspected = i;
        }

        a.goalDistance[i] = goal.toTarget;
        // Flags go to a scratch copy: neighbours planning this step must see the old ones.
        if (!arrived && !reverse) {
            const Vec2 wall =
                geometry.feelerAvoidance(t.pos, t.forward, p.feelerLength, room) * p.wallWeight;
            queue.push(i, flags, a.heading[i], t, direction, scan, wall, speedHad, room,
                       goal.heading);
            if (queue.count == Lanes::kWidth)
                driveQueued<Lanes>(queue, a, p, geometry, settings, dt, m_nextFlags.data());
            continue;
        }
        const TankWish wish =
            tankWish(p, geometry, t, room, scan, arrived, direction, goal.heading, reverse);
        flags |= wish.flags;
        // a.speed holds the eased cruise speed (signed); the drive scales it per step. A
        // parked tank coasts down from the speed it actually had, not from its cruise speed.
        const float cruise = arrived ? ease(t.actual, 0.0f, p.speedEasing, dt)
                                     : ease(speedHad, wish.cruise, p.speedEasing, dt);
        // Parked (coasting to a stop) or backing up: one at a time.
        DriveResult r{a.heading[i], t.forward, cruise};
        if (!arrived)
            r = drive(r.heading, t.forward, wish.direction, cruise, settings, true);
        bool blocked = false;
        moveTank(a, i, t.pos, p, geometry, dt, room, r, cruise, scan.roomAhead, scan.roomBehind,
                 blocked);
        m_nextFlags[i] = flags | (blocked ? kAgentBlocked : 0);
    }
    if (queue.count > 0)
        driveQueued<Lanes>(queue, a, p, geometry, settings, dt, m_nextFlags.data());
}

} // namespace shoal
