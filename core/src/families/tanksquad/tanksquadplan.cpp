// The tank squad's plan, in the seed's rules: every tank heads for the target, keeps apart
// from and aligns with the tanks within keepDistance (one four-lane scan that also measures
// the room ahead and behind for braking), parks once it reaches the target or touches a
// parked tank nearer it, reverses to a target close behind, and drives with a limited turn
// rate, braking so it stops before it touches the tank in its way.

#include "families/tanksquad/tanksquad.h"

#include "kernels/neighbourscan.h"
#include "math/fastmath.h"
#include "steering/steering.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

// The seed's "target is behind" test: forward dot direction-to-target below this.
constexpr float kBehindDot = -0.2f;

/// What one tank's neighbour scan found.
struct SquadScan
{
    Vec2 keep;                  ///< the push away from the tanks within keepDistance
    Vec2 align;                 ///< sum of their velocities
    float gapAhead = 0.0f;      ///< bumper to bumper to the nearest tank in front, m
    bool parkedAhead = false;   ///< that tank is parked
    float gapBehind = 0.0f;     ///< bumper to bumper to the nearest tank behind, m
    bool touchesParked = false; ///< a parked tank nearer the target touches this one
};

/// One tank as its plan sees it.
struct Tank
{
    std::size_t i = 0;
    std::uint32_t slot = 0; ///< cell-order index
    Vec2 pos;
    Vec2 forward;
    Vec2 target;
    float dist = 0.0f; ///< to the target
};

/// Keep distance (v1) and align (v2) within keepDistance, a lane of neighbours at a time.
/// Also the room in front of and behind the hull (bumper to bumper, m) for braking, whether
/// the nearest tank in front is parked, and (with `checkParked`) whether an arrived member
/// nearer the target touches this one (then this tank has arrived too).
template <class Search>
SHOAL_FORCE_INLINE inline SquadScan
scanSquad(const Search& search, const TankSquadParams& p, const Tank& t, bool checkParked,
          const float* sortedVx, const float* sortedVy, const std::uint32_t* sortedArrived,
          std::uint64_t seed)
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;
    const float keepDistance = p.keepDistance;
    const V one(1.0f);
    const V vInverseKeep(1.0f / keepDistance);
    const V vHull(2.0f * p.radius);
    const V vQuarter(0.25f);
    const V vTouching(kTouchingDistance2);
    const V vZero(0.0f);
    const V forwardX(t.forward.x);
    const V forwardY(t.forward.y);
    const V fromTargetX(t.pos.x - t.target.x);
    const V fromTargetY(t.pos.y - t.target.y);
    const V dist2(t.dist * t.dist);
    V alignX, alignY, keepX, keepY;
    V gapAheadLanes(keepDistance);
    V gapBehindLanes(keepDistance);
    Mask parkedAheadLanes = noLanes<V>();
    Mask arrivedLanes = noLanes<V>();
    Mask touched = noLanes<V>();
    scanNeighbours(search, t.pos, keepDistance, t.slot,
                   [&](std::uint32_t slot, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
                       alignX += masked(in, V::load(sortedVx + slot));
                       alignY += masked(in, V::load(sortedVy + slot));
                       // Lanes exactly on top of this tank are left to touchingSplit.
                       const Mask touching = in & (d2 < vTouching);
                       touched = touched | touching;
                       const Mask pushing = andNot(touching, in);
                       const V d = sqrt(d2); // (near) zero only on lanes the masks drop
                       const V s = (one - d * vInverseKeep) / d;
                       keepX += masked(pushing, dx * s);
                       keepY += masked(pushing, dy * s);
                       // Within 60 degrees of the nose (along > 0: the other is in front) or the
                       // tail.
                       const V along = vZero - (dx * forwardX + dy * forwardY);
                       const Mask cone = pushing & (along * along > vQuarter * d2);
                       const Mask inFront = along > vZero;
                       const V gap = d - vHull;
                       const Mask parked = V::loadMask(sortedArrived + slot);
                       const Mask closerAhead = cone & inFront & (gap < gapAheadLanes);
                       parkedAheadLanes =
                           (closerAhead & parked) | andNot(closerAhead, parkedAheadLanes);
                       gapAheadLanes = select(closerAhead, gap, gapAheadLanes);
                       gapBehindLanes =
                           min(gapBehindLanes, select(andNot(inFront, cone), gap, gapBehindLanes));
                       if (checkParked) {
                           // The other's offset from the target is (pos - target) - (dx, dy).
                           const V ox = fromTargetX - dx;
                           const V oy = fromTargetY - dy;
                           arrivedLanes =
                               arrivedLanes | (pushing & parked & (ox * ox + oy * oy < dist2));
                       }
                   });
    SquadScan out;
    out.keep = {keepX.sum(), keepY.sum()};
    if (SHOAL_UNLIKELY(any(touched)))
        out.keep += touchingSplit(search, t.pos, t.slot, static_cast<std::uint32_t>(t.i), seed, 3,
                                  [](std::uint32_t) { return true; });
    out.align = {alignX.sum(), alignY.sum()};
    // The nearest tank in front: the lane with the smallest gap (the first, on a tie).
    out.gapAhead = keepDistance;
    const int parkedBits = laneBits(parkedAheadLanes);
    for (int l = 0; l < V::kWidth; ++l) {
        if (gapAheadLanes.lane(l) < out.gapAhead) {
            out.gapAhead = gapAheadLanes.lane(l);
            out.parkedAhead = (parkedBits >> l) & 1;
        }
    }
    out.gapBehind = minLane(gapBehindLanes);
    out.touchesParked = any(arrivedLanes);
    return out;
}

/// Whether the tank parks this step: it was parked (and the target stayed), reached the
/// target, touches a parked tank nearer it, has its nose against a parked tank near the
/// squad's parking disc (as close as it gets), or the squad has no target.
SHOAL_FORCE_INLINE inline bool parks(bool wasParked, const SquadScan& scan, const Group& group,
                                     const TankSquadParams& p, float dist, float parkRadius,
                                     bool targetMoved)
{
    return wasParked || scan.touchesParked || (group.hasTarget && dist < p.arriveDistance) ||
           (!targetMoved && scan.parkedAhead && scan.gapAhead < 0.5f && dist < 2.0f * parkRadius) ||
           !group.hasTarget;
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
/// (`targetPull`) plus keeping apart, aligning and the walls; a target close behind is reached
/// by reversing.
SHOAL_FORCE_INLINE inline TankWish tankWish(const TankSquadParams& p,
                                            const StaticGeometry& geometry, const Tank& t,
                                            float room, const SquadScan& scan, Vec2 toTargetDir,
                                            bool arrived, Vec2 targetPull)
{
    TankWish wish;
    if (arrived) {
        wish.flags = kAgentArrived | kAgentAtGoal;
        return wish;
    }
    wish.cruise = p.moveSpeed;
    wish.direction = targetPull;
    wish.direction +=
        scan.keep.normalizedOr({}) * p.keepWeight + scan.align.normalizedOr({}) * p.moveWeight;
    wish.direction +=
        geometry.feelerAvoidance(t.pos, t.forward, p.feelerLength, room) * p.wallWeight;
    if (dot(t.forward, toTargetDir) < kBehindDot && t.dist < p.reverseDistance) {
        wish.reverse = true;
        wish.cruise = -p.moveSpeed * p.reverseSpeed;
        wish.flags = kAgentReversing;
    }
    return wish;
}

/// The drive of one tank to its next state. `direction` and `cruiseGoal` are what its rules
/// want; a parked tank coasts to a stop. The speed is capped so that, braking at
/// speedEasing, the tank stops before it touches a tank in its way (the seed only steers
/// apart, and a fast tank still rams a parked one).
SHOAL_FORCE_INLINE inline void driveTank(AgentArrays& a, const Tank& t, const Group& group,
                                         const TankSquadParams& p, const StaticGeometry& geometry,
                                         const DriveSettings& settings, float dt, float room,
                                         Vec2 direction, float cruiseGoal, bool arrived,
                                         bool reverse, const SquadScan& scan, bool& blocked)
{
    const std::size_t i = t.i;
    const float heading = a.heading[i];
    // a.speed holds the eased cruise speed (signed); the drive scales it per step. A parked
    // tank coasts down from the speed it actually had, not from its cruise speed.
    const float actual = dot(Vec2(a.vx[i], a.vy[i]), t.forward);
    const float cruise = arrived ? ease(actual, 0.0f, p.speedEasing, dt)
                                 : ease(a.speed[i], cruiseGoal, p.speedEasing, dt);
    DriveResult r{heading, t.forward, cruise};
    if (!arrived)
        r = drive(heading, t.forward, direction, cruise, settings, reverse);
    if (r.speed > 0.0f)
        r.speed = std::min(r.speed, std::max(0.0f, scan.gapAhead) * p.speedEasing);
    else if (r.speed < 0.0f)
        r.speed = std::max(r.speed, -std::max(0.0f, scan.gapBehind) * p.speedEasing);
    const Vec2 want = t.pos + r.forward * (r.speed * dt);
    const Vec2 next =
        geometry.constrainMove(t.pos, want, p.radius, WallResponse::Slide, &blocked, room);
    a.nx[i] = next.x;
    a.ny[i] = next.y;
    a.nvx[i] = (next.x - t.pos.x) * (1.0f / dt);
    a.nvy[i] = (next.y - t.pos.y) * (1.0f / dt);
    a.nheading[i] = r.heading;
    a.nspeed[i] = std::fabs(cruise) < 1e-3f ? 0.0f : cruise;
    a.goalDistance[i] = group.hasTarget ? t.dist : 0.0f;
}

} // namespace

void TankSquadBehaviour::plan(Group& group, const StepContext& ctx)
{
    withNeighbourSearch(
        ctx, [&](auto search) { planWith<typename decltype(search)::type>(group, ctx); });
}

template <class Search> void TankSquadBehaviour::planWith(Group& group, const StepContext& ctx)
{
    const Search& search = neighbourSearch<Search>(group);
    AgentArrays& a = group.agents;
    const TankSquadParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const float dt = ctx.dt;
    const DriveSettings settings = driveSettings(p.rotateSpeed, p.turnDeadZone, p.turnSlowdown, dt);
    const std::size_t n = a.size();
    if (m_nextFlags.size() < n)
        m_nextFlags.resize(n);

    // Touching a parked tank parks a tank only inside the disc the whole squad needs around
    // the target (hexagonal packing at keepDistance, with some slack); further out it keeps
    // driving and slides round the parked ones, so a squad parks around its target instead
    // of in a queue along the way it came.
    const float parkRadius =
        p.arriveDistance + 0.6f * p.keepDistance * std::sqrt(static_cast<float>(n));

    // A new target: everybody sets off again.
    const bool targetMoved = group.targetVersion != m_seenTargetVersion;
    m_seenTargetVersion = group.targetVersion;

    // Neighbour attributes in cell order (contiguous reads); agents visited in cell order.
    search.gather(a.vx.data(), m_sortedVx);
    search.gather(a.vy.data(), m_sortedVy);
    search.gather(a.flags.data(), m_sortedArrived,
                  [](std::uint8_t f) { return (f & kAgentArrived) ? ~0u : 0u; });

    for (std::size_t k = 0; k < n; ++k) {
        Tank t;
        t.i = search.sortedIndex(static_cast<std::uint32_t>(k));
        t.slot = static_cast<std::uint32_t>(k);
        const std::size_t i = t.i;
        t.pos = {a.px[i], a.py[i]};
        const float room = geometry.clearance(t.pos); // one lookup serves the feelers and the move
        t.forward = fromAngle(a.heading[i]);
        // Without a target a squad holds where it is.
        t.target = group.hasTarget ? group.target : t.pos;
        const Vec2 toTarget = t.target - t.pos;
        t.dist = toTarget.length();
        const Vec2 toTargetDir = toTarget.normalizedOr(t.forward);
        std::uint8_t flags =
            a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentReversing));
        if (targetMoved)
            flags &= static_cast<std::uint8_t>(~(kAgentArrived | kAgentAtGoal));

        Vec2 direction = toTargetDir * p.targetWeight;
        if (t.dist < p.targetCloseDistance)
            direction *= t.dist / p.targetCloseDistance;
        SquadScan scan =
            scanSquad(search, p, t, !targetMoved && t.dist < parkRadius, m_sortedVx.data(),
                      m_sortedVy.data(), m_sortedArrived.data(), ctx.seed);
        // Other groups' bodies: kept apart from like squad mates, and braked for ahead.
        const OtherBodies others =
            othersNear(ctx, group, t.pos, p.radius, t.forward, p.keepDistance);
        scan.keep += others.away;
        scan.gapAhead = std::min(scan.gapAhead, others.gapAhead);
        const bool arrived = parks(!targetMoved && (a.flags[i] & kAgentArrived), scan, group, p,
                                   t.dist, parkRadius, targetMoved);

        const TankWish wish = tankWish(p, geometry, t, room, scan, toTargetDir, arrived, direction);
        flags |= wish.flags;
        bool blocked = false;
        driveTank(a, t, group, p, geometry, settings, dt, room, wish.direction, wish.cruise,
                  arrived, wish.reverse, scan, blocked);
        // Flags go to a scratch copy: neighbours planning this step must see the old ones.
        m_nextFlags[i] = flags | (blocked ? kAgentBlocked : 0);
    }
    std::copy(m_nextFlags.begin(), m_nextFlags.begin() + static_cast<std::ptrdiff_t>(n),
              a.flags.begin());
}

} // namespace shoal
