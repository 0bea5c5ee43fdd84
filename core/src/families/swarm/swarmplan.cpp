// The swarm's plan, in the seed's rules: every enemy seeks its goal (the player or a chased
// leader) at `speed`, round the walls between (the swarm's flow field), turned along walls
// ahead; it scatters, pushing away by (R - d) from
// every enemy closer than R, the push shared between the pair and averaged over the
// overlaps; and it stops pressing while an enemy ahead of it is already close.

#include "families/swarm/swarm.h"

#include "kernels/neighbourscan.h"
#include "math/fastmath.h"
#include "steering/steering.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal {

namespace {

/// How much closer than at the goal enemies rounding a corner may crowd before they ease off.
constexpr float kRoundingSqueeze = 0.8f;

/// What one enemy's scatter scan found.
struct Scatter
{
    Vec2 push;                 ///< the summed (R - d) pushes, before averaging
    int overlaps = 0;          ///< enemies closer than R
    float aheadNearest = 0.0f; ///< the nearest of them ahead toward the goal (R with none)
    float nearest2 = 0.0f;     ///< the squared distance of the nearest of them (R^2 with none)
};

/// The seek direction turned along walls ahead (no ray at all away from geometry): the part
/// that heads into the surface is removed rather than pushed back, which would make an enemy
/// facing a wall bob toward and away from it.
SHOAL_FORCE_INLINE inline Vec2 seekAlongWalls(const StaticGeometry& geometry, const SwarmParams& p,
                                              Vec2 pos, float room, Vec2 seekDir, std::size_t i)
{
    // Feelers shorter than the room round it reach nothing (feelerAvoidance is zero there,
    // and so the direction is kept): asked first, it spares the rest for most enemies.
    if (!(p.feelerLength > 0.0f && seekDir.lengthSquared() > 0.0f) || p.feelerLength < room)
        return seekDir;
    const Vec2 avoid = geometry.feelerAvoidance(pos, seekDir, p.feelerLength, room);
    const Vec2 normal = avoid.normalizedOr({});
    const float into = dot(seekDir, normal);
    if (!(into < 0.0f))
        return seekDir;
    const float strength = clamp01(avoid.length() * p.wallWeight);
    const Vec2 along = seekDir - normal * (into * strength);
    return along.normalizedOr(normal.perp() * ((i & 1) ? 1.0f : -1.0f));
}

/// Scatter: push away by (R - d) from everyone closer than R (squared test first), and note
/// the closest enemy ahead toward the goal. A lane of neighbours at a time.
template <class Search>
SHOAL_FORCE_INLINE inline Scatter scatter(const Search& search, float R, Vec2 pos, Vec2 seekDir,
                                          std::uint32_t slot, std::size_t i, std::uint64_t seed)
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;
    const V vR(R);
    const V vR2(R * R);
    const V vTouching(kTouchingDistance2);
    const V vZero(0.0f);
    const V seekX(seekDir.x);
    const V seekY(seekDir.y);
    V pushX, pushY;
    V aheadLanes(R);
    V nearestLanes(R * R);
    typename V::Count overlapCount;
    Mask touched = noLanes<V>();
    scanNeighbours(search, pos, R, slot,
                   [&](std::uint32_t /*slot*/, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
                       in = in & (d2 < vR2);
                       overlapCount.add(in);
                       nearestLanes = min(nearestLanes, select(in, d2, nearestLanes));
                       // Lanes exactly on this spot are left to touchingSplit.
                       const Mask touching = in & (d2 < vTouching);
                       touched = touched | touching;
                       const Mask pushing = andNot(touching, in);
                       const V d = sqrt(d2); // (near) zero only on lanes the masks drop
                       const V s = (vR - d) / d;
                       pushX += masked(pushing, dx * s);
                       pushY += masked(pushing, dy * s);
                       // Ahead: the neighbour lies toward the goal. (0 - x > 0 is x < 0: the
                       // negation is exact, and a zero passes neither.)
                       const Mask ahead = pushing & (dx * seekX + dy * seekY < vZero);
                       aheadLanes = min(aheadLanes, select(ahead, d, aheadLanes));
                   });
    Scatter out;
    out.overlaps = overlapCount.total();
    out.push = {pushX.sum(), pushY.sum()};
    // Same spot: the seed divides by zero here. Split along a per-pair direction.
    if (SHOAL_UNLIKELY(any(touched)))
        out.push += touchingSplit(search, pos, slot, static_cast<std::uint32_t>(i), seed, 4,
                                  [](std::uint32_t) { return true; }) *
                    R;
    out.aheadNearest = minLane(aheadLanes);
    out.nearest2 = minLane(nearestLanes);
    return out;
}

/// angleOf (fastAtan2) of four directions at once: lane by lane the same operations in the
/// same order, so each lane is bit for bit what angleOf gives for it (SSE2; elsewhere one
/// lane at a time through angleOf itself). A heading per agent costs a quarter as much.
SHOAL_FORCE_INLINE inline Float4 angleOfLanes(Float4 x, Float4 y)
{
#if SHOAL_SSE2_LANES
    const __m128 sign = _mm_set1_ps(-0.0f);
    const __m128 zero = _mm_setzero_ps();
    const __m128 ax = _mm_andnot_ps(sign, x.v);
    const __m128 ay = _mm_andnot_ps(sign, y.v);
    // ax > ay ? ax : ay, and ax > ay ? ay : ax: what maxps and minps pick (NaN included).
    const __m128 big = _mm_max_ps(ax, ay);
    const __m128 small = _mm_min_ps(ay, ax);
    const __m128 t = _mm_div_ps(small, big);
    const __m128 t2 = _mm_mul_ps(t, t);
    __m128 poly = _mm_add_ps(_mm_set1_ps(0.05265332f), _mm_mul_ps(t2, _mm_set1_ps(-0.01172120f)));
    poly = _mm_add_ps(_mm_set1_ps(-0.11643287f), _mm_mul_ps(t2, poly));
    poly = _mm_add_ps(_mm_set1_ps(0.19354346f), _mm_mul_ps(t2, poly));
    poly = _mm_add_ps(_mm_set1_ps(-0.33262347f), _mm_mul_ps(t2, poly));
    poly = _mm_add_ps(_mm_set1_ps(0.99997726f), _mm_mul_ps(t2, poly));
    const __m128 a = _mm_mul_ps(t, poly);
    const __m128 steep = _mm_cmpgt_ps(ay, ax);
    const __m128 b = _mm_or_ps(_mm_and_ps(steep, _mm_sub_ps(_mm_set1_ps(1.57079637f), a)),
                               _mm_andnot_ps(steep, a));
    const __m128 back = _mm_cmplt_ps(x.v, zero);
    const __m128 c = _mm_or_ps(_mm_and_ps(back, _mm_sub_ps(_mm_set1_ps(3.14159274f), b)),
                               _mm_andnot_ps(back, b));
    const __m128 angle = _mm_xor_ps(c, _mm_and_ps(_mm_cmplt_ps(y.v, zero), sign));
    // A zero direction is angle 0 (its lanes divided 0 by 0 above).
    return Float4(_mm_andnot_ps(_mm_cmpeq_ps(big, zero), angle));
#else
    Float4 out;
    for (int l = 0; l < Float4::kWidth; ++l)
        out.v[l] = angleOf({x.v[l], y.v[l]});
    return out;
#endif
}

/// The headings of the n agents: angleOf(faceX[i], faceY[i]) for those that seek (their goal
/// distance beyond `seekBeyond`), heading[i] for the others; four lanes at a time, the rest
/// one by one.
void faceHeadings(const float* faceX, const float* faceY, const float* goalDistance,
                  float seekBeyond, const float* heading, float* nheading, std::size_t n)
{
    constexpr std::size_t kWidth = Float4::kWidth;
    const Float4 beyond(seekBeyond);
    std::size_t i = 0;
    for (; i + kWidth <= n; i += kWidth) {
        const Float4 angle = angleOfLanes(Float4::load(faceX + i), Float4::load(faceY + i));
        select(Float4::load(goalDistance + i) > beyond, angle, Float4::load(heading + i))
            .store(nheading + i);
    }
    for (; i < n; ++i)
        nheading[i] = goalDistance[i] > seekBeyond ? angleOf({faceX[i], faceY[i]}) : heading[i];
}

} // namespace

Vec2 swarmGoal(const Group& group, const StepContext& ctx)
{
    // A target a game set (World::setTarget) comes first.
    if (group.hasTarget)
        return group.target;
    if (group.chaseGroup >= 0 && group.chaseGroup < static_cast<int>(ctx.groups->size())) {
        const Group& chased = *(*ctx.groups)[static_cast<std::size_t>(group.chaseGroup)];
        if (chased.agents.size() > 0)
            return {chased.agents.px[0], chased.agents.py[0]};
    }
    return ctx.player->position;
}

bool swarmHasGoal(const Group& group, const StepContext& ctx)
{
    return group.hasTarget || group.chaseGroup >= 0 || ctx.player->enabled;
}

std::optional<Vec2> SwarmBehaviour::goal(const Group& group, const StepContext& ctx) const
{
    if (!swarmHasGoal(group, ctx))
        return std::nullopt;
    return swarmGoal(group, ctx);
}

void SwarmBehaviour::aimRoutes(Group& group, const StepContext& ctx, std::vector<FlowField*>& aimed)
{
    // As preparePlan() updates the route, below: it then finds the field ready, reaching
    // every member.
    const AgentArrays& a = group.agents;
    if (a.size() > 0 && swarmHasGoal(group, ctx))
        m_route.update(*ctx.geometry, m_params.radius, swarmGoal(group, ctx), &aimed,
                       FlowRoute::Cover::bodies(a.px.data(), a.py.data(), a.size()));
}

std::size_t SwarmBehaviour::preparePlan(Group& group, const StepContext& ctx)
{
    // One field for the swarm, rebuilt only when the goal changes cell; none for a swarm
    // without agents (the route budget counts no field for it, and a goal that runs across
    // a big level would rebuild a field nobody follows every step).
    const std::size_t n = group.agents.size();
    if (n > 0 && swarmHasGoal(group, ctx))
        m_route.update(*ctx.geometry, m_params.radius, swarmGoal(group, ctx));
    else
        m_route.clear();
    // Where each agent faces, for the headings after the parts (no allocation once the
    // buffers have grown to the group).
    m_faceX.resize(n);
    m_faceY.resize(n);
    group.startClearance.resize(n);
    group.startNearest2.resize(n);
    return ctx.planParts(n);
}

void SwarmBehaviour::planPart(Group& group, const StepContext& ctx, std::size_t part, int worker)
{
    (void)worker;
    withNeighbourSearch(
        ctx, [&](auto search) { planPartWith<typename decltype(search)::type>(group, ctx, part); });
}

void SwarmBehaviour::finishPlan(Group& group, const StepContext& ctx)
{
    AgentArrays& a = group.agents;
    group.startClearanceKnown = true;
    group.startNearestKnown = true;
    // Who seeks is told by the goal distance just stored: it is beyond the stop distance (and
    // there is a goal: past +infinity, nobody).
    // In ranges on the step's threads, each a whole number of lane groups: every agent is
    // on the lane it would have in one pass (the last few, past the lanes, one by one as
    // there).
    const float seekBeyond =
        swarmHasGoal(group, ctx) ? m_params.stopDistance : std::numeric_limits<float>::infinity();
    const std::size_t n = a.size();
    const std::size_t laneGroups = (n + Float4::kWidth - 1) / Float4::kWidth;
    ctx.forEachRange(laneGroups, [&](std::size_t begin, std::size_t end) {
        const std::size_t first = begin * Float4::kWidth;
        const std::size_t last = std::min(n, end * Float4::kWidth);
        faceHeadings(m_faceX.data() + first, m_faceY.data() + first, a.goalDistance.data() + first,
                     seekBeyond, a.heading.data() + first, a.nheading.data() + first, last - first);
    });
}

template <class Search>
void SwarmBehaviour::planPartWith(Group& group, const StepContext& ctx, std::size_t part)
{
    const Search& search = neighbourSearch<Search>(group);
    AgentArrays& a = group.agents;
    // Copies, as every value the loop reads again and again: a local stays in a register (or
    // a slot of the frame), where a member would be loaded anew after every store to an
    // agent's flags (a byte store may alias anything) and after every call off the fast path.
    const SwarmParams p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const float dt = ctx.dt;
    const std::uint64_t seed = ctx.seed;
    const std::size_t n = a.size();
    const bool hasGoal = swarmHasGoal(group, ctx);
    const Vec2 goal = swarmGoal(group, ctx);
    const float R = p.minAllowedRadius;
    const float settle = p.settleFactor * R;
    // Never push further than R in one step, however many neighbours overlap.
    const float maxPush = R;
    const float inverseDt = 1.0f / dt;
    const float stride = p.speed * dt;
    // The ease-off band, at the goal's spacing and squeezed round a corner (the same
    // products the rule forms, formed once).
    const float settleOpen = settle * 1.0f, bandOpen = (R - settle) * 1.0f;
    const float settleRounding = settle * kRoundingSqueeze;
    const float bandRounding = (R - settle) * kRoundingSqueeze;
    const float nearOpen = R * 1.0f, nearRounding = R * kRoundingSqueeze;
    const FlowRoute::Cells route = m_route.cells(); // one cell lookup per agent
    const float nearWay = p.stopDistance + stride;
    float* faceX = m_faceX.data();
    float* faceY = m_faceY.data();
    const float* px = a.px.data();
    const float* py = a.py.data();
    float* nx = a.nx.data();
    float* ny = a.ny.data();
    float* nvx = a.nvx.data();
    float* nvy = a.nvy.data();
    float* nspeed = a.nspeed.data();
    float* goalDistances = a.goalDistance.data();
    std::uint8_t* agentFlags = a.flags.data();
    float* startClearance = group.startClearance.data(); // handed to the world's wall rule
    // How far the other bodies are, for the body pass: it skips a body none can touch.
    float* startNearest2 = group.startNearest2.data();

    // Agents visited in cell order: neighbours and the clearance grid stay in cache.
    const auto [begin, end] = ctx.planPartRange(n, part);
    for (std::size_t k = begin; k < end; ++k) {
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        const Vec2 pos{px[i], py[i]};
        const float room = geometry.clearance(pos); // one lookup serves the feelers and the move
        startClearance[i] = room;
        const Vec2 toGoal = goal - pos;
        float goalDistance = toGoal.length();
        Vec2 seekDir = goalDistance > 1e-6f ? toGoal * (1.0f / goalDistance) : Vec2{};
        // Round the walls between it and the goal: the field's way, and near the goal its
        // length (an enemy behind a thin wall from the player is not there yet; further out
        // the way is no shorter than the straight line, and the rules tell no difference).
        int cell = 0;
        const bool rounding = route.bends(pos, cell);
        if (rounding) {
            seekDir = route.direction(cell);
            if (goalDistance < nearWay)
                goalDistance = route.pathDistance(cell, pos);
        }
        seekDir = seekAlongWalls(geometry, p, pos, room, seekDir, i);
        const bool seeking = hasGoal && goalDistance > p.stopDistance;

        const Scatter s = scatter(search, R, pos, seekDir, static_cast<std::uint32_t>(k), i, seed);
        // Averaged over the overlaps (as position-based dynamics averages its constraints):
        // summing them, an enemy wedged between k others is thrown k times too far, and the
        // whole swarm boils.
        Vec2 push = s.push;
        if (s.overlaps > 1)
            push *= 1.0f / static_cast<float>(s.overlaps);
        push = truncated(push * p.pushStrength, maxPush);
        // Other groups' bodies: a sidestep of up to a full stride away from them.
        float othersBeyond2 = 0.0f;
        const OtherBodies others =
            othersNear(ctx, group, pos, p.radius, seekDir, R, &othersBeyond2);
        startNearest2[i] = s.nearest2 < othersBeyond2 ? s.nearest2 : othersBeyond2;
        push += truncated(others.away, 1.0f) * stride;

        float seekScale = seeking ? 1.0f : 0.0f;
        // A swarm rounding a corner funnels toward it: easing off at the goal's spacing there
        // would jam everyone behind, so it eases off only once squeezed closer (it still does,
        // or a crowd pressing through a door crushes).
        if (seeking && settle > 0.0f && s.aheadNearest < (rounding ? nearRounding : nearOpen)) {
            // Ease off between R and settle x R: full press when nobody is in the way.
            seekScale = R > settle
                            ? clamp01((s.aheadNearest - (rounding ? settleRounding : settleOpen)) /
                                      (rounding ? bandRounding : bandOpen))
                            : 0.0f;
        }
        // std::fmin(stride, std::fmax(0, beyond)) as glibc computes them (a call each):
        // fmax(0, x) is x unless x is below zero or NaN, and fmin(a, b) for a b that is never
        // NaN is a < b ? a : b, the minss they run.
        const float beyond = goalDistance - p.stopDistance;
        const float left = beyond >= 0.0f ? beyond : 0.0f;
        float seekLength = stride < left ? stride : left;
        // Nor into a body ahead that cannot make way (the player, a body that holds its place
        // or follows its own path, one the last step left squeezed): no further than the
        // room to it. Pressing on, two swarms round the player crush a crowd the body pass
        // cannot part; bodies that can make way are pushed aside as before, so swarms
        // meeting in a corridor still pass each other. Only a body seen within R counts (a
        // stride longer than R, at a high speed, is not cut short by nothing).
        if (others.firmAhead < R) {
            const float roomAhead = others.firmAhead > 0.0f ? others.firmAhead : 0.0f;
            if (roomAhead < seekLength)
                seekLength = roomAhead;
        }
        const Vec2 want = pos + seekDir * (seekLength * seekScale) + push;

        bool blocked = false;
        const Vec2 next =
            geometry.constrainMove(pos, want, p.radius, WallResponse::Slide, &blocked, room);
        const Vec2 velocity = (next - pos) * inverseDt;
        if (ctx.inspection && ctx.inspection->wants(group.index, a.id[i])) {
            Inspection& seen = *ctx.inspection;
            seen.begin(ctx.step, "m/s");
            seen.add("seek", seekDir * (seekLength * seekScale * inverseDt));
            seen.add("scatter", (push - truncated(others.away, 1.0f) * stride) * inverseDt);
            seen.add("give way", truncated(others.away, 1.0f) * (stride * inverseDt));
            seen.wanted = (want - pos) * inverseDt;
            seen.add("walls", velocity - seen.wanted);
            seen.planned = velocity;
        }
        nx[i] = next.x;
        ny[i] = next.y;
        nvx[i] = velocity.x;
        nvy[i] = velocity.y;
        nspeed[i] = velocity.length();
        goalDistances[i] = hasGoal ? goalDistance : 0.0f;
        std::uint8_t flags =
            agentFlags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentAtGoal));
        // Settled against the swarm or at the target: where a swarm member wants to be.
        if (!seeking || seekScale < 0.5f)
            flags |= kAgentAtGoal;
        agentFlags[i] = flags | (blocked ? kAgentBlocked : 0);
        // Faces the velocity (the seed's lookAt, taken before scatter: the seek direction),
        // and keeps the old heading when standing still: after the loop, four at a time.
        faceX[i] = seekDir.x;
        faceY[i] = seekDir.y;
    }
}

} // namespace shoal
