#pragma once
// The fish school's plan kernel: the phases of fishschoolplan.cpp's description as inlined
// templates over a neighbour search and its lanes. Included by fishschoolplan.cpp (the grid
// on four lanes and the brute-force reference) and by fishschoolplanwide.cpp (the grid on
// eight lanes, inside its AVX2 region): the helpers live in an unnamed namespace on
// purpose, so each file has its own copies, built for its own instruction set.

#include "families/fishschool/fishschool.h"

#include "kernels/lanetrig.h"
#include "kernels/neighbourscan.h"
#include "math/fastmath.h"
#include "steering/drive.h"
#include "steering/steering.h"

#include <cmath>
#include <limits>
#include <type_traits>

namespace shoal {

namespace {

constexpr float kWallWeight = 2.0f; // feelers beat the band: a school must not pile into walls

/// The band sum a school member's scan computes besides its counts, nearest and alignment.
enum class BandSum
{
    None,      ///< resting in the band: no band wish
    PushAway,  ///< making room: the push away from the near neighbours
    FarCentre, ///< closing up: the offset to the far neighbours' centre
};

BandSum bandSumFor(bool makingRoom, bool closingUp)
{
    return makingRoom ? BandSum::PushAway : (closingUp ? BandSum::FarCentre : BandSum::None);
}

/// What one member's neighbour scan found.
struct MemberScan
{
    int neighbours = 0;
    int withinKeepMax = 0;
    float nearest2 = 0.0f; ///< squared distance to the nearest (FLT_MAX with none)
    Vec2 align;            ///< sum of the neighbours' velocities
    Vec2 band;             ///< the BandSum asked for (zero for None)
};

/// What a school member's drive needs besides its own state, the same for every member of
/// one step.
struct SchoolStep
{
    const FishSchoolParams* params = nullptr;
    const StaticGeometry* geometry = nullptr;
    DriveSettings drive;
    float dt = 0.0f;
    float inverseDt = 0.0f;
    float mid = 0.0f; ///< middle of the keep band, m
    bool led = false; ///< the player leads this school this step
    bool playerResting = false;
    Vec2 playerPosition;
    Vec2 withPlayer; ///< the wish to match the player's velocity
    std::uint64_t seed = 1;
    std::uint64_t step = 0;
    /// The inspected agent's sink when it is one of this school's (else null).
    Inspection* inspection = nullptr;
    int group = -1;
};

SchoolStep schoolStep(const FishSchoolParams& p, const Group& group, const StepContext& ctx)
{
    SchoolStep step;
    step.params = &p;
    step.geometry = ctx.geometry;
    step.drive = driveSettings(p.rotateSpeed, p.turnDeadZone, p.turnSlowdown, ctx.dt);
    step.dt = ctx.dt;
    step.inverseDt = 1.0f / ctx.dt;
    step.mid = 0.5f * (p.keepMinDistance + p.keepMaxDistance);
    step.led = group.playerLed && ctx.player->enabled;
    if (ctx.inspection && ctx.inspection->group == group.index) {
        step.inspection = ctx.inspection;
        step.group = group.index;
    }
    step.playerResting = ctx.player->speed < kStuckSpeed;
    step.playerPosition = ctx.player->position;
    // Matching the player's velocity is the same wish for every member: once a step.
    step.withPlayer = truncated(ctx.player->velocity * (1.0f / p.moveSpeed), 1.0f) * p.followWeight;
    step.seed = ctx.seed;
    step.step = ctx.step;
    return step;
}

/// School members between their neighbour scan and their drive, one lane each: the scan's
/// sums and the state the drive reads. Members are queued here as their scans finish and
/// steered W at a time (steerMembers), so each square root and division of the steering
/// rules serves W fish.
template <int W> struct MemberLanes
{
    alignas(16) float x[W], y[W], heading[W], speed[W], room[W];
    alignas(16) float neighbours[W], nearest[W];
    alignas(16) float alignX[W], alignY[W];
    alignas(16) float bandX[W],
        bandY[W]; ///< the push away (making room) or far offset (closing up)
    alignas(16) float wallX[W], wallY[W];
    alignas(16) std::uint32_t makingRoom[W], closingUp[W]; ///< lane masks: this step's state
    std::uint32_t index[W];
    std::uint8_t flags[W]; ///< with this step's state in kAgentMakingRoom / kAgentClosingUp
    int count = 0;
    int inspected = -1; ///< the lane of the inspected agent, if it is queued

    /// Fills lanes [count, W) with copies of lane 0, so a part-filled group computes
    /// harmless values in its idle lanes.
    void padIdleLanes()
    {
        for (int l = count; l < W; ++l) {
            for (float* a : {x, y, heading, speed, room, neighbours, nearest, alignX, alignY, bandX,
                             bandY, wallX, wallY})
                a[l] = a[0];
            makingRoom[l] = makingRoom[0];
            closingUp[l] = closingUp[0];
        }
    }
};

/// v scaled down to at most length 1, lane by lane (truncated(v, 1)).
template <class V> SHOAL_FORCE_INLINE inline void truncateToUnit(V& x, V& y)
{
    const V length2 = x * x + y * y;
    const V scale = select(length2 <= V(1.0f), V(1.0f), V(1.0f) / sqrt(length2));
    x = x * scale;
    y = y * scale;
}

/// The move from `pos` to `next` held to the tether: it never ends farther than `tether` from
/// `home`. A move leaving the circle stops where it crosses it, so the fish stays on the path
/// the geometry allowed (a part of a move that crosses no wall crosses none); one that
/// starts outside (the pick radius was just made smaller) may only come closer.
inline Vec2 tetheredMove(Vec2 pos, Vec2 next, Vec2 home, float tether)
{
    const float tether2 = tether * tether;
    if (distanceSquared(next, home) <= tether2)
        return next;
    const Vec2 from = pos - home;
    const float from2 = from.lengthSquared();
    if (from2 > tether2)
        return distanceSquared(next, home) <= from2 ? next : pos;
    // |from + t move| = tether for t in [0, 1]: the root of a t^2 + 2 b t + c with c <= 0.
    const Vec2 move = next - pos;
    const float a = move.lengthSquared();
    const float b = dot(from, move);
    const float c = from2 - tether2;
    const float t = (std::sqrt(std::max(0.0f, b * b - a * c)) - b) / a;
    const Vec2 clipped = pos + move * clampf(t, 0.0f, 1.0f);
    // (Rounding may leave the crossing a hair outside: then the fish waits where it is.)
    return distanceSquared(clipped, home) <= tether2 ? clipped : pos;
}

/// A free fish: meander near where it was placed (`home`, set the first time it is seen),
/// never farther from it than half the pick radius, so a player that passes within that of
/// the spot always picks it up; join for good when the player comes close. It joins after
/// the loop (`joined`), so neighbours planning this step still see it as free (no dependence
/// on agent order).
SHOAL_FORCE_INLINE inline void planFreeFish(AgentArrays& a, std::size_t i, std::uint8_t flags,
                                            float room, const SchoolStep& step, float& homeX,
                                            float& homeY, std::vector<std::uint32_t>& joined)
{
    const FishSchoolParams& p = *step.params;
    const StaticGeometry& geometry = *step.geometry;
    const Vec2 pos{a.px[i], a.py[i]};
    const float heading = a.heading[i];
    if (step.led && distanceSquared(pos, step.playerPosition) < p.pickRadius * p.pickRadius)
        joined.push_back(static_cast<std::uint32_t>(i));
    if (std::isnan(homeX)) {
        homeX = pos.x;
        homeY = pos.y;
    }
    const Vec2 home{homeX, homeY};
    Vec2 wish = fromAngle(heading + signedNoise(step.seed, step.step / 30, i, 1) * 1.2f);
    // Steered home from half the tether on; the bound on the move (tetheredMove) holds.
    const float tether = 0.5f * p.pickRadius;
    const float pullFrom = 0.5f * tether;
    const float away = distance(pos, home);
    if (away > pullFrom)
        wish += (home - pos) / away * ((away - pullFrom) / pullFrom);
    const Vec2 forward = fromAngle(heading);
    wish += geometry.feelerAvoidance(pos, forward, p.rayLength, room) * kWallWeight;
    const DriveResult r =
        drive(heading, forward, wish.normalizedOr(forward), p.idleDrift, step.drive);
    bool blocked = false;
    const Vec2 want = pos + r.forward * (r.speed * step.dt);
    const Vec2 next = tetheredMove(
        pos, geometry.constrainMove(pos, want, p.radius, WallResponse::Slide, &blocked, room), home,
        tether);
    a.nx[i] = next.x;
    a.ny[i] = next.y;
    a.nvx[i] = (next.x - pos.x) * step.inverseDt;
    a.nvy[i] = (next.y - pos.y) * step.inverseDt;
    a.nheading[i] = r.heading;
    a.nspeed[i] = r.speed;
    a.goalDistance[i] = 0.0f;
    a.flags[i] = flags | kAgentAtGoal | (blocked ? kAgentBlocked : 0);
}

/// One pass over the school neighbours within the radius (the player included), a lane of
/// candidates at a time: alignment (v2) sums their velocities; the band rule (v1) needs the
/// nearest distance, how many sit within keepMaxDistance, and either the push away from
/// those nearer than the middle of the band (making room) or the centre of those beyond it
/// (closing up). Only the one the fish's state calls for is summed; a fish whose state
/// changes to the other scans again (rare: states last many steps). No per-neighbour
/// sorting: this loop is most of a step's cost.
template <class Search> struct SchoolScan
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;

    const Search& search;
    const FishSchoolParams& p;
    float mid;
    const float* memberX; ///< school members in cell order, NaN for free fish
    const float* memberY;
    const float* neighbourVx; ///< velocities in cell order
    const float* neighbourVy;

    template <BandSum kBand> SHOAL_FORCE_INLINE MemberScan scan(Vec2 pos, std::uint32_t self) const
    {
        const V vMid2(mid * mid);
        const V vKeepMax2(p.keepMaxDistance * p.keepMaxDistance);
        const V vRepelOverD(mid / p.keepMinDistance); // the push is (1 - d / mid) * mid / keepMin
        const V vRepelOffset(1.0f / p.keepMinDistance);
        const V vTouching(kTouchingDistance2);
        const V vFar(std::numeric_limits<float>::max());
        // Sums in the four-lane order at any width (V::Sum); a minimum in any order.
        typename V::Sum alignX, alignY, bandX, bandY;
        V nearest2 = vFar;
        typename V::Count neighbourCount, withinKeepMaxCount;
        scanNeighbours(search, memberX, memberY, pos, p.neighborRadius, self,
                       [&](std::uint32_t slot, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
                           neighbourCount.add(in);
                           alignX += masked(in, V::load(neighbourVx + slot));
                           alignY += masked(in, V::load(neighbourVy + slot));
                           nearest2 = min(d2 + maskedOff(in, vFar),
                                          nearest2); // (a NaN lane, a free fish, loses)
                           withinKeepMaxCount.add(in & (d2 <= vKeepMax2));
                           if constexpr (kBand == BandSum::FarCentre) {
                               const Mask beyondMid = in & (d2 >= vMid2);
                               bandX += masked(beyondMid, dx);
                               bandY += masked(beyondMid, dy);
                           }
                           if constexpr (kBand == BandSum::PushAway) {
                               // Away, the harder the closer: (1 - d / mid) * mid / keepMin along
                               // the unit offset, so (dx, dy) times mid / (keepMin d) - 1 /
                               // keepMin. Lanes exactly on top of this fish are left to
                               // touchingSplit (nearest2 shows them); masked-off lanes may divide
                               // by zero, which masking turns back into zero.
                               const Mask pushing = in & (d2 < vMid2) & (d2 >= vTouching);
                               const V s = vRepelOverD / sqrt(d2) - vRepelOffset;
                               bandX += masked(pushing, dx * s);
                               bandY += masked(pushing, dy * s);
                           }
                       });
        MemberScan sums;
        sums.neighbours = neighbourCount.total();
        sums.withinKeepMax = withinKeepMaxCount.total();
        sums.nearest2 = minLane(nearest2);
        sums.align = {alignX.sum(), alignY.sum()};
        sums.band = {bandX.sum(), bandY.sum()};
        return sums;
    }

    SHOAL_FORCE_INLINE MemberScan scanFor(BandSum band, Vec2 pos, std::uint32_t self) const
    {
        if (band == BandSum::PushAway)
            return scan<BandSum::PushAway>(pos, self);
        if (band == BandSum::FarCentre)
            return scan<BandSum::FarCentre>(pos, self);
        return scan<BandSum::None>(pos, self);
    }
};

/// A member's band state after its scan. Too close beats too far: while a neighbour is
/// inside keepMinDistance the fish only makes room; otherwise, unless at least half of its
/// nearest neighborCount already sit within keepMaxDistance, it closes up on the far ones.
/// Each, once started, carries on until the nearest neighbour is at the middle of the band
/// (hysteresis), so a school settles inside the band rather than on its edges. Mixing the
/// two, as the seed does, lets the pull of the many far neighbours squeeze the nearest to the
/// inner edge. A fish that sees nobody keeps its state.
struct BandState
{
    bool makingRoom = false;
    bool closingUp = false;
};

SHOAL_FORCE_INLINE inline BandState bandState(const FishSchoolParams& p, float mid,
                                              const MemberScan& sums, float nearest, BandState was)
{
    if (sums.neighbours <= 0)
        return was;
    const int watched = std::min(sums.neighbours, static_cast<int>(p.neighborCount));
    BandState now;
    now.makingRoom = was.makingRoom ? nearest < mid : nearest < p.keepMinDistance;
    now.closingUp =
        !now.makingRoom && (was.closingUp ? nearest > mid : 2 * sums.withinKeepMax < watched);
    return now;
}

/// Queues member i (at cell-order slot k) with what its scan found and its band state.
template <int W>
SHOAL_FORCE_INLINE inline void
queueMember(MemberLanes<W>& members, const AgentArrays& a, std::size_t i, std::uint8_t flags,
            float room, const MemberScan& sums, float nearest, BandState state, Vec2 wall)
{
    const int l = members.count++;
    members.index[l] = static_cast<std::uint32_t>(i);
    members.flags[l] = flags;
    members.x[l] = a.px[i];
    members.y[l] = a.py[i];
    members.heading[l] = a.heading[i];
    members.speed[l] = a.speed[i];
    members.room[l] = room;
    members.neighbours[l] = static_cast<float>(sums.neighbours);
    members.nearest[l] = nearest;
    members.alignX[l] = sums.align.x;
    members.alignY[l] = sums.align.y;
    members.bandX[l] = sums.band.x;
    members.bandY[l] = sums.band.y;
    members.makingRoom[l] = state.makingRoom ? ~0u : 0u;
    members.closingUp[l] = state.closingUp ? ~0u : 0u;
    members.wallX[l] = wall.x;
    members.wallY[l] = wall.y;
}

/// The band wish of the queued members. The band state was decided after the scan; here its
/// wish. Making room pushes away from the near neighbours; closing up heads for the centre
/// of the far ones (with nobody beyond the middle, that offset and the wish are zero), harder
/// the farther the nearest one is. A fish that sees nobody has no band wish.
template <class V, int W>
SHOAL_FORCE_INLINE inline void bandWish(const MemberLanes<W>& m, const SchoolStep& step,
                                        typename V::Mask hasNeighbours, V& keepX, V& keepY)
{
    using Mask = typename V::Mask;
    const FishSchoolParams& p = *step.params;
    const Mask makingRoom = V::loadMask(m.makingRoom);
    const Mask closingUp = V::loadMask(m.closingUp);
    const V bandX = V::load(m.bandX);
    const V bandY = V::load(m.bandY);
    keepX = bandX;
    keepY = bandY;
    if (any(closingUp & hasNeighbours)) { // (a square root and two divisions most steps skip)
        const V band2 = bandX * bandX + bandY * bandY;
        const V closeUp =
            masked(band2 >= V(1e-12f), V(1.0f) / sqrt(band2)) *
            clamp01((V::load(m.nearest) - V(step.mid)) / V(p.keepMaxDistance - step.mid));
        keepX = select(makingRoom, bandX, -(bandX * closeUp));
        keepY = select(makingRoom, bandY, -(bandY * closeUp));
    }
    const Mask keeping = hasNeighbours & (makingRoom | closingUp);
    keepX = masked(keeping, keepX);
    keepY = masked(keeping, keepY);
}

/// One lane's shares of the direction (the inspected member's), each as schoolDirection
/// weighs it.
struct DirectionShares
{
    Vec2 band, alignment, follow, feelers;
};

/// Lane `l` of (x, y).
template <class V> Vec2 laneOf(const V& x, const V& y, int l)
{
    alignas(16) float xs[V::kWidth], ys[V::kWidth];
    x.store(xs);
    y.store(ys);
    return {xs[l], ys[l]};
}

/// Where the queued members want to go: the band wish and alignment, the player's pull and
/// the walls. Sets `goal` to the distance to the player while it leads; `shares`, when
/// given, to lane m.inspected's parts.
template <class V, int W>
SHOAL_FORCE_INLINE inline void schoolDirection(const MemberLanes<W>& m, const SchoolStep& step,
                                               V& directionX, V& directionY, V& goal,
                                               DirectionShares* shares = nullptr)
{
    using Mask = typename V::Mask;
    const FishSchoolParams& p = *step.params;
    const V zero(0.0f);
    const V neighbours = V::load(m.neighbours);
    const Mask hasNeighbours = neighbours > zero;
    V keepX, keepY;
    bandWish<V>(m, step, hasNeighbours, keepX, keepY);

    // The seed sums the band rule over every neighbour and normalises both sums. Summed
    // over all of them, the many far neighbours outweigh the few near ones and a school
    // collapses into a ball; normalised, a fish never learns how crowded it is or how fast
    // its neighbours swim, so a school never slows down. Here the band is kept to the
    // nearest few (capped at 1), and alignment matches the neighbours' mean velocity
    // (relative to moveSpeed), so a school spreads into its band and comes to rest
    // around a resting player.
    truncateToUnit(keepX, keepY);
    const V alignScale = V(1.0f / p.moveSpeed) / neighbours; // (no neighbours: masked below)
    V alignX = V::load(m.alignX) * alignScale;
    V alignY = V::load(m.alignY) * alignScale;
    truncateToUnit(alignX, alignY);
    const V moveWeight(p.moveWeight);
    directionX = keepX * V(p.keepWeight) + masked(hasNeighbours, alignX * moveWeight);
    directionY = keepY * V(p.keepWeight) + masked(hasNeighbours, alignY * moveWeight);
    if (SHOAL_UNLIKELY(shares != nullptr)) {
        shares->band = laneOf(keepX * V(p.keepWeight), keepY * V(p.keepWeight), m.inspected);
        shares->alignment = laneOf(masked(hasNeighbours, alignX * moveWeight),
                                   masked(hasNeighbours, alignY * moveWeight), m.inspected);
    }
    goal = zero;
    if (step.led) {
        // Swim with the player, and gather toward it unless making room (making room wins,
        // so the school packs to its band around the player, not tighter).
        const V keepMax(p.keepMaxDistance);
        const V toPlayerX = V(step.playerPosition.x) - V::load(m.x);
        const V toPlayerY = V(step.playerPosition.y) - V::load(m.y);
        goal = sqrt(toPlayerX * toPlayerX + toPlayerY * toPlayerY);
        const V gather =
            V(p.followWeight) * clamp01((goal - keepMax) * V(1.0f / p.keepMaxDistance)) / goal;
        const Mask gathering = andNot(V::loadMask(m.makingRoom), goal > keepMax);
        directionX = directionX + V(step.withPlayer.x) + masked(gathering, toPlayerX * gather);
        directionY = directionY + V(step.withPlayer.y) + masked(gathering, toPlayerY * gather);
        if (SHOAL_UNLIKELY(shares != nullptr))
            shares->follow =
                step.withPlayer + laneOf(masked(gathering, toPlayerX * gather),
                                         masked(gathering, toPlayerY * gather), m.inspected);
    }
    directionX = directionX + V::load(m.wallX);
    directionY = directionY + V::load(m.wallY);
}

/// The queued members' next state, lane by lane: wanted positions where the clearance grid
/// says no wall is within reach (constrainMove's own test, for all lanes at once), the
/// other lanes through constrainMove one by one.
template <int W>
SHOAL_FORCE_INLINE inline void commitMembers(const MemberLanes<W>& m, const SchoolStep& step,
                                             int freeLanes, const float* nextX, const float* nextY,
                                             const float* headingOut, const float* cruiseOut,
                                             const float* goalOut, AgentArrays& a)
{
    const FishSchoolParams& p = *step.params;
    const float bodyReach = std::min(p.rayLength, p.radius + 0.05f);
    for (int l = 0; l < m.count; ++l) {
        const std::uint32_t i = m.index[l];
        const Vec2 pos{m.x[l], m.y[l]};
        bool blocked = false;
        Vec2 next{nextX[l], nextY[l]};
        if (!(freeLanes & (1 << l)))
            next = step.geometry->constrainMove(pos, next, bodyReach, WallResponse::Slide, &blocked,
                                                m.room[l]);
        a.nx[i] = next.x;
        a.ny[i] = next.y;
        a.nvx[i] = (next.x - pos.x) * step.inverseDt;
        a.nvy[i] = (next.y - pos.y) * step.inverseDt;
        a.nheading[i] = headingOut[l];
        a.nspeed[i] = cruiseOut[l];
        a.goalDistance[i] = goalOut[l];
        std::uint8_t flags = m.flags[l];
        // Resting in the band near the player is the goal; with no player, schooling is.
        if (!step.led || goalOut[l] <= p.keepMaxDistance * 2.0f || step.playerResting)
            flags |= kAgentAtGoal;
        a.flags[i] = flags | (blocked ? kAgentBlocked : 0);
    }
}

/// The band rule, alignment, following the player and the drive for the queued members
/// (lanes [0, m.count)), written to their next state. Lane for lane the same arithmetic
/// whatever the lane width, so the grid (four lanes) and the reference (one) agree.
template <class V>
void steerMembers(MemberLanes<V::kWidth>& m, const SchoolStep& step, AgentArrays& a)
{
    constexpr int W = V::kWidth;
    const FishSchoolParams& p = *step.params;
    m.padIdleLanes();
    V directionX, directionY, goal;
    DirectionShares shares;
    const bool inspected = SHOAL_UNLIKELY(m.inspected >= 0);
    schoolDirection<V>(m, step, directionX, directionY, goal, inspected ? &shares : nullptr);

    const V speed = V::load(m.speed);
    const V cruise = speed + (V(p.moveSpeed) - speed) * V(clamp01(p.speedEasing * step.dt));
    const V heading = V::load(m.heading);
    V forwardX, forwardY;
    sinCosLanes(heading, forwardY, forwardX);
    const DriveLanes<V> r =
        driveLanes(heading, forwardX, forwardY, directionX, directionY, cruise, step.drive);

    const float bodyReach = std::min(p.rayLength, p.radius + 0.05f);
    const V x = V::load(m.x);
    const V y = V::load(m.y);
    const V moveStep = r.speed * V(step.dt);
    alignas(16) float nextX[W], nextY[W], headingOut[W], cruiseOut[W], goalOut[W];
    const V wantX = x + r.forwardX * moveStep;
    const V wantY = y + r.forwardY * moveStep;
    wantX.store(nextX);
    wantY.store(nextY);
    r.heading.store(headingOut);
    cruise.store(cruiseOut);
    goal.store(goalOut);
    const V roomLeft = V::load(m.room) - V(StaticGeometry::moveReach(bodyReach));
    const V movedX = wantX - x;
    const V movedY = wantY - y;
    const int freeLanes =
        laneBits((roomLeft > V(0.0f)) & (movedX * movedX + movedY * movedY < roomLeft * roomLeft));
    commitMembers(m, step, freeLanes, nextX, nextY, headingOut, cruiseOut, goalOut, a);
    if (inspected) {
        // The feelers and other groups' bodies were recorded as the member was queued.
        Inspection& seen = *step.inspection;
        const std::uint32_t i = m.index[m.inspected];
        seen.rules.insert(
            seen.rules.begin(),
            {{"band", shares.band}, {"alignment", shares.alignment}, {"follow", shares.follow}});
        seen.wanted = laneOf(directionX, directionY, m.inspected);
        seen.planned = {a.nvx[i], a.nvy[i]};
        m.inspected = -1;
    }
    m.count = 0;
}

} // namespace

template <class Search>
void FishSchoolBehaviour::planPartWith(Group& group, const StepContext& ctx, std::size_t part,
                                       int worker, const Search& search)
{
    // Members steer as wide as the scan (eight lanes: lanes8.h's helpers, lanetrig8.h).
    using V = typename Search::Lanes;
    AgentArrays& a = group.agents;
    const FishSchoolParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const SchoolStep step = schoolStep(p, group, ctx);
    const std::size_t first = group.playerLed ? 1 : 0;
    std::vector<std::uint32_t>& joined = m_joined[static_cast<std::size_t>(worker)];
    const SchoolScan<Search> scanner{
        search,           p, step.mid, m_memberX.data(), m_memberY.data(), m_sortedVx.data(),
        m_sortedVy.data()};
    MemberLanes<V::kWidth> members;
    float* startClearance = group.startClearance.data();
    float* startNearest2 = group.startNearest2.data();
    const float neighborRadius2 = p.neighborRadius * p.neighborRadius;

    const auto [begin, end] = ctx.planPartRange(a.size(), part);
    for (std::size_t k = begin; k < end; ++k) {
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        if (i < first)
            continue;
        const Vec2 pos{a.px[i], a.py[i]};
        const float room = geometry.clearance(pos); // one lookup serves the feelers and the move
        startClearance[i] = room;
        std::uint8_t flags =
            a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentAtGoal));
        if (!(flags & kAgentInSchool)) {
            startNearest2[i] = 0.0f; // a free fish does not look round
            planFreeFish(a, i, flags, room, step, m_homeX[i], m_homeY[i], joined);
            if (SHOAL_UNLIKELY(step.inspection != nullptr) &&
                step.inspection->wants(step.group, a.id[i])) {
                // A free fish drifts on its tether until the player picks it up.
                step.inspection->begin(ctx.step, "m/s");
                step.inspection->add("tethered drift", {a.nvx[i], a.nvy[i]});
                step.inspection->wanted = step.inspection->planned = {a.nvx[i], a.nvy[i]};
            }
            continue;
        }

        // Scan for the wish the state calls for, decide the state, scan again in the rare
        // case that the state changed to the other wish.
        const std::uint32_t self = static_cast<std::uint32_t>(k);
        const BandState was{(flags & kAgentMakingRoom) != 0, (flags & kAgentClosingUp) != 0};
        const BandSum expected = bandSumFor(was.makingRoom, was.closingUp);
        MemberScan sums = scanner.scanFor(expected, pos, self);
        const float nearest = std::sqrt(sums.nearest2);
        const BandState now = bandState(p, step.mid, sums, nearest, was);
        if (sums.neighbours > 0) {
            const BandSum needed = bandSumFor(now.makingRoom, now.closingUp);
            if (SHOAL_UNLIKELY(needed != expected && needed != BandSum::None))
                sums.band = scanner.scanFor(needed, pos, self).band;
            if (SHOAL_UNLIKELY(now.makingRoom && sums.nearest2 < kTouchingDistance2))
                sums.band +=
                    touchingSplit(search, pos, self, static_cast<std::uint32_t>(i), ctx.seed, 2,
                                  [&](std::uint32_t slot) { return !std::isnan(m_memberX[slot]); });
        }
        flags &= static_cast<std::uint8_t>(~(kAgentMakingRoom | kAgentClosingUp));
        flags |= (now.makingRoom ? kAgentMakingRoom : 0) | (now.closingUp ? kAgentClosingUp : 0);

        // Feelers only near geometry (the test feelerAvoidance makes first): the heading's
        // unit vector is otherwise computed a lane group at a time in steerMembers.
        Vec2 wall;
        if (SHOAL_UNLIKELY(!(p.rayLength < room)))
            wall = geometry.feelerAvoidance(pos, fromAngle(a.heading[i]), p.rayLength, room) *
                   kWallWeight;
        const Vec2 feelers = wall;
        // Other groups' bodies: kept apart from like the walls.
        float othersBeyond2 = std::numeric_limits<float>::max(); // none, without ctx.bodies
        if (ctx.bodies) {
            othersBeyond2 = 0.0f; // unknown, unless the index shows none round it
            wall +=
                othersNear(ctx, group, pos, p.radius, fromAngle(a.heading[i]), 0.0f, &othersBeyond2)
                    .away *
                kWallWeight;
        }
        // Every member lies beyond the nearest the scan saw, or beyond its radius; the free
        // fish, where they are.
        float fellows2 = 0.0f;
        if (m_freeFishKnown) {
            fellows2 = std::min(sums.nearest2, neighborRadius2);
            for (const Vec2 free : m_freeFish)
                fellows2 = std::min(fellows2, distanceSquared(pos, free));
        }
        startNearest2[i] = std::min(fellows2, othersBeyond2);
        if (SHOAL_UNLIKELY(step.inspection != nullptr) &&
            step.inspection->wants(step.group, a.id[i])) {
            members.inspected = members.count;
            step.inspection->begin(ctx.step, "wish");
            step.inspection->add("walls", feelers);
            step.inspection->add("give way", wall - feelers);
        }
        queueMember(members, a, i, flags, room, sums, nearest, now, wall);
        if (members.count == V::kWidth)
            steerMembers<V>(members, step, a);
    }
    if (members.count > 0)
        steerMembers<V>(members, step, a);
}

} // namespace shoal
