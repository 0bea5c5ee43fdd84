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
