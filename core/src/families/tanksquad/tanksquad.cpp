#include "families/tanksquad/tanksquad.h"
#include "math/fastmath.h"

#include "kernels/neighbourscan.h"
#include "steering/steering.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

using F = ParamField<TankSquadParams>;

const F kTankFields[] = {
    {{"moveSpeed", "Move speed", "m/s", 0.1, 30.0, 0.1, 5.0,
      "Top speed of a tank (the seed's moveSpeed 5)."},
     &TankSquadParams::moveSpeed},
    {{"rotateSpeed", "Turn rate", "deg/s", 5.0, 720.0, 5.0, 90.0,
      "Most a tank turns per second. Low values make wide arcs; tanks that cannot turn tightly "
      "enough to reach a target near them reverse instead."},
     &TankSquadParams::rotateSpeed, ParamScale::Degrees},
    {{"targetWeight", "Target weight", "", 0.0, 5.0, 0.05, 1.25,
      "Pull toward the squad target against keeping distance and aligning (the seed's 1.25). "
      "Higher: a direct, crowded approach; lower: a loose formation that drifts."},
     &TankSquadParams::targetWeight},
    {{"targetCloseDistance", "Slow-down distance", "m", 0.1, 200.0, 0.5, 20.0,
      "Inside this distance the pull toward the target, and with it the speed, scales down "
      "linearly: tanks brake as they arrive (the seed's 20)."},
     &TankSquadParams::targetCloseDistance},
    {{"arriveDistance", "Arrive distance", "m", 0.1, 100.0, 0.1, 3.0,
      "A tank this close to the target has arrived and eases to a stop; so does a tank that "
      "touches an arrived one nearer the target, so the squad parks around it."},
     &TankSquadParams::arriveDistance},
    {{"keepDistance", "Keep distance", "m", 0.1, 100.0, 0.1, 6.0,
      "Members closer than this push apart and count as neighbours for alignment (the seed's "
      "10). Must exceed two body radii."},
     &TankSquadParams::keepDistance},
    {{"keepWeight", "Keep weight", "", 0.0, 5.0, 0.05, 1.0,
      "How hard members avoid each other. Higher spreads the squad; lower lets it bunch up."},
     &TankSquadParams::keepWeight},
    {{"moveWeight", "Align weight", "", 0.0, 5.0, 0.05, 0.8,
      "How much a tank copies its neighbours' movement. Higher: a column that moves as one."},
     &TankSquadParams::moveWeight},
    {{"speedEasing", "Speed easing", "1/s", 0.1, 20.0, 0.1, 2.0,
      "How fast speed eases toward its goal (the seed's lerp factor 2). Low: heavy tanks."},
     &TankSquadParams::speedEasing},
    {{"turnDeadZone", "Turn dead zone", "deg", 0.0, 45.0, 0.5, 11.5,
      "No turning while the wanted direction is within this angle: the seed's anti-shake."},
     &TankSquadParams::turnDeadZone, ParamScale::Degrees},
    {{"turnSlowdown", "Turn slowdown", "", 0.0, 1.0, 0.05, 0.8,
      "Share of speed lost while turning hard (the seed's 0.8)."},
     &TankSquadParams::turnSlowdown},
    {{"reverseDistance", "Reverse distance", "m", 0.0, 100.0, 0.5, 15.0,
      "A target behind the tank (forward dot below -0.2) and closer than this is reached by "
      "backing up instead of a U-turn. 0 never reverses."},
     &TankSquadParams::reverseDistance},
    {{"reverseSpeed", "Reverse speed", "", 0.05, 1.0, 0.05, 0.6,
      "Backing-up speed as a share of moveSpeed."},
     &TankSquadParams::reverseSpeed},
    {{"feelerLength", "Feeler length", "m", 0.0, 20.0, 0.1, 4.0,
      "Feelers ahead that steer a tank off walls. Longer: earlier, smoother avoidance and more "
      "ray casts."},
     &TankSquadParams::feelerLength},
    {{"wallWeight", "Wall weight", "", 0.0, 10.0, 0.1, 2.0,
      "How hard the feelers steer away from walls against the pull to the target."},
     &TankSquadParams::wallWeight},
    {{"radius", "Body radius", "m", 0.1, 10.0, 0.1, 1.5,
      "Half the size of a tank: its clearance from walls and the overlap metric."},
     &TankSquadParams::radius},
};

using TankReading = ParamReading<TankSquadParams>;

// Compared in runtime units (float), shown as authored.
const std::array<ParamRule<TankSquadParams>, 1> kTankRules = {{
    {[](const TankReading& r) { return r.params().keepDistance > 2.0f * r.params().radius; },
     [](const TankReading& r) {
         return "keepDistance (" + r.text(&TankSquadParams::keepDistance) +
                ") must exceed two body radii (2 x " + r.text(&TankSquadParams::radius) +
                "): tanks would overlap before they push apart";
     }},
}};

// The seed's "target is behind" test: forward dot direction-to-target below this.
constexpr float kBehindDot = -0.2f;

} // namespace

const std::vector<ParamSpec>& tankSquadParamSpecs()
{
    static const std::vector<ParamSpec> specs = specsOf(kTankFields);
    return specs;
}

TankSquadParams tankSquadParams(const ParamValues& values) { return paramsFrom(kTankFields, values); }

std::optional<Error> checkTankSquadRelations(const ParamValues& values)
{
    return checkRules(kTankFields, kTankRules, values);
}

void TankSquadBehaviour::setParams(const ParamValues& values) { m_params = paramsFrom(kTankFields, values); }

void TankSquadBehaviour::plan(Group& group, const StepContext& ctx)
{
    if (ctx.search == NeighbourSearch::Grid)
        planWith<UniformGrid>(group, ctx);
    else
        planWith<BruteForceNeighbours>(group, ctx);
}

template <class Search>
void TankSquadBehaviour::planWith(Group& group, const StepContext& ctx)
{
    using V = typename Search::Lanes;
    using Mask = typename V::Mask;
    const Search& search = neighbourSearch<Search>(group);
    AgentArrays& a = group.agents;
    const TankSquadParams& p = m_params;
    const StaticGeometry& geometry = *ctx.geometry;
    const float dt = ctx.dt;
    const float inverseDt = 1.0f / dt;
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
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        const Vec2 pos{a.px[i], a.py[i]};
        const float room = geometry.clearance(pos); // one lookup serves the feelers and the move
        const float heading = a.heading[i];
        const Vec2 forward = fromAngle(heading);
        // Without a target a squad holds where it is.
        const Vec2 target = group.hasTarget ? group.target : pos;
        const Vec2 toTarget = target - pos;
        const float dist = toTarget.length();
        const Vec2 toTargetDir = toTarget.normalizedOr(forward);
        std::uint8_t flags = a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentReversing));
        if (targetMoved)
            flags &= static_cast<std::uint8_t>(~(kAgentArrived | kAgentAtGoal));
        bool arrived = !targetMoved && (a.flags[i] & kAgentArrived);

        Vec2 direction = toTargetDir * p.targetWeight;
        if (dist < p.targetCloseDistance)
            direction *= dist / p.targetCloseDistance;

        // Keep distance (v1) and align (v2) within keepDistance; touching an arrived member
        // that is nearer the target means this tank has arrived too.
        const float keepDistance = p.keepDistance;
        // Keep distance (v1) and align (v2) within keepDistance, a lane of neighbours at a
        // time. Also the room in front of and behind the hull (bumper to bumper, m) for
        // braking, whether the nearest tank in front is parked, and whether an arrived
        // member nearer the target touches this one (then this tank has arrived too).
        const bool checkParked = !targetMoved && dist < parkRadius;
        const V one(1.0f);
        const V vInverseKeep(1.0f / keepDistance);
        const V vHull(2.0f * p.radius);
        const V vQuarter(0.25f);
        const V vTouching(kTouchingDistance2);
        const V vZero(0.0f);
        const V forwardX(forward.x);
        const V forwardY(forward.y);
        const V fromTargetX(pos.x - target.x);
        const V fromTargetY(pos.y - target.y);
        const V dist2(dist * dist);
        V alignX, alignY, keepX, keepY;
        V gapAheadLanes(keepDistance);
        V gapBehindLanes(keepDistance);
        Mask parkedAheadLanes = noLanes<V>();
        Mask arrivedLanes = noLanes<V>();
        Mask touched = noLanes<V>();
        scanNeighbours(search, pos, keepDistance, static_cast<std::uint32_t>(k),
                       [&](std::uint32_t slot, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
            alignX += masked(in, V::load(m_sortedVx.data() + slot));
            alignY += masked(in, V::load(m_sortedVy.data() + slot));
            // Lanes exactly on top of this tank are left to touchingSplit.
            const Mask touching = in & (d2 < vTouching);
            touched = touched | touching;
            const Mask pushing = andNot(touching, in);
            const V d = sqrt(d2); // (near) zero only on lanes the masks drop
            const V s = (one - d * vInverseKeep) / d;
            keepX += masked(pushing, dx * s);
            keepY += masked(pushing, dy * s);
            // Within 60 degrees of the nose (along > 0: the other is in front) or the tail.
            const V along = vZero - (dx * forwardX + dy * forwardY);
            const Mask cone = pushing & (along * along > vQuarter * d2);
            const Mask inFront = along > vZero;
            const V gap = d - vHull;
            const Mask parked = V::loadMask(m_sortedArrived.data() + slot);
            const Mask closerAhead = cone & inFront & (gap < gapAheadLanes);
            parkedAheadLanes = (closerAhead & parked) | andNot(closerAhead, parkedAheadLanes);
            gapAheadLanes = select(closerAhead, gap, gapAheadLanes);
            gapBehindLanes = min(gapBehindLanes, select(andNot(inFront, cone), gap, gapBehindLanes));
            if (checkParked) {
                // The other's offset from the target is (pos - target) - (dx, dy).
                const V ox = fromTargetX - dx;
                const V oy = fromTargetY - dy;
                arrivedLanes = arrivedLanes | (pushing & parked & (ox * ox + oy * oy < dist2));
            }
        });
        Vec2 keep{keepX.sum(), keepY.sum()};
        if (SHOAL_UNLIKELY(any(touched)))
            keep += touchingSplit(search, pos, static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i), ctx.seed, 3,
                                  [](std::uint32_t) { return true; });
        const Vec2 align{alignX.sum(), alignY.sum()};
        // The nearest tank in front: the lane with the smallest gap (the first, on a tie).
        float gapAhead = keepDistance;
        bool parkedAhead = false;
        const int parkedBits = laneBits(parkedAheadLanes);
        for (int l = 0; l < V::kWidth; ++l) {
            if (gapAheadLanes.lane(l) < gapAhead) {
                gapAhead = gapAheadLanes.lane(l);
                parkedAhead = (parkedBits >> l) & 1;
            }
        }
        const float gapBehind = minLane(gapBehindLanes);
        if (any(arrivedLanes))
            arrived = true;
        if (group.hasTarget && dist < p.arriveDistance)
            arrived = true;
        // Nose against a parked tank near the squad's parking disc: this is as close as it gets.
        if (!targetMoved && parkedAhead && gapAhead < 0.5f && dist < 2.0f * parkRadius)
            arrived = true;
        if (!group.hasTarget)
            arrived = true;

        float cruiseGoal = p.moveSpeed;
        bool reverse = false;
        if (arrived) {
            // Parked: no more steering, ease to a stop. This is what ends the orbiting and
            // jostling of the seed, where separation kept every tank driving forever.
            direction = {};
            cruiseGoal = 0.0f;
            flags |= kAgentArrived | kAgentAtGoal;
        } else {
            direction += keep.normalizedOr({}) * p.keepWeight + align.normalizedOr({}) * p.moveWeight;
            direction += geometry.feelerAvoidance(pos, forward, p.feelerLength, room) * p.wallWeight;
            if (dot(forward, toTargetDir) < kBehindDot && dist < p.reverseDistance) {
                reverse = true;
                cruiseGoal = -p.moveSpeed * p.reverseSpeed;
                flags |= kAgentReversing;
            }
        }

        // a.speed holds the eased cruise speed (signed); the drive scales it per step. A parked
        // tank coasts down from the speed it actually had, not from its cruise speed.
        const float actual = dot(Vec2(a.vx[i], a.vy[i]), forward);
        const float cruise = arrived ? ease(actual, 0.0f, p.speedEasing, dt)
                                     : ease(a.speed[i], cruiseGoal, p.speedEasing, dt);
        DriveResult r{heading, forward, cruise};
        if (!arrived)
            r = drive(heading, forward, direction, cruise, settings, reverse);
        // Keep distance also means not driving into a tank in the way: the speed is capped so
        // that, braking at speedEasing, the tank stops before it touches (the seed only
        // steers apart, and a fast tank still rams a parked one).
        if (r.speed > 0.0f)
            r.speed = std::min(r.speed, std::max(0.0f, gapAhead) * p.speedEasing);
        else if (r.speed < 0.0f)
            r.speed = std::max(r.speed, -std::max(0.0f, gapBehind) * p.speedEasing);
        bool blocked = false;
        const Vec2 want = pos + r.forward * (r.speed * dt);
        const Vec2 next = geometry.constrainMove(pos, want, p.radius, WallResponse::Slide, &blocked, room);
        a.nx[i] = next.x;
        a.ny[i] = next.y;
        a.nvx[i] = (next.x - pos.x) * inverseDt;
        a.nvy[i] = (next.y - pos.y) * inverseDt;
        a.nheading[i] = r.heading;
        a.nspeed[i] = std::fabs(cruise) < 1e-3f ? 0.0f : cruise;
        a.goalDistance[i] = group.hasTarget ? dist : 0.0f;
        // Flags go to a scratch copy: neighbours planning this step must see the old ones.
        m_nextFlags[i] = flags | (blocked ? kAgentBlocked : 0);
    }
    std::copy(m_nextFlags.begin(), m_nextFlags.begin() + static_cast<std::ptrdiff_t>(n), a.flags.begin());
}

} // namespace shoal
