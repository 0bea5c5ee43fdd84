// Leader following's plan, in the seed's order: the leader wanders (or a game's target
// draws it), then every follower arrives at the point behind it, keeps apart from its
// fellows and other groups' bodies, gets out of the leader's way ahead of it and off the
// walls, and takes the vehicle step. Followers go a lane group at a time (FollowerLanes):
// each bit for bit what it would be alone.

#include "families/leaderfollow/leaderfollow.h"

#include "kernels/lanes.h"
#include "kernels/lanetrig.h"
#include "kernels/neighbourscan.h"
#include "math/fastmath.h"
#include "steering/steering.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

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

/// Separation's sums for a lane of neighbours at a time: the push away (unweighted), the
/// nearest squared distance, and whether any neighbour sits exactly on top (those part one
/// pair at a time afterwards).
template <class V> struct SeparationSums
{
    using Mask = typename V::Mask;
    V radius;
    V touching{kTouchingDistance2};
    V pushX{0.0f}, pushY{0.0f};
    V nearest;
    Mask touched = noLanes<V>();

    SeparationSums(float separationRadius, float nearest2)
        : radius(separationRadius), nearest(nearest2)
    {
    }
    /// Neighbours at (dx, dy) = p - neighbour, d2 away, on the lanes of `in`.
    SHOAL_FORCE_INLINE void add(V dx, V dy, V d2, Mask in)
    {
        nearest = min(select(in, d2, nearest), nearest);
        touched = touched | (in & (d2 < touching));
        // Masked-off lanes may divide by zero: masking turns them back to 0.
        const Mask pushes = in & (d2 >= touching);
        const V d = sqrt(d2);
        const V s = (radius - d) / (radius * d);
        pushX += masked(pushes, dx * s);
        pushY += masked(pushes, dy * s);
    }
};

/// Separation of follower i (at `self` in the search's slots) from every neighbour, the
/// leader included (the seed only separates followers, so a leader turning into its group
/// walked through them), a lane of neighbours at a time. `nearest2` comes in as the radius
/// squared and leaves as the nearest neighbour's squared distance, if nearer. Neighbours
/// exactly on top of it part along a direction fixed by the pair, the two in opposite ways
/// (rare: one pair at a time, after the lanes).
template <class Search>
SHOAL_FORCE_INLINE inline Vec2 separation(const Search& search, const LeaderFollowParams& p,
                                          std::size_t i, std::uint32_t self, Vec2 pos,
                                          float& nearest2)
{
    using V = typename Search::Lanes;
    SeparationSums<V> sums(p.separationRadius, nearest2);
    scanNeighbours(search, pos, p.separationRadius, self,
                   [&](std::uint32_t, V dx, V dy, V d2, typename V::Mask in)
                       SHOAL_FORCE_INLINE { sums.add(dx, dy, d2, in); });
    nearest2 = minLane(sums.nearest);
    Vec2 push{sums.pushX.sum(), sums.pushY.sum()};
    if (SHOAL_UNLIKELY(any(sums.touched))) {
        search.forEachSlotWithin(pos, 1e-6f, [&](std::uint32_t slot, float, float, float d2) {
            if (slot == self || !(d2 < kTouchingDistance2))
                return;
            const std::size_t j = search.sortedIndex(slot);
            const Vec2 away = fromAngle(2.39996f * static_cast<float>(i + j));
            push += i < j ? away : -away;
        });
    }
    return push * (p.maxSpeed * p.separationWeight);
}

/// separation() of every member of a group of `n` <= LeaderFollowBehaviour::kSmallGroup from
/// every other, in index order: the weighted push into apartX/apartY and the nearest squared
/// distance (from the radius squared) into nearest2 (the leader's, 0, is worked out too and
/// not used). Each pair within the radius is met once: the push one member gets from the
/// other is exactly the negated push the other gets (the offset negates exactly and the
/// distance is the same bits), and pairs go in order of the first member, then the second,
/// so each member's sum adds its neighbours in index order, as a scan of all members would.
/// Most pairs of a group lie beyond the radius: they cost a compare four at a time.
void separationOfSmallGroup(const AgentArrays& a, std::size_t n, const LeaderFollowParams& p,
                            float* apartX, float* apartY, float* nearest2)
{
    using V = Float4;
    constexpr int W = V::kWidth;
    const float radius = p.separationRadius;
    const float radius2 = radius * radius;
    // Room for the last lane group to read past the end (compared, then masked off).
    constexpr std::size_t kRoom = LeaderFollowBehaviour::kSmallGroup + W;
    alignas(16) float xs[kRoom], ys[kRoom];
    std::copy(a.px.data(), a.px.data() + n, xs);
    std::copy(a.py.data(), a.py.data() + n, ys);
    std::fill(xs + n, xs + kRoom, 0.0f);
    std::fill(ys + n, ys + kRoom, 0.0f);
    for (std::size_t i = 0; i < n; ++i) {
        apartX[i] = 0.0f;
        apartY[i] = 0.0f;
        nearest2[i] = radius2;
    }
    std::uint64_t touched = 0; // bit i: some member sits on top of member i
    const V within(radius2);
    for (std::size_t i = 0; i + 1 < n; ++i) {
        const V x(xs[i]), y(ys[i]);
        for (std::size_t from = i + 1; from < n; from += W) {
            const V dx = x - V::load(xs + from);
            const V dy = y - V::load(ys + from);
            int near = laneBits((dx * dx + dy * dy) <= within);
            if (n - from < static_cast<std::size_t>(W))
                near &= (1 << (n - from)) - 1;
            for (; near != 0; near &= near - 1) {
                const std::size_t j = from + static_cast<std::size_t>(__builtin_ctz(near));
                const float ox = xs[i] - xs[j];
                const float oy = ys[i] - ys[j];
                const float d2 = ox * ox + oy * oy;
                nearest2[i] = std::min(d2, nearest2[i]);
                nearest2[j] = std::min(d2, nearest2[j]);
                if (SHOAL_UNLIKELY(d2 < kTouchingDistance2)) {
                    touched |= (std::uint64_t{1} << i) | (std::uint64_t{1} << j);
                    continue;
                }
                const float d = std::sqrt(d2);
                const float s = (radius - d) / (radius * d);
                const float px = ox * s;
                const float py = oy * s;
                apartX[i] += px;
                apartY[i] += py;
                apartX[j] -= px;
                apartY[j] -= py;
            }
        }
    }
    // Members exactly on top of each other part along a direction fixed by the pair, the two
    // in opposite ways, after the pushes (as separation() does).
    for (; touched != 0; touched &= touched - 1) {
        const std::size_t i = static_cast<std::size_t>(__builtin_ctzll(touched));
        for (std::size_t j = 0; j < n; ++j) {
            if (j == i || !(distanceSquared({xs[i], ys[i]}, {xs[j], ys[j]}) < kTouchingDistance2))
                continue;
            const Vec2 away = fromAngle(2.39996f * static_cast<float>(i + j));
            apartX[i] += i < j ? away.x : -away.x;
            apartY[i] += i < j ? away.y : -away.y;
        }
    }
    const float weight = p.maxSpeed * p.separationWeight;
    for (std::size_t i = 0; i < n; ++i) {
        apartX[i] *= weight;
        apartY[i] *= weight;
    }
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

/// Followers planned a lane group at a time. What each needs looked up on its own (its
/// clearance, the wall test, the grid scan for separation, other groups' bodies, the
/// feelers, the way round walls) is asked lane by lane in index order; the arithmetic of
/// arriving, forces and the vehicle step runs on all lanes at once, operation for operation
/// what planWhole's scalar rules did, so every follower ends exactly where it would alone.
template <class V> struct FollowerLanes
{
    static constexpr int W = V::kWidth;
    int count = 0;
    std::uint32_t index[W];
    std::uint32_t slot[W]; ///< in the neighbour search
    alignas(16) float x[W], y[W], vx[W], vy[W], heading[W];
    alignas(16) float desiredX[W], desiredY[W]; ///< arrive's wish, or the route's
    alignas(16) float apartX[W], apartY[W];     ///< separation, weighted
    alignas(16) float giveWayX[W], giveWayY[W]; ///< other groups' bodies, weighted
    alignas(16) float evadeX[W], evadeY[W];     ///< evasion (lanes in the zone)
    alignas(16) float wallX[W], wallY[W];       ///< the feelers, weighted
    alignas(16) float room[W];                  ///< clearance where it is
    alignas(16) std::uint32_t evades[W];        ///< lane masks: in the evade zone

    /// Lanes [count, W) copy lane 0, so a part-filled group computes harmless values there.
    void padIdleLanes()
    {
        for (int l = count; l < W; ++l) {
            for (float* v : {x, y, vx, vy, heading, desiredX, desiredY, apartX, apartY, giveWayX,
                             giveWayY, evadeX, evadeY, wallX, wallY, room})
                v[l] = v[0];
            evades[l] = evades[0];
        }
    }
};

/// forwardOf() of each lane: the velocity's direction, or the heading's below kTinySpeed.
template <class V> SHOAL_FORCE_INLINE inline void forwardLanes(V vx, V vy, V heading, V& fx, V& fy)
{
    const V length2 = vx * vx + vy * vy;
    const typename V::Mask moving = length2 > V(kTinySpeed * kTinySpeed);
    // normalizedOr's fallback is never taken above kTinySpeed.
    const V inverse = V(1.0f) / sqrt(length2);
    fx = vx * inverse;
    fy = vy * inverse;
    if (laneBits(moving) != (1 << V::kWidth) - 1) {
        V sine, cosine;
        sinCosLanes(heading, sine, cosine);
        fx = select(moving, fx, cosine);
        fy = select(moving, fy, sine);
    }
}

/// clamp01() of each lane (a NaN stays NaN, as there).
template <class V> SHOAL_FORCE_INLINE inline V clamp01Lanes(V v)
{
    return select(v < V(0.0f), V(0.0f), select(v > V(1.0f), V(1.0f), v));
}

/// truncated() of each lane.
template <class V> SHOAL_FORCE_INLINE inline void truncateLanes(V& x, V& y, float maxLength)
{
    const V length2 = x * x + y * y;
    const typename V::Mask within = length2 <= V(maxLength * maxLength);
    const V scale = V(maxLength) / sqrt(length2);
    x = select(within, x, x * scale);
    y = select(within, y, y * scale);
}

/// Each lane's value run through `f` where `use` is set (a rare case kept scalar).
template <class V, class F> SHOAL_FORCE_INLINE inline V patchLanes(V v, typename V::Mask use, F&& f)
{
    const int bits = laneBits(use);
    if (!SHOAL_UNLIKELY(bits != 0))
        return v;
    alignas(16) float values[V::kWidth];
    v.store(values);
    for (int l = 0; l < V::kWidth; ++l)
        if ((bits >> l) & 1)
            values[l] = f(values[l]);
    return V::load(values);
}

/// arrive() toward `point` for each lane: the desired velocity, and the distance.
template <class V>
SHOAL_FORCE_INLINE inline void arriveLanes(V x, V y, Vec2 point, float maxSpeed,
                                           float slowingRadius, float* desiredX, float* desiredY,
                                           float* distance)
{
    const V offX = V(point.x) - x;
    const V offY = V(point.y) - y;
    const V d = sqrt(offX * offX + offY * offY);
    const V speed =
        slowingRadius > 1e-5f ? V(maxSpeed) * clamp01Lanes(d / V(slowingRadius)) : V(maxSpeed);
    const V toSpeed = speed / d;
    const typename V::Mask there = d < V(1e-5f);
    maskedOff(there, offX * toSpeed).store(desiredX);
    maskedOff(there, offY * toSpeed).store(desiredY);
    d.store(distance);
}

/// Where the vehicle step takes a lane group of followers.
template <int W> struct VehicleMove
{
    alignas(16) float endX[W], endY[W];
    alignas(16) float velocityX[W], velocityY[W];
    alignas(16) float heading[W], speed[W];
    int blockedLanes = 0; ///< bit l: a wall cut lane l's move
};

/// LeaderFollowBehaviour::integrate() for the followers of `q` under (forceX, forceY):
/// applySteeringForce, the move (lanes whose move may come near a wall go through
/// constrainMove itself, which keeps only the velocity the walls allowed), and the heading
/// eased toward the velocity, wrapped only where it left (-pi, pi] (rare: fmod would be a
/// measurable share of a step).
template <class V>
SHOAL_FORCE_INLINE inline void
vehicleStepLanes(const FollowerLanes<V>& q, V forceX, V forceY, const LeaderFollowParams& p,
                 const StaticGeometry* geometry, float dt, VehicleMove<V::kWidth>& out)
{
    constexpr int W = V::kWidth;
    const V x = V::load(q.x);
    const V y = V::load(q.y);
    const V heading = V::load(q.heading);
    truncateLanes(forceX, forceY, p.maxForce);
    const V mass(p.mass > 1e-5f ? p.mass : 1e-5f);
    V velX = V::load(q.vx) + forceX / mass * V(dt);
    V velY = V::load(q.vy) + forceY / mass * V(dt);
    truncateLanes(velX, velY, p.maxSpeed);
    const V wantX = x + velX * V(dt);
    const V wantY = y + velY * V(dt);
    wantX.store(out.endX);
    wantY.store(out.endY);
    out.blockedLanes = 0;
    if (geometry) {
        // constrainMove's own test for a move that stays clear of every wall.
        const V reach = V::load(q.room) - V(StaticGeometry::moveReach(p.radius));
        const V moveX = x - wantX;
        const V moveY = y - wantY;
        const int freeLanes =
            laneBits((reach > V(0.0f)) & (moveX * moveX + moveY * moveY < reach * reach));
        if (SHOAL_UNLIKELY(freeLanes != (1 << W) - 1)) {
            velX.store(out.velocityX);
            velY.store(out.velocityY);
            for (int l = 0; l < q.count; ++l) {
                if ((freeLanes >> l) & 1)
                    continue;
                const Vec2 pos{q.x[l], q.y[l]};
                bool blocked = false;
                const Vec2 end = geometry->constrainMove(pos, {out.endX[l], out.endY[l]}, p.radius,
                                                         WallResponse::Slide, &blocked, q.room[l]);
                out.endX[l] = end.x;
                out.endY[l] = end.y;
                if (blocked) {
                    out.blockedLanes |= 1 << l;
                    out.velocityX[l] = (end.x - pos.x) / dt;
                    out.velocityY[l] = (end.y - pos.y) / dt;
                }
            }
            velX = V::load(out.velocityX);
            velY = V::load(out.velocityY);
        }
    }
    const V speed = sqrt(velX * velX + velY * velY);
    const typename V::Mask moving = speed > V(kTinySpeed);
    const V half(kPi);
    V turn = atan2Lanes(velY, velX) - heading;
    turn = patchLanes(turn, moving & ((turn > half) | (turn < -half)), wrapAngle);
    V turned = heading + turn * V(clamp01(p.damping * dt));
    turned = patchLanes(turned, moving & ((turned > half) | (turned <= -half)), wrapAngle);
    select(moving, turned, heading).store(out.heading);
    speed.store(out.speed);
    velX.store(out.velocityX);
    velY.store(out.velocityY);
}

} // namespace

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
        // Round the walls in the way along a field of the whole level (aimed and computed
        // before the plans: aimRoutes), then arriving.
        if (ctx.geometry)
            m_leaderRoute.update(*ctx.geometry, p.radius, group.target);
        const FlowRoute::Cells route = m_leaderRoute.cells();
        int cell = 0;
        desired = ctx.geometry && route.bends(leaderPos, cell)
                      ? route.direction(cell) * leaderMax
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

void LeaderFollowBehaviour::aimRoutes(Group& group, const StepContext& ctx,
                                      std::vector<FlowField*>& aimed)
{
    // As wander() updates the leader's route in the plan (which runs on the step's threads,
    // where no route may look for other routes' fields): it then finds the field ready.
    const AgentArrays& a = group.agents;
    if (!group.playerLed && group.hasTarget && ctx.geometry && a.size() > 0)
        m_leaderRoute.update(*ctx.geometry, m_params.radius, group.target, &aimed,
                             FlowRoute::Cover::bodies(a.px.data(), a.py.data(), 1));
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

    using V = Float4;
    constexpr int W = V::kWidth;
    using Mask = V::Mask;
    const float dt = ctx.dt;
    const float giveWayWeight = p.maxSpeed * p.separationWeight;
    const float wallWeight = p.maxSpeed * p.wallWeight;
    FollowerLanes<V> q;
    alignas(16) float straight[W], forwardX[W], forwardY[W], nearest2[W];
    const bool smallGroup = n <= kSmallGroup;
    alignas(16) float arrivingX[W], arrivingY[W], forceX[W], forceY[W];
    // A small group's separation, every member at once (separationOfSmallGroup).
    float smallApartX[kSmallGroup], smallApartY[kSmallGroup], smallNearest2[kSmallGroup];
    if (smallGroup)
        separationOfSmallGroup(a, n, p, smallApartX, smallApartY, smallNearest2);
    withNeighbourSearch(ctx, [&](auto tag) {
        using Search = typename decltype(tag)::type;
        const Search& search = neighbourSearch<Search>(group);
        // Followers in the search's slot order (the leader's slot is skipped), so a lane group's
        // neighbours are near each other in memory; a small group's in index order (it is
        // all in the cache, and the order changes no follower's plan).
        for (std::uint32_t k = 0; k < n;) {
            q.count = 0;
            for (; k < n && q.count < W; ++k) {
                const std::uint32_t i = smallGroup ? k : search.sortedIndex(k);
                if (i == 0)
                    continue;
                q.slot[q.count] = k;
                q.index[q.count++] = i;
            }
            if (q.count == 0)
                break;
            // Idle lanes repeat the last follower.
            for (int l = 0; l < W; ++l) {
                const int from = std::min(l, q.count - 1);
                q.slot[l] = q.slot[from];
                q.index[l] = q.index[from];
                const std::size_t i = q.index[l];
                q.x[l] = a.px[i];
                q.y[l] = a.py[i];
                q.vx[l] = a.vx[i];
                q.vy[l] = a.vy[i];
                q.heading[l] = a.heading[i];
            }
            const V x = V::load(q.x);
            const V y = V::load(q.y);
            const V vx = V::load(q.vx);
            const V vy = V::load(q.vy);
            const V heading = V::load(q.heading);

            // Arriving at the point behind; its distance is the follower's straight distance.
            arriveLanes(x, y, leader.behind, p.maxSpeed, p.slowingRadius, q.desiredX, q.desiredY,
                        straight);
            V fx, fy;
            forwardLanes(vx, vy, heading, fx, fy);
            fx.store(forwardX);
            fy.store(forwardY);

            if (smallGroup) {
                for (int l = 0; l < W; ++l) {
                    q.apartX[l] = smallApartX[q.index[l]];
                    q.apartY[l] = smallApartY[q.index[l]];
                    nearest2[l] = smallNearest2[q.index[l]];
                }
            }

            // One by one: what each follower looks up.
            for (int l = 0; l < q.count; ++l) {
                const std::size_t i = q.index[l];
                const Vec2 pos{q.x[l], q.y[l]};
                const Vec2 vel{q.vx[l], q.vy[l]};
                // One clearance look-up serves the wall test, the feelers and the move.
                const float room = geometry ? geometry->clearance(pos) : 0.0f;
                group.startClearance[i] = room;
                q.room[l] = room;
                spread = std::max(spread, straight[l]);
                // Each follower is asked every kWallTestSteps steps, the nearer ones never.
                if (pointOnLevel && !wallBetween && i % kWallTestSteps == testTurn &&
                    room < straight[l] && room + behindRoom <= straight[l])
                    wallBetween = geometry->segmentCrosses(pos, leader.behind);
                if (m_route.bends(pos)) {
                    // Behind a wall from the point: round it, slowing only near the point.
                    const float way = m_route.pathDistance(pos);
                    const Vec2 desired = m_route.direction(pos) *
                                         (p.maxSpeed * std::min(1.0f, way / p.slowingRadius));
                    q.desiredX[l] = desired.x;
                    q.desiredY[l] = desired.y;
                }
                // The nearest fellow seen, for the body pass (none: at least the radius away).
                if (!smallGroup) {
                    nearest2[l] = p.separationRadius * p.separationRadius;
                    const Vec2 apart = separation(search, p, i, q.slot[l], pos, nearest2[l]);
                    q.apartX[l] = apart.x;
                    q.apartY[l] = apart.y;
                }
                const Vec2 forward{forwardX[l], forwardY[l]};
                // Other groups' bodies: kept apart from like fellow followers.
                float othersBeyond2 = 0.0f;
                const Vec2 giveWay =
                    othersNear(ctx, group, pos, p.radius, forward, 0.0f, &othersBeyond2).away *
                    giveWayWeight;
                q.giveWayX[l] = giveWay.x;
                q.giveWayY[l] = giveWay.y;
                group.startNearest2[i] = std::min(nearest2[l], othersBeyond2);
                const bool evades = evade2 > 0.0f && distanceSquared(pos, leader.ahead) < evade2;
                const Vec2 evading = evades ? evasion(p, leader, i, pos, vel) : Vec2{};
                q.evades[l] = evades ? ~0u : 0u;
                q.evadeX[l] = evading.x;
                q.evadeY[l] = evading.y;
                const Vec2 walls =
                    geometry
                        ? geometry->feelerAvoidance(pos, forward, p.feelerLength, room) * wallWeight
                        : Vec2{};
                q.wallX[l] = walls.x;
                q.wallY[l] = walls.y;
            }
            q.padIdleLanes();

            // The forces: (arriving + apart + give way), then evading and the walls.
            const V arrivingLaneX = (V::load(q.desiredX) - vx) * V(p.arriveWeight);
            const V arrivingLaneY = (V::load(q.desiredY) - vy) * V(p.arriveWeight);
            V forceLaneX = arrivingLaneX + V::load(q.apartX) + V::load(q.giveWayX);
            V forceLaneY = arrivingLaneY + V::load(q.apartY) + V::load(q.giveWayY);
            const Mask evading = V::loadMask(q.evades);
            forceLaneX = select(evading, forceLaneX + V::load(q.evadeX), forceLaneX);
            forceLaneY = select(evading, forceLaneY + V::load(q.evadeY), forceLaneY);
            if (geometry) {
                forceLaneX = forceLaneX + V::load(q.wallX);
                forceLaneY = forceLaneY + V::load(q.wallY);
            }
            if (ctx.inspection) {
                arrivingLaneX.store(arrivingX);
                arrivingLaneY.store(arrivingY);
                forceLaneX.store(forceX);
                forceLaneY.store(forceY);
            }

            // integrate(): the vehicle step, the walls' cut, the heading's easing.
            VehicleMove<W> move;
            vehicleStepLanes(q, forceLaneX, forceLaneY, p, geometry, dt, move);
            for (int l = 0; l < q.count; ++l) {
                const std::size_t i = q.index[l];
                a.nx[i] = move.endX[l];
                a.ny[i] = move.endY[l];
                a.nvx[i] = move.velocityX[l];
                a.nvy[i] = move.velocityY[l];
                a.nheading[i] = move.heading[l];
                a.nspeed[i] = move.speed[l];
                std::uint8_t flags = a.flags[i];
                flags = ((move.blockedLanes >> l) & 1)
                            ? flags | kAgentBlocked
                            : flags & static_cast<std::uint8_t>(~kAgentBlocked);
                flags = straight[l] < atGoalRadius
                            ? flags | kAgentAtGoal
                            : flags & static_cast<std::uint8_t>(~kAgentAtGoal);
                a.flags[i] = flags;
                a.goalDistance[i] = straight[l];
                if (ctx.inspection && ctx.inspection->wants(group.index, a.id[i])) {
                    Inspection& seen = *ctx.inspection;
                    seen.begin(ctx.step, "N");
                    seen.add("arrive", {arrivingX[l], arrivingY[l]});
                    seen.add("separation", {q.apartX[l], q.apartY[l]});
                    seen.add("give way", {q.giveWayX[l], q.giveWayY[l]});
                    seen.add("evade", {q.evadeX[l], q.evadeY[l]});
                    seen.add("walls", {q.wallX[l], q.wallY[l]});
                    seen.wanted = {forceX[l], forceY[l]};
                    seen.planned = {move.velocityX[l], move.velocityY[l]};
                }
            }
        }
    });
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

} // namespace shoal
