#include "families/swarm/swarm.h"
#include "math/fastmath.h"

#include "kernels/neighbourscan.h"
#include "steering/steering.h"

#include <cmath>

namespace shoal {

namespace {

using F = ParamField<SwarmParams>;

const F kSwarmFields[] = {
    {{"speed", "Speed", "m/s", 0.0, 30.0, 0.1, 3.0,
      "How fast an enemy moves toward its target. Faster swarms press harder and need a "
      "larger minAllowedRadius or pushStrength to keep apart."},
     &SwarmParams::speed},
    {{"minAllowedRadius", "Scatter radius", "m", 0.05, 20.0, 0.05, 1.0,
      "R: enemies closer than this push each other apart by (R - d). Larger: a wider, "
      "sparser swarm; smaller: a dense clump."},
     &SwarmParams::minAllowedRadius},
    {{"pushStrength", "Push strength", "", 0.0, 1.0, 0.05, 0.5,
      "Share of (R - d) each enemy of a pair moves per step. The seed uses 1 for each, which "
      "overshoots (the pair ends up 2(R - d) apart) and jitters; 0.5 splits the gap evenly."},
     &SwarmParams::pushStrength},
    {{"settleFactor", "Settle factor", "", 0.0, 1.0, 0.05, 0.95,
      "An enemy stops pressing toward the target while one ahead of it is closer than "
      "settleFactor x R, so a swarm around a still player settles into a disc instead of "
      "crushing into a point. 0 = always press (the seed)."},
     &SwarmParams::settleFactor},
    {{"stopDistance", "Stop distance", "m", 0.0, 20.0, 0.05, 0.6,
      "Enemies stop seeking this close to the target."},
     &SwarmParams::stopDistance},
    {{"feelerLength", "Feeler length", "m", 0.0, 20.0, 0.1, 1.5,
      "Feelers ahead that turn an enemy's seek along a wall instead of into it, so a swarm "
      "flows around obstacles toward the player. 0 = the seed (it only slides once it "
      "touches). Longer: smoother detours, more ray casts near walls."},
     &SwarmParams::feelerLength},
    {{"wallWeight", "Wall weight", "", 0.0, 10.0, 0.1, 1.5,
      "How hard the feelers steer away from walls against the pull to the target."},
     &SwarmParams::wallWeight},
    {{"radius", "Body radius", "m", 0.05, 10.0, 0.05, 0.35,
      "Size of an enemy: its clearance from walls and the overlap metric. Keep 2 x radius "
      "at or under R so scattering prevents overlap."},
     &SwarmParams::radius},
};

// Every combination in range is meaningful.
const std::array<ParamRule<SwarmParams>, 0> kSwarmRules = {};

} // namespace

const std::vector<ParamSpec>& swarmParamSpecs()
{
    static const std::vector<ParamSpec> specs = specsOf(kSwarmFields);
    return specs;
}

SwarmParams swarmParams(const ParamValues& values) { return paramsFrom(kSwarmFields, values); }

std::optional<Error> checkSwarmRelations(const ParamValues& values)
{
    return checkRules(kSwarmFields, kSwarmRules, values);
}

void SwarmBehaviour::setParams(const ParamValues& values) { m_params = paramsFrom(kSwarmFields, values); }

Vec2 swarmGoal(const Group& group, const StepContext& ctx)
{
    if (group.chaseGroup >= 0 && group.chaseGroup < static_cast<int>(ctx.groups->size())) {
        const Group& chased = *(*ctx.groups)[static_cast<std::size_t>(group.chaseGroup)];
        if (chased.agents.size() > 0)
            return {chased.agents.px[0], chased.agents.py[0]};
    }
    return ctx.player->position;
}

void SwarmBehaviour::plan(Group& group, const StepContext& ctx)
{
    if (ctx.search == NeighbourSearch::Grid)
        planWith<UniformGrid>(group, ctx);
    else
        planWith<BruteForceNeighbours>(group, ctx);
}

template <class Search>
void SwarmBehaviour::planWith(Group& group, const StepContext& ctx)
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;
    const Search& search = neighbourSearch<Search>(group);
    AgentArrays& a = group.agents;
    const SwarmParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const float dt = ctx.dt;
    const std::size_t n = a.size();
    const bool hasGoal = group.chaseGroup >= 0 || ctx.player->enabled;
    const Vec2 goal = swarmGoal(group, ctx);
    const float R = p.minAllowedRadius;
    const float R2 = R * R;
    const float settle = p.settleFactor * R;
    // Never push further than R in one step, however many neighbours overlap.
    const float maxPush = R;
    const float inverseDt = 1.0f / dt;

    // Agents visited in cell order: neighbours and the clearance grid stay in cache.
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        const Vec2 pos{a.px[i], a.py[i]};
        const float room = geometry.clearance(pos); // one lookup serves the feelers and the move
        const Vec2 toGoal = goal - pos;
        const float goalDistance = toGoal.length();
        Vec2 seekDir = goalDistance > 1e-6f ? toGoal * (1.0f / goalDistance) : Vec2{};
        if (p.feelerLength > 0.0f && seekDir.lengthSquared() > 0.0f) {
            // Turn the seek along walls ahead (no ray at all away from geometry): remove the
            // part that heads into the surface rather than pushing back, which would make an
            // enemy facing a wall bob toward and away from it.
            const Vec2 avoid = geometry.feelerAvoidance(pos, seekDir, p.feelerLength, room);
            const Vec2 normal = avoid.normalizedOr({});
            const float into = dot(seekDir, normal);
            if (into < 0.0f) {
                const float strength = clamp01(avoid.length() * p.wallWeight);
                const Vec2 along = seekDir - normal * (into * strength);
                seekDir = along.normalizedOr(normal.perp() * ((i & 1) ? 1.0f : -1.0f));
            }
        }
        const bool seeking = hasGoal && goalDistance > p.stopDistance;

        // Scatter: push away by (R - d) from everyone closer than R (squared test first), and
        // note the closest enemy ahead toward the goal.
        // A lane of neighbours at a time.
        const V vR(R);
        const V vR2(R2);
        const V vTouching(kTouchingDistance2);
        const V vZero(0.0f);
        const V seekX(seekDir.x);
        const V seekY(seekDir.y);
        V pushX, pushY;
        V aheadLanes(R);
        typename V::Count overlapCount;
        Mask touched = noLanes<V>();
        scanNeighbours(search, pos, R, static_cast<std::uint32_t>(k),
                       [&](std::uint32_t /*slot*/, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
            in = in & (d2 < vR2);
            overlapCount.add(in);
            // Lanes exactly on this spot are left to touchingSplit.
            const Mask touching = in & (d2 < vTouching);
            touched = touched | touching;
            const Mask pushing = andNot(touching, in);
            const V d = sqrt(d2); // (near) zero only on lanes the masks drop
            const V s = (vR - d) / d;
            pushX += masked(pushing, dx * s);
            pushY += masked(pushing, dy * s);
            const Mask ahead = pushing & (vZero - (dx * seekX + dy * seekY) > vZero);
            aheadLanes = min(aheadLanes, select(ahead, d, aheadLanes));
        });
        const int overlaps = overlapCount.total();
        Vec2 push{pushX.sum(), pushY.sum()};
        // Same spot: the seed divides by zero here. Split along a per-pair direction.
        if (SHOAL_UNLIKELY(any(touched)))
            push += touchingSplit(search, pos, static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i), ctx.seed, 4,
                                  [](std::uint32_t) { return true; }) * R;
        const float aheadNearest = minLane(aheadLanes);
        // Averaged over the overlaps (as position-based dynamics averages its constraints):
        // summing them, an enemy wedged between k others is thrown k times too far, and the
        // whole swarm boils.
        if (overlaps > 1)
            push *= 1.0f / static_cast<float>(overlaps);
        push = truncated(push * p.pushStrength, maxPush);

        float seekScale = seeking ? 1.0f : 0.0f;
        if (seeking && settle > 0.0f && aheadNearest < R) {
            // Ease off between R and settle x R: full press when nobody is in the way.
            seekScale = R > settle ? clamp01((aheadNearest - settle) / (R - settle)) : 0.0f;
        }
        const float seekLength = std::fmin(p.speed * dt, std::fmax(0.0f, goalDistance - p.stopDistance));
        const Vec2 want = pos + seekDir * (seekLength * seekScale) + push;

        bool blocked = false;
        const Vec2 next = geometry.constrainMove(pos, want, p.radius, WallResponse::Slide, &blocked, room);
        const Vec2 velocity = (next - pos) * inverseDt;
        a.nx[i] = next.x;
        a.ny[i] = next.y;
        a.nvx[i] = velocity.x;
        a.nvy[i] = velocity.y;
        // Face the velocity (the seed's lookAt, taken before scatter: the seek direction),
        // and keep the old heading when standing still.
        a.nheading[i] = seeking ? angleOf(seekDir) : a.heading[i];
        a.nspeed[i] = velocity.length();
        a.goalDistance[i] = hasGoal ? goalDistance : 0.0f;
        std::uint8_t flags = a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentAtGoal));
        // Settled against the swarm or at the target: where a swarm member wants to be.
        if (!seeking || seekScale < 0.5f)
            flags |= kAgentAtGoal;
        a.flags[i] = flags | (blocked ? kAgentBlocked : 0);
    }
}

} // namespace shoal
