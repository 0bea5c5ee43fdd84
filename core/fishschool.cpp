#include "fishschool.h"

#include "neighbourscan.h"
#include "statehash.h"
#include "steering.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace shoal {

namespace {

using F = ParamField<FishSchoolParams>;

const F kFishFields[] = {
    {{"moveSpeed", "Move speed", "m/s", 0.1, 30.0, 0.1, 3.4,
      "Cruising speed of school members (the seed's 170 px/s). Faster keeps up with a quick "
      "player; slower makes a lazier school that strings out behind it."},
     &FishSchoolParams::moveSpeed},
    {{"rotateSpeed", "Turn rate", "deg/s", 10.0, 1440.0, 5.0, 320.0,
      "Most a member turns per second. High: twitchy, tight formations; low: wide, graceful "
      "arcs that drift out of the band in sharp turns."},
     &FishSchoolParams::rotateSpeed, ParamScale::Degrees},
    {{"neighborRadius", "Neighbour radius", "m", 0.1, 20.0, 0.1, 3.0,
      "Members closer than this are neighbours: they are kept in the band and aligned with. "
      "Must exceed keepMaxDistance. Larger: smoother, more global school, slower to compute."},
     &FishSchoolParams::neighborRadius},
    {{"keepMinDistance", "Keep min distance", "m", 0.05, 10.0, 0.05, 1.6,
      "Inner edge of the distance band: closer neighbours push a member away (the seed's 80 px)."},
     &FishSchoolParams::keepMinDistance},
    {{"keepMaxDistance", "Keep max distance", "m", 0.05, 15.0, 0.05, 2.0,
      "Outer edge of the band: farther neighbours (within the neighbour radius) pull a member "
      "closer (the seed's 100 px). A narrow band looks drilled; a wide one looks loose."},
     &FishSchoolParams::keepMaxDistance},
    {{"keepWeight", "Keep weight", "", 0.0, 5.0, 0.05, 1.0,
      "How much keeping the band matters against aligning. Higher holds spacing at the cost "
      "of heading agreement."},
     &FishSchoolParams::keepWeight},
    {{"moveWeight", "Align weight", "", 0.0, 5.0, 0.05, 0.8,
      "How much a member follows its neighbours' movement. Higher: a polarised school that "
      "turns as one; lower: a milling swarm."},
     &FishSchoolParams::moveWeight},
    {{"followWeight", "Follow weight", "", 0.0, 5.0, 0.05, 0.6,
      "How strongly members match the player fish's velocity, and how hard a member that "
      "lost all its neighbours heads back to the player (the seed's members never see the "
      "player, so its school could not follow). 0 = the seed."},
     &FishSchoolParams::followWeight},
    {{"neighborCount", "Band neighbours", "", 1.0, 16.0, 1.0, 4.0,
      "A member closes up on the school until at least half of this many of its nearest "
      "neighbours sit within keepMaxDistance (a fish watches its closest few, not the whole "
      "school). More: a denser, stiffer school; fewer: a looser school that may string out.",
      ParamType::Integer},
     &FishSchoolParams::neighborCount},
    {{"pickRadius", "Pick radius", "m", 0.05, 10.0, 0.05, 1.0,
      "A free fish joins the school for good when the player swims this close (the seed's 50 px)."},
     &FishSchoolParams::pickRadius},
    {{"speedEasing", "Speed easing", "1/s", 0.1, 20.0, 0.1, 2.0,
      "How fast a member's speed eases toward moveSpeed (the seed's lerp factor). Low: slow "
      "starts and stops; high: abrupt."},
     &FishSchoolParams::speedEasing},
    {{"turnDeadZone", "Turn dead zone", "deg", 0.0, 45.0, 0.5, 11.5,
      "No turning while the wanted direction is within this angle of the heading: the seed's "
      "anti-shake (dot 0.98). Larger is calmer but less precise."},
     &FishSchoolParams::turnDeadZone, ParamScale::Degrees},
    {{"turnSlowdown", "Turn slowdown", "", 0.0, 1.0, 0.05, 0.8,
      "Share of speed lost while turning hard (0: none; 1: stop to turn on the spot)."},
     &FishSchoolParams::turnSlowdown},
    {{"rayLength", "Wall ray", "m", 0.05, 5.0, 0.05, 0.8,
      "Ray cast ahead before each move and feeler length: members steer off walls within it "
      "and never move into one (the seed's 40 px)."},
     &FishSchoolParams::rayLength},
    {{"radius", "Body radius", "m", 0.05, 5.0, 0.05, 0.3,
      "Size of a fish for drawing and the overlap metric; keep it under keepMinDistance / 2."},
     &FishSchoolParams::radius},
    {{"idleDrift", "Idle drift", "m/s", 0.0, 5.0, 0.05, 0.3,
      "Speed at which free fish meander while waiting to be picked up. 0 = they wait still."},
     &FishSchoolParams::idleDrift},
};

constexpr float kWallWeight = 2.0f; // feelers beat the band: a school must not pile into walls
// A free fish wanders at most about this far (m) from where it was placed (half a pick radius), so the player
// finds it where the designer put it.
constexpr float kIdleTether = 0.5f;

} // namespace

const std::vector<ParamSpec>& fishSchoolParamSpecs()
{
    static const std::vector<ParamSpec> specs = specsOf(kFishFields);
    return specs;
}

FishSchoolParams fishSchoolParams(const ParamValues& values) { return paramsFrom(kFishFields, values); }

std::optional<Error> checkFishSchoolRelations(const ParamValues& values)
{
    const FishSchoolParams p = paramsFrom(kFishFields, values);
    if (!(p.keepMinDistance < p.keepMaxDistance))
        return Error{"keepMinDistance (" + formatNumber(authoredValue(kFishFields, values, &FishSchoolParams::keepMinDistance)) + ") must be less than keepMaxDistance (" +
                     formatNumber(authoredValue(kFishFields, values, &FishSchoolParams::keepMaxDistance)) + ")"};
    if (!(p.keepMaxDistance < p.neighborRadius))
        return Error{"keepMaxDistance (" + formatNumber(authoredValue(kFishFields, values, &FishSchoolParams::keepMaxDistance)) + ") must be less than neighborRadius (" +
                     formatNumber(authoredValue(kFishFields, values, &FishSchoolParams::neighborRadius)) + "): neighbours beyond the band could never be seen"};
    return std::nullopt;
}

void FishSchoolBehaviour::setParams(const ParamValues& values) { m_params = paramsFrom(kFishFields, values); }

void FishSchoolBehaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                                const StaticGeometry& geometry)
{
    Behaviour::spawn(group, desc, random, geometry);
    // Fish the scene places in a school start as members; free fish come from pickups.
    for (auto& flags : group.agents.flags)
        flags |= kAgentInSchool;
}

bool FishSchoolBehaviour::isActive(const Group& group, std::size_t i) const
{
    return (group.agents.flags[i] & kAgentInSchool) != 0;
}

std::size_t FishSchoolBehaviour::memoryBytes() const
{
    return m_joined.capacity() * sizeof(std::uint32_t) +
           (m_homeX.capacity() + m_homeY.capacity() + m_sortedVx.capacity() + m_sortedVy.capacity()) * sizeof(float) +
           m_sortedActive.capacity() * sizeof(std::uint32_t);
}

void FishSchoolBehaviour::hashState(std::uint64_t& h) const
{
    hashVector(h, m_homeX);
    hashVector(h, m_homeY);
}

void FishSchoolBehaviour::permuteAgents(const std::vector<std::uint32_t>& order)
{
    if (m_homeX.size() != order.size())
        return; // not set up yet: the next plan starts them afresh
    for (auto* v : {&m_homeX, &m_homeY}) {
        m_sortedVx.resize(order.size());
        for (std::size_t k = 0; k < order.size(); ++k)
            m_sortedVx[k] = (*v)[order[k]];
        v->swap(m_sortedVx);
    }
}

void FishSchoolBehaviour::plan(Group& group, const StepContext& ctx)
{
    if (ctx.search == NeighbourSearch::Grid)
        planWith<UniformGrid>(group, ctx);
    else
        planWith<BruteForceNeighbours>(group, ctx);
}

template <class Search>
void FishSchoolBehaviour::planWith(Group& group, const StepContext& ctx)
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;
    const Search& search = neighbourSearch<Search>(group);
    AgentArrays& a = group.agents;
    const FishSchoolParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const float dt = ctx.dt;
    const float inverseDt = 1.0f / dt;
    const DriveSettings settings = driveSettings(p.rotateSpeed, p.turnDeadZone, p.turnSlowdown, dt);
    const bool led = group.playerLed && ctx.player->enabled;
    const Vec2 playerPos = ctx.player->position;
    const float pick2 = p.pickRadius * p.pickRadius;
    // Matching the player's velocity is the same wish for every member: once a step.
    const Vec2 withPlayer = truncated(ctx.player->velocity * (1.0f / p.moveSpeed), 1.0f) * p.followWeight;
    const std::size_t n = a.size();
    const std::size_t first = group.playerLed ? 1 : 0;
    if (m_joined.capacity() < n)
        m_joined.reserve(n);
    if (m_homeX.size() != n) {
        m_homeX.assign(n, std::numeric_limits<float>::quiet_NaN());
        m_homeY.assign(n, std::numeric_limits<float>::quiet_NaN());
    }
    m_joined.clear();

    // Neighbour attributes in cell order, so the inner loop reads contiguous memory; agents
    // are visited in cell order too, so the clearance grid and the cells stay in cache.
    search.gather(a.vx.data(), m_sortedVx);
    search.gather(a.vy.data(), m_sortedVy);
    search.gather(a.flags.data(), m_sortedActive,
                  [](std::uint8_t f) { return (f & kAgentInSchool) ? ~0u : 0u; });

    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        if (i < first)
            continue;
        const Vec2 pos{a.px[i], a.py[i]};
        const float room = geometry.clearance(pos); // one lookup serves the feelers and the move
        const float heading = a.heading[i];
        const Vec2 forward = fromAngle(heading);
        std::uint8_t flags = a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentAtGoal));

        if (!(flags & kAgentInSchool)) {
            // A free fish: meander near where it was placed; join for good when the player
            // comes close. It joins after the loop, so neighbours planning this step still
            // see it as free (no dependence on agent order).
            if (led && distanceSquared(pos, playerPos) < pick2)
                m_joined.push_back(static_cast<std::uint32_t>(i));
            if (std::isnan(m_homeX[i])) {
                m_homeX[i] = pos.x;
                m_homeY[i] = pos.y;
            }
            const Vec2 home{m_homeX[i], m_homeY[i]};
            Vec2 wish = fromAngle(heading + signedNoise(ctx.seed, ctx.step / 30, i, 1) * 1.2f);
            const float away = distance(pos, home);
            if (away > kIdleTether)
                wish += (home - pos) / away * ((away - kIdleTether) / kIdleTether);
            wish += geometry.feelerAvoidance(pos, forward, p.rayLength, room) * kWallWeight;
            const DriveResult r = drive(heading, forward, wish.normalizedOr(forward), p.idleDrift, settings);
            bool blocked = false;
            const Vec2 want = pos + r.forward * (r.speed * dt);
            const Vec2 next = geometry.constrainMove(pos, want, p.radius, WallResponse::Slide, &blocked, room);
            a.nx[i] = next.x;
            a.ny[i] = next.y;
            a.nvx[i] = (next.x - pos.x) * inverseDt;
            a.nvy[i] = (next.y - pos.y) * inverseDt;
            a.nheading[i] = r.heading;
            a.nspeed[i] = r.speed;
            a.goalDistance[i] = 0.0f;
            a.flags[i] = flags | kAgentAtGoal | (blocked ? kAgentBlocked : 0);
            continue;
        }

        // One pass over the school neighbours within the radius (the player included),
        // a lane of candidates at a time: alignment (v2) sums their velocities; the band
        // rule (v1) needs the nearest distance, how many sit within keepMaxDistance, the push
        // away from those nearer than the middle of the band and the centre of those beyond
        // it. No per-neighbour sorting: this loop is most of a step's cost.
        const float keepMin = p.keepMinDistance;
        const float keepMax = p.keepMaxDistance;
        const float mid = 0.5f * (keepMin + keepMax);
        const float mid2 = mid * mid;
        const float keepMax2 = keepMax * keepMax;
        const float inverseKeepMax = 1.0f / keepMax;
        const V vMid2(mid2);
        const V vKeepMax2(keepMax2);
        const V vRepelOverD(mid / keepMin); // the push is (1 - d / mid) * mid / keepMin
        const V vRepelOffset(1.0f / keepMin);
        const V vTouching(kTouchingDistance2);
        const V vFar(std::numeric_limits<float>::max());
        const std::uint32_t* active = m_sortedActive.data();
        const float* neighbourVx = m_sortedVx.data();
        const float* neighbourVy = m_sortedVy.data();
        V alignX, alignY, repelX, repelY, farX, farY;
        V nearest2 = vFar;
        typename V::Count neighbourCount, withinKeepMaxCount;
        scanNeighbours(search, pos, p.neighborRadius, static_cast<std::uint32_t>(k),
                       [&](std::uint32_t slot, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
            in = in & V::loadMask(active + slot);
            neighbourCount.add(in);
            alignX += masked(in, V::load(neighbourVx + slot));
            alignY += masked(in, V::load(neighbourVy + slot));
            nearest2 = min(nearest2, d2 + maskedOff(in, vFar));
            withinKeepMaxCount.add(in & (d2 <= vKeepMax2));
            const Mask beyondMid = in & (d2 >= vMid2);
            farX += masked(beyondMid, dx);
            farY += masked(beyondMid, dy);
            // Away, the harder the closer: (1 - d / mid) * mid / keepMin along the unit offset,
            // so (dx, dy) times mid / (keepMin d) - 1 / keepMin. Lanes exactly on top of this
            // fish are left to touchingSplit (nearest2 shows them); masked-off lanes may divide
            // by zero, which masking turns back into zero.
            const Mask pushing = andNot(beyondMid, in) & (d2 >= vTouching);
            const V s = vRepelOverD / sqrt(d2) - vRepelOffset;
            repelX += masked(pushing, dx * s);
            repelY += masked(pushing, dy * s);
        });
        const int neighbours = neighbourCount.total();
        const int withinKeepMax = withinKeepMaxCount.total();
        const Vec2 align{alignX.sum(), alignY.sum()};
        const Vec2 farOffset{farX.sum(), farY.sum()};
        const float nearestSquared = minLane(nearest2);
        Vec2 repel{repelX.sum(), repelY.sum()};
        if (SHOAL_UNLIKELY(nearestSquared < kTouchingDistance2))
            repel += touchingSplit(search, pos, static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i), ctx.seed, 2,
                                   [&](std::uint32_t slot) { return active[slot] != 0; });
        // Too close beats too far: while a neighbour is inside keepMinDistance the fish only
        // makes room; otherwise, unless at least half of its nearest neighborCount already sit
        // within keepMaxDistance, it closes up on the far ones. Each, once started, carries on
        // until the nearest neighbour is at the middle of the band (hysteresis), so a school
        // settles inside the band rather than on its edges. Mixing the two, as the seed does,
        // lets the pull of the many far neighbours squeeze the nearest to the inner edge.
        Vec2 keep;
        if (neighbours > 0) {
            const float nearestD = std::sqrt(nearestSquared);
            const int watched = std::min(neighbours, static_cast<int>(p.neighborCount));
            const bool makingRoom = (flags & kAgentMakingRoom) ? nearestD < mid : nearestD < keepMin;
            const bool closingUp = !makingRoom && ((flags & kAgentClosingUp) ? nearestD > mid
                                                                            : 2 * withinKeepMax < watched);
            flags &= static_cast<std::uint8_t>(~(kAgentMakingRoom | kAgentClosingUp));
            flags |= (makingRoom ? kAgentMakingRoom : 0) | (closingUp ? kAgentClosingUp : 0);
            if (makingRoom)
                keep = repel;
            else if (closingUp) // (with nobody beyond the middle, farOffset and keep are zero)
                keep = -farOffset.normalizedOr({}) * clamp01((nearestD - mid) / (keepMax - mid));
        }
        // The seed sums the band rule over every neighbour and normalises both sums. Summed
        // over all of them, the many far neighbours outweigh the few near ones and a school
        // collapses into a ball; normalised, a fish never learns how crowded it is or how fast
        // its neighbours swim, so a school never slows down. Here the band is kept to the
        // nearest few (capped at 1), and alignment matches the neighbours' mean velocity
        // (relative to moveSpeed), so a school spreads into its band and comes to rest
        // around a resting player.
        const float inverseSpeed = 1.0f / p.moveSpeed;
        Vec2 direction = truncated(keep, 1.0f) * p.keepWeight;
        if (neighbours > 0)
            direction += truncated(align * (inverseSpeed / static_cast<float>(neighbours)), 1.0f) * p.moveWeight;
        float goal = 0.0f;
        if (led) {
            const Vec2 toPlayer = playerPos - pos;
            goal = toPlayer.length();
            // Swim with the player, and gather toward it unless making room (making room wins,
            // so the school packs to its band around the player, not tighter).
            direction += withPlayer;
            if (!(flags & kAgentMakingRoom) && goal > keepMax)
                direction += toPlayer * (p.followWeight * clamp01((goal - keepMax) * inverseKeepMax) / goal);
        }
        direction += geometry.feelerAvoidance(pos, forward, p.rayLength, room) * kWallWeight;

        const float cruise = ease(a.speed[i], p.moveSpeed, p.speedEasing, dt);
        const DriveResult r = drive(heading, forward, direction, cruise, settings);
        bool blocked = false;
        const Vec2 want = pos + r.forward * (r.speed * dt);
        const Vec2 next = geometry.constrainMove(pos, want, std::min(p.rayLength, p.radius + 0.05f),
                                                 WallResponse::Slide, &blocked, room);
        a.nx[i] = next.x;
        a.ny[i] = next.y;
        a.nvx[i] = (next.x - pos.x) * inverseDt;
        a.nvy[i] = (next.y - pos.y) * inverseDt;
        a.nheading[i] = r.heading;
        a.nspeed[i] = cruise;
        a.goalDistance[i] = goal;
        // Resting in the band near the player is the goal; with no player, schooling is.
        if (!led || goal <= keepMax * 2.0f || ctx.player->speed < kStuckSpeed)
            flags |= kAgentAtGoal;
        a.flags[i] = flags | (blocked ? kAgentBlocked : 0);
    }
    for (std::uint32_t i : m_joined)
        a.flags[i] |= kAgentInSchool;
}

} // namespace shoal
