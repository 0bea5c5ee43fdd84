#include "families/leaderfollow/leaderfollow.h"
#include "math/fastmath.h"

#include "math/statehash.h"
#include "world/statebytes.h"

#include "steering/steering.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace shoal {

namespace {

using P = LeaderFollowParams;

// clang-format off
const ParamField<P> kFields[] = {
    {{"mass", "Mass", "kg", 0.1, 100.0, 0.1, 1.0,
      "Mass of every vehicle: acceleration = steering force / mass. Heavier vehicles respond "
      "more slowly and smoothly to every force (arrive, separation, evasion, walls); lighter "
      "ones react at once but look twitchy.", ParamType::Real, {}}, &P::mass},
    {{"maxSpeed", "Max speed", "m/s", 0.1, 30.0, 0.1, 3.0,
      "Top speed of the followers; the leader wanders at leaderSpeed x this. Faster followers "
      "catch up and dodge sooner but overshoot their place behind the leader more.",
      ParamType::Real, {}}, &P::maxSpeed},
    {{"maxForce", "Max force", "N", 0.1, 1000.0, 0.1, 8.0,
      "Largest steering force a vehicle can apply (the sum of all its behaviours is cut to "
      "this). Higher turns and brakes harder (tighter following, quicker evasion); lower gives "
      "wide, lazy curves and lets vehicles drift into each other.", ParamType::Real, {}},
     &P::maxForce},
    {{"damping", "Heading damping", "1/s", 0.1, 60.0, 0.1, 6.0,
      "How fast a vehicle's facing turns toward its direction of motion (fraction per second; "
      "only while it moves). Higher faces the motion almost at once; lower makes facing lag "
      "behind sharp turns, which looks heavier.", ParamType::Real, {}}, &P::damping},
    {{"wanderRadius", "Wander radius", "m", 0.0, 20.0, 0.1, 1.5,
      "Radius of the circle the leader's wander target moves on. Larger relative to "
      "wanderDistance allows sharper turns; 0 makes the leader go straight.",
      ParamType::Real, {}}, &P::wanderRadius},
    {{"wanderDistance", "Wander distance", "m", 0.0, 50.0, 0.1, 3.0,
      "How far ahead of the leader the wander circle sits. Further ahead makes the wander "
      "smoother and its turns gentler; closer makes it erratic.", ParamType::Real, {}},
     &P::wanderDistance},
    {{"wanderJitter", "Wander jitter", "m/s", 0.0, 100.0, 0.1, 4.0,
      "Largest random displacement per second added to the wander target on each axis (then "
      "put back on the circle). Higher changes the leader's course more often; 0 keeps its "
      "course.", ParamType::Real, {}}, &P::wanderJitter},
    {{"leaderSpeed", "Leader speed", "x max speed", 0.05, 1.0, 0.05, 0.6,
      "The leader wanders at this fraction of maxSpeed. Below 1 the followers can catch up "
      "and keep their place; at 1 they trail further behind.", ParamType::Real, {}},
     &P::leaderSpeed},
    {{"leaderBehindDistance", "Behind distance", "m", 0.0, 20.0, 0.1, 2.0,
      "Distance behind the leader (against its motion) of the point followers arrive at; the "
      "evade zone is centred the same distance ahead of it (the article's LEADER_BEHIND_DIST, "
      "2 m). "
      "Larger keeps followers further back.", ParamType::Real, {}}, &P::leaderBehindDistance},
    {{"slowingRadius", "Slowing radius", "m", 0.05, 20.0, 0.05, 2.0,
      "Followers slow down linearly inside this distance of the point behind the leader. "
      "Larger gives softer, laggier following; smaller tracks tightly but overshoots.",
      ParamType::Real, {}}, &P::slowingRadius},
    {{"separationRadius", "Separation radius", "m", 0.05, 10.0, 0.05, 1.2,
      "Followers push apart from other followers closer than this. Larger spreads the group "
      "out; smaller packs it tightly (below two body radii they touch).", ParamType::Real, {}},
     &P::separationRadius},
    {{"separationWeight", "Separation weight", "", 0.0, 50.0, 0.1, 8.0,
      "Strength of the push apart. Higher keeps followers apart when they all crowd the same "
      "spot behind the leader, at the cost of a looser group; 0 lets them pile up.",
      ParamType::Real, {}}, &P::separationWeight},
    {{"evadeDistance", "Evade distance", "m", 0.0, 20.0, 0.1, 1.5,
      "A follower closer than this to the point ahead of the leader is in its way: it flees "
      "the leader's predicted position and steps sideways out of its path. 0 switches "
      "evasion off (followers then walk through the leader's path).", ParamType::Real, {}},
     &P::evadeDistance},
    {{"evadeWeight", "Evade weight", "", 0.0, 20.0, 0.1, 3.0,
      "Strength of the evasion against the pull to the point behind. Higher clears the "
      "leader's path faster; too high and followers scatter whenever it turns toward them.",
      ParamType::Real, {}}, &P::evadeWeight},
    {{"arriveWeight", "Arrive weight", "", 0.0, 20.0, 0.1, 1.0,
      "Strength of the pull to the point behind the leader. Higher follows tightly and keeps "
      "up through turns; lower lags and lets separation and evasion dominate.",
      ParamType::Real, {}}, &P::arriveWeight},
    {{"feelerLength", "Feeler length", "m", 0.1, 10.0, 0.1, 2.5,
      "Length of the three feelers (ahead and 35 degrees either side) that sense walls. "
      "Longer turns away from walls earlier but shies from narrow passages; shorter scrapes "
      "along walls (vehicles never pass through them either way).", ParamType::Real, {}},
     &P::feelerLength},
    {{"wallWeight", "Wall weight", "", 0.0, 20.0, 0.1, 3.0,
      "Strength of the push away from walls the feelers touch; it also sets how fast a "
      "wandering leader turns its course away from a wall. Higher keeps clear of walls; "
      "lower slides along them.", ParamType::Real, {}}, &P::wallWeight},
    {{"radius", "Body radius", "m", 0.05, 5.0, 0.05, 0.35,
      "Body size of every vehicle: the clearance kept from walls and the overlap metric. "
      "Keep separationRadius above twice this so followers part before they touch.",
      ParamType::Real, {}}, &P::radius},
};
// clang-format on

// Compared and shown in runtime units (float): the message prints the float values as
// doubles ("2 x leaderBehindDistance (1.399999976158142)").
const std::array<ParamRule<P>, 1> kRules = {{
    {[](const ParamReading<P>& r) {
         const P& p = r.params();
         return !(p.evadeDistance > 0.0f && p.evadeDistance >= 2.0f * p.leaderBehindDistance);
     },
     [](const ParamReading<P>& r) {
         const P& p = r.params();
         return "evadeDistance (" + formatNumber(static_cast<double>(p.evadeDistance)) +
                ") must be less than 2 x leaderBehindDistance (" +
                formatNumber(2.0 * p.leaderBehindDistance) +
                "), or 0: otherwise the point behind the leader lies inside the evade zone "
                "ahead of it and followers flee the place they are sent to";
     }},
}};

// The window of the followers' route reaches this much further than the furthest follower
// is from the point behind, and no further than kMaxRouteReach round the point (m).
constexpr float kRouteMargin = 4.0f;
constexpr float kMaxRouteReach = 32.0f;
// Whether a wall is between a follower and the point behind is asked of each follower once
// in this many steps (a route a few steps late is no matter; the test is most of its cost).
constexpr int kWallTestSteps = 4;

// Below this speed (m/s) a vehicle's velocity gives no direction: its heading is used, and
// its facing is left alone (the seed's guard against normalising a zero velocity).
constexpr float kTinySpeed = 0.02f;

Vec2 forwardOf(Vec2 velocity, float heading)
{
    // Faster than kTinySpeed the velocity is long enough to normalise (normalizedOr's
    // fallback is never taken there), so the heading's direction, a sine and a cosine, is
    // worked out only when it is used.
    if (velocity.lengthSquared() > kTinySpeed * kTinySpeed)
        return velocity.normalizedOr({});
    return fromAngle(heading);
}

} // namespace

const std::vector<ParamSpec>& leaderFollowParamSpecs()
{
    using H = ParamHandle;
    static const std::vector<ParamSpec> specs = withHandles(
        specsOf(kFields), {{"wanderRadius", H::radius(90.0f, H::Anchor::AheadBy, "wanderDistance")},
                           {"wanderDistance", H::line(H::Shape::Ahead)},
                           {"leaderBehindDistance", H::line(H::Shape::Behind)},
                           {"separationRadius", H::radius(-60.0f)},
                           {"evadeDistance", H::radius(-135.0f)},
                           {"feelerLength", H::line(H::Shape::Ahead)}});
    return specs;
}

LeaderFollowParams leaderFollowParams(const ParamValues& values)
{
    return paramsFrom(kFields, values);
}

std::optional<Error> checkLeaderFollowRelations(const ParamValues& values)
{
    return checkRules(kFields, kRules, values);
}

void LeaderFollowBehaviour::setParams(const ParamValues& values)
{
    m_params = leaderFollowParams(values);
}

float LeaderFollowBehaviour::queryRadius() const
{
    return std::max(m_params.separationRadius, 0.1f);
}

void LeaderFollowBehaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                                  const StaticGeometry& geometry, SpawnOccupancy& placed)
{
    Behaviour::spawn(group, desc, random, geometry, placed);
    m_wanderX.clear();
    ensureWanderState(group);
}

void LeaderFollowBehaviour::ensureWanderState(const Group& group)
{
    const std::size_t n = group.agents.size();
    if (m_wanderX.size() == n)
        return;
    m_wanderX.assign(n, 0.0f);
    m_wanderY.assign(n, 0.0f);
    // Start every wander target straight ahead, so a leader first goes where it faces.
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 offset = fromAngle(group.agents.heading[i]) * m_params.wanderRadius;
        m_wanderX[i] = offset.x;
        m_wanderY[i] = offset.y;
    }
}

void LeaderFollowBehaviour::integrate(Group& group, const StepContext& ctx, std::size_t i,
                                      Vec2 force, float speedLimit, float room) const
{
    AgentArrays& a = group.agents;
    const LeaderFollowParams& p = m_params;
    const Vec2 position{a.px[i], a.py[i]};
    Vec2 velocity =
        applySteeringForce({a.vx[i], a.vy[i]}, force, p.mass, p.maxForce, speedLimit, ctx.dt);
    const Vec2 wanted = position + velocity * ctx.dt;
    bool blocked = false;
    const Vec2 end = ctx.geometry ? ctx.geometry->constrainMove(position, wanted, p.radius,
                                                                WallResponse::Slide, &blocked, room)
                                  : wanted;
    // Keep only the velocity the walls allowed, so a vehicle does not build up speed into one.
    if (blocked)
        velocity = (end - position) / ctx.dt;

    float heading = a.heading[i];
    const float speed = velocity.length();
    if (speed > kTinySpeed) {
        // Wrap only when out of range: fmod is a measurable share of a 10,000-agent step.
        float turn = angleOf(velocity) - heading;
        if (turn > kPi || turn < -kPi)
            turn = wrapAngle(turn);
        heading += turn * clamp01(p.damping * ctx.dt);
        if (heading > kPi || heading <= -kPi)
            heading = wrapAngle(heading);
    }

    a.nx[i] = end.x;
    a.ny[i] = end.y;
    a.nvx[i] = velocity.x;
    a.nvy[i] = velocity.y;
    a.nheading[i] = heading;
    a.nspeed[i] = speed;
    if (blocked)
        a.flags[i] |= kAgentBlocked;
    else
        a.flags[i] &= static_cast<std::uint8_t>(~kAgentBlocked);
}

namespace {

/// Where the leader is and where its followers go, this step.
struct LeaderFrame
{
    Vec2 position;
    Vec2 velocity;
    Vec2 forward; ///< unit: the velocity's direction, or the heading at rest
    Vec2 behind;  ///< where followers arrive
    Vec2 ahead;   ///< centre of the evade zone
};

LeaderFrame leaderFrame(const AgentArrays& a, const LeaderFollowParams& p)
{
    LeaderFrame f;
    f.position = {a.px[0], a.py[0]};
    f.velocity = {a.vx[0], a.vy[0]};
    f.forward = forwardOf(f.velocity, a.heading[0]);
    f.behind = f.position - f.forward * p.leaderBehindDistance;
    f.ahead = f.position + f.forward * p.leaderBehindDistance;
    return f;
}

/// Separation of follower i from every neighbour, the leader included: the seed only
/// separates followers, so a leader turning into its group walked through them.
Vec2 separation(const Group& group, const StepContext& ctx, const LeaderFollowParams& p,
                std::size_t i, Vec2 pos, float& nearest2)
{
    Vec2 push;
    group.forEachNeighbour(
        ctx, pos, p.separationRadius, [&](std::uint32_t j, float dx, float dy, float d2) {
            if (j == i)
                return;
            nearest2 = std::min(nearest2, d2);
            if (d2 < 1e-12f) {
                // Coincident: part along a direction fixed by the pair, the two in opposite
                // ways.
                const Vec2 away = fromAngle(2.39996f * static_cast<float>(i + j));
                push += i < j ? away : -away;
                return;
            }
            const float d = std::sqrt(d2);
            push += Vec2{dx, dy} * ((p.separationRadius - d) / (p.separationRadius * d));
        });
    return push * (p.maxSpeed * p.separationWeight);
}

/// In the leader's way: flee where it will be, and step out of its path to the side the
/// follower is already on.
Vec2 evasion(const LeaderFollowParams& p, const LeaderFrame& leader, std::size_t i, Vec2 pos,
             Vec2 vel)
{
    const Vec2 fromLeader = pos - leader.position;
    const float lookAhead = std::min(fromLeader.length() / p.maxSpeed, 1.0f);
    const Vec2 predicted = leader.position + leader.velocity * lookAhead;
    const float lateral = cross(leader.forward, fromLeader);
    const float sideSign =
        lateral > 1e-4f ? 1.0f : (lateral < -1e-4f ? -1.0f : ((i & 1u) ? 1.0f : -1.0f));
    const Vec2 side = leader.forward.perp() * sideSign;
    const Vec2 away = (pos - predicted).normalizedOr(side);
    const Vec2 desired = (away + side).normalizedOr(side) * p.maxSpeed;
    return (desired - vel) * p.evadeWeight;
}

} // namespace

void LeaderFollowBehaviour::wander(Group& group, const StepContext& ctx)
{
    // The leader wanders: the seed's target on a circle ahead, with the offset kept in world
    // axes, so it acts as a slowly drifting preferred course.
    AgentArrays& a = group.agents;
    const LeaderFollowParams& p = m_params;
    const float dt = ctx.dt;
    const Vec2 leaderPos{a.px[0], a.py[0]};
    const Vec2 leaderVel{a.vx[0], a.vy[0]};
    const Vec2 leaderFwd = forwardOf(leaderVel, a.heading[0]);
    const std::uint64_t groupBits = static_cast<std::uint64_t>(group.index) << 32;
    const float leaderMax = p.maxSpeed * p.leaderSpeed;
    Vec2 offset{m_wanderX[0], m_wanderY[0]};
    const float jitter = p.wanderJitter * dt;
    offset += Vec2{signedNoise(ctx.seed, ctx.step, groupBits, 0),
                   signedNoise(ctx.seed, ctx.step, groupBits, 1)} *
              jitter;
    const float room = ctx.geometry ? ctx.geometry->clearance(leaderPos) : 0.0f;
    const Vec2 wall =
        ctx.geometry ? ctx.geometry->feelerAvoidance(leaderPos, leaderFwd, p.feelerLength, room)
                     : Vec2{};
    // Turn the preferred course away from a wall, or the wander keeps pressing into it.
    offset += wall.normalizedOr({}) * (p.wallWeight * p.wanderRadius * dt);
    offset = offset.normalizedOr(leaderFwd) * p.wanderRadius;
    m_wanderX[0] = offset.x;
    m_wanderY[0] = offset.y;
    // With a target (World::setTarget) the leader arrives there instead; the wander state
    // drifts on as before, so clearing the target picks the wander up again.
    const Vec2 target = leaderPos + leaderFwd * p.wanderDistance + offset;
    Vec2 desired = seek(leaderPos, target, leaderMax);
    if (group.hasTarget) {
        // Round the walls in the way along a field of the whole level, then arriving.
        if (ctx.geometry)
            m_leaderRoute.update(*ctx.geometry, p.radius, group.target);
        desired = ctx.geometry && m_leaderRoute.bends(leaderPos)
                      ? m_leaderRoute.direction(leaderPos) * leaderMax
                      : arrive(leaderPos, group.target, leaderMax, p.slowingRadius);
    }
    const Vec2 others = othersNear(ctx, group, leaderPos, p.radius, leaderFwd, 0.0f).away;
    const Vec2 force = (desired - leaderVel) + wall * (p.maxSpeed * p.wallWeight) +
                       others * (p.maxSpeed * p.separationWeight);
    integrate(group, ctx, 0, force, leaderMax, room);
    if (ctx.inspection && ctx.inspection->wants(group.index, a.id[0])) {
        Inspection& seen = *ctx.inspection;
        seen.begin(ctx.step, "N");
        seen.add(group.hasTarget ? "target" : "wander", desired - leaderVel);
        seen.add("walls", wall * (p.maxSpeed * p.wallWeight));
        seen.add("give way", others * (p.maxSpeed * p.separationWeight));
        seen.wanted = force;
        seen.planned = {a.nvx[0], a.nvy[0]};
    }
    group.startClearance[0] = room; // handed to the world's wall rule with the followers'
    a.goalDistance[0] = 0.0f;
    a.flags[0] |= kAgentAtGoal; // a wanderer has no goal to be away from
}

std::size_t LeaderFollowBehaviour::preparePlan(Group& group, const StepContext& ctx)
{
    (void)group;
    (void)ctx;
    return 1;
}

void LeaderFollowBehaviour::planPart(Group& group, const StepContext& ctx, std::size_t part,
                                     int worker)
{
    (void)part;
    (void)worker;
    planWhole(group, ctx);
}

void LeaderFollowBehaviour::planWhole(Group& group, const StepContext& ctx)
{
    AgentArrays& a = group.agents;
    const std::size_t n = a.size();
    if (n == 0)
        return;
    ensureWanderState(group);
    const LeaderFollowParams& p = m_params;
    const LeaderFrame leader = leaderFrame(a, p);
    const float evade2 = p.evadeDistance * p.evadeDistance;
    // Followers crowd around the behind point: one within the disc that holds all of them
    // at separation spacing has arrived, even if it cannot get nearer the point itself.
    const float crowdRadius =
        0.5f * p.separationRadius * std::sqrt(static_cast<float>(n > 1 ? n - 1 : 1));
    const float atGoalRadius = std::max(p.slowingRadius * 0.5f, crowdRadius);

    // The clearances looked up here are handed to the world's wall rule (every agent's),
    // and how far the other bodies are to the body pass (the leader looks round for none).
    group.startClearance.resize(n);
    group.startNearest2.resize(n);
    group.startNearest2[0] = 0.0f;
    if (!group.playerLed)
        wander(group, ctx);
    else if (ctx.geometry)
        group.startClearance[0] = ctx.geometry->clearance({a.px[0], a.py[0]});

    // The way round walls to the point behind, only while a wall is between it and some
    // follower (seen in the last kWallTestSteps steps): a field over a window round the point,
    // as wide as the group. A point off the level (a leader backed against its edge) is no
    // goal to route to.
    const StaticGeometry* geometry = ctx.geometry;
    if (m_wallSeenFor > 0 && geometry)
        m_route.updateLocal(*geometry, p.radius, leader.behind,
                            std::min(kMaxRouteReach, m_spread + kRouteMargin));
    else
        m_route.clear();
    m_wallSeenFor = std::max(0, m_wallSeenFor - 1);
    const bool pointOnLevel = geometry && leader.behind.x > geometry->boundsMin().x + p.radius &&
                              leader.behind.y > geometry->boundsMin().y + p.radius &&
                              leader.behind.x < geometry->boundsMax().x - p.radius &&
                              leader.behind.y < geometry->boundsMax().y - p.radius;
    const std::uint64_t testTurn = ctx.step % kWallTestSteps;
    // Nothing lies between a follower and the point when their clearances (lower bounds)
    // cover the line; a millimetre more covers rounding. Only the others are tested.
    const float behindRoom = pointOnLevel ? geometry->clearance(leader.behind) - 1e-3f : 0.0f;
    bool wallBetween = false;
    float spread = 0.0f;

    for (std::size_t i = 1; i < n; ++i) {
        const Vec2 pos{a.px[i], a.py[i]};
        const Vec2 vel{a.vx[i], a.vy[i]};
        // One clearance look-up serves the wall test, the feelers and the move.
        const float room = ctx.geometry ? ctx.geometry->clearance(pos) : 0.0f;
        group.startClearance[i] = room;
        const float straight = distance(pos, leader.behind);
        spread = std::max(spread, straight);
        // Each follower is asked every kWallTestSteps steps, the nearer ones never.
        if (pointOnLevel && !wallBetween && i % kWallTestSteps == testTurn && room < straight &&
            room + behindRoom <= straight)
            wallBetween = geometry->segmentCrosses(pos, leader.behind);
        Vec2 desired = arrive(pos, leader.behind, p.maxSpeed, p.slowingRadius);
        if (m_route.bends(pos)) {
            // Behind a wall from the point: round it, slowing only near the point.
            const float way = m_route.pathDistance(pos);
            desired = m_route.direction(pos) * (p.maxSpeed * std::min(1.0f, way / p.slowingRadius));
        }
        const Vec2 arriving = (desired - vel) * p.arriveWeight;
        // The nearest fellow seen, for the body pass (none: at least the radius away).
        float nearest2 = p.separationRadius * p.separationRadius;
        const Vec2 apart = separation(group, ctx, p, i, pos, nearest2);
        const Vec2 forward = forwardOf(vel, a.heading[i]);
        // Other groups' bodies: kept apart from like fellow followers.
        float othersBeyond2 = 0.0f;
        const Vec2 giveWay =
            othersNear(ctx, group, pos, p.radius, forward, 0.0f, &othersBeyond2).away *
            (p.maxSpeed * p.separationWeight);
        Vec2 force = arriving + apart + giveWay;
        group.startNearest2[i] = std::min(nearest2, othersBeyond2);
        Vec2 evading;
        if (evade2 > 0.0f && distanceSquared(pos, leader.ahead) < evade2) {
            evading = evasion(p, leader, i, pos, vel);
            force += evading;
        }
        Vec2 walls;
        if (ctx.geometry) {
            walls = ctx.geometry->feelerAvoidance(pos, forward, p.feelerLength, room) *
                    (p.maxSpeed * p.wallWeight);
            force += walls;
        }

        integrate(group, ctx, i, force, p.maxSpeed, room);
        if (ctx.inspection && ctx.inspection->wants(group.index, a.id[i])) {
            Inspection& seen = *ctx.inspection;
            seen.begin(ctx.step, "N");
            seen.add("arrive", arriving);
            seen.add("separation", apart);
            seen.add("give way", giveWay);
            seen.add("evade", evading);
            seen.add("walls", walls);
            seen.wanted = force;
            seen.planned = {a.nvx[i], a.nvy[i]};
        }

        a.goalDistance[i] = straight;
        if (straight < atGoalRadius)
            a.flags[i] |= kAgentAtGoal;
        else
            a.flags[i] &= static_cast<std::uint8_t>(~kAgentAtGoal);
    }
    if (wallBetween)
        m_wallSeenFor = kWallTestSteps;
    m_spread = spread;
    group.startClearanceKnown = ctx.geometry != nullptr;
    group.startNearestKnown = true;
}

LeaderFollowOverlay LeaderFollowBehaviour::overlay(const Group& group) const
{
    LeaderFollowOverlay o;
    const AgentArrays& a = group.agents;
    if (a.size() == 0)
        return o;
    const LeaderFollowParams& p = m_params;
    o.valid = true;
    const LeaderFrame leader = leaderFrame(a, p);
    o.leader = leader.position;
    o.forward = leader.forward;
    o.behind = leader.behind;
    o.ahead = leader.ahead;
    o.evadeDistance = p.evadeDistance;
    o.wanders = !group.playerLed;
    o.wanderCenter = o.leader + o.forward * p.wanderDistance;
    o.wanderRadius = p.wanderRadius;
    const Vec2 offset = m_wanderX.empty() ? o.forward : Vec2{m_wanderX[0], m_wanderY[0]};
    o.wanderTarget = o.wanderCenter + offset.normalizedOr(o.forward) * p.wanderRadius;
    return o;
}

std::size_t LeaderFollowBehaviour::memoryBytes() const
{
    return (m_wanderX.capacity() + m_wanderY.capacity()) * sizeof(float) + m_route.memoryBytes() +
           m_leaderRoute.memoryBytes();
}

void LeaderFollowBehaviour::hashState(std::uint64_t& h) const
{
    hashVector(h, m_wanderX);
    hashVector(h, m_wanderY);
    hashValue(h, m_wallSeenFor);
    hashValue(h, m_spread);
}

void LeaderFollowBehaviour::saveState(StateWriter& out) const
{
    out.array(m_wanderX);
    out.array(m_wanderY);
    out.value(m_wallSeenFor);
    out.value(m_spread);
    m_route.saveState(out);
    m_leaderRoute.saveState(out);
}

bool LeaderFollowBehaviour::loadState(StateReader& in, const StaticGeometry& geometry)
{
    return in.array(m_wanderX) && in.array(m_wanderY) && m_wanderX.size() == m_wanderY.size() &&
           in.value(m_wallSeenFor) && in.value(m_spread) && m_route.loadState(in, geometry) &&
           m_leaderRoute.loadState(in, geometry);
}

void LeaderFollowBehaviour::agentAdded(const Group& group)
{
    // A newcomer's wander target starts straight ahead, as every agent's did at build.
    const std::size_t n = group.agents.size();
    if (m_wanderX.size() + 1 != n)
        return;
    const Vec2 offset = fromAngle(group.agents.heading[n - 1]) * m_params.wanderRadius;
    m_wanderX.push_back(offset.x);
    m_wanderY.push_back(offset.y);
}

void LeaderFollowBehaviour::agentRemoved(std::size_t i)
{
    if (i < m_wanderX.size()) {
        m_wanderX.erase(m_wanderX.begin() + static_cast<std::ptrdiff_t>(i));
        m_wanderY.erase(m_wanderY.begin() + static_cast<std::ptrdiff_t>(i));
    }
}

} // namespace shoal
