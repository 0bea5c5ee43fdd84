#include "families/fishschool/fishschool.h"
#include "math/fastmath.h"

#include "steering/drive.h"
#include "kernels/lanetrig.h"
#include "kernels/neighbourscan.h"
#include "math/statehash.h"
#include "steering/steering.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

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

using FishReading = ParamReading<FishSchoolParams>;

// Compared in runtime units (float), shown as authored.
const std::array<ParamRule<FishSchoolParams>, 2> kFishRules = {{
    {[](const FishReading& r) { return r.params().keepMinDistance < r.params().keepMaxDistance; },
     [](const FishReading& r) {
         return "keepMinDistance (" + r.text(&FishSchoolParams::keepMinDistance) +
                ") must be less than keepMaxDistance (" +
                r.text(&FishSchoolParams::keepMaxDistance) + ")";
     }},
    {[](const FishReading& r) { return r.params().keepMaxDistance < r.params().neighborRadius; },
     [](const FishReading& r) {
         return "keepMaxDistance (" + r.text(&FishSchoolParams::keepMaxDistance) +
                ") must be less than neighborRadius (" +
                r.text(&FishSchoolParams::neighborRadius) +
                "): neighbours beyond the band could never be seen";
     }},
}};

constexpr float kWallWeight = 2.0f; // feelers beat the band: a school must not pile into walls
// A free fish wanders at most about this far (m) from where it was placed (half a pick radius), so the player
// finds it where the designer put it.
constexpr float kIdleTether = 0.5f;

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
    float mid = 0.0f;         ///< middle of the keep band, m
    bool led = false;         ///< the player leads this school this step
    bool playerResting = false;
    Vec2 playerPosition;
    Vec2 withPlayer;          ///< the wish to match the player's velocity
};

/// School members between their neighbour scan and their drive, one lane each: the scan's
/// sums and the state the drive reads. Members are queued here as their scans finish and
/// steered W at a time (steerMembers), so each square root and division of the steering
/// rules serves W fish.
template <int W>
struct MemberLanes
{
    alignas(16) float x[W], y[W], heading[W], speed[W], room[W];
    alignas(16) float neighbours[W], nearest[W];
    alignas(16) float alignX[W], alignY[W];
    alignas(16) float bandX[W], bandY[W]; ///< the push away (making room) or far offset (closing up)
    alignas(16) float wallX[W], wallY[W];
    alignas(16) std::uint32_t makingRoom[W], closingUp[W]; ///< lane masks: this step's state
    std::uint32_t index[W];
    std::uint8_t flags[W]; ///< with this step's state in kAgentMakingRoom / kAgentClosingUp
    int count = 0;

    /// Fills lanes [count, W) with copies of lane 0, so a part-filled group computes
    /// harmless values in its idle lanes.
    void padIdleLanes()
    {
        for (int l = count; l < W; ++l) {
            for (float* a : {x, y, heading, speed, room, neighbours, nearest, alignX, alignY, bandX, bandY,
                             wallX, wallY})
                a[l] = a[0];
            makingRoom[l] = makingRoom[0];
            closingUp[l] = closingUp[0];
        }
    }
};

/// v scaled down to at most length 1, lane by lane (truncated(v, 1)).
template <class V>
SHOAL_FORCE_INLINE inline void truncateToUnit(V& x, V& y)
{
    const V length2 = x * x + y * y;
    const V scale = select(length2 <= V(1.0f), V(1.0f), V(1.0f) / sqrt(length2));
    x = x * scale;
    y = y * scale;
}

/// The band rule, alignment, following the player and the drive for the queued members
/// (lanes [0, m.count)), written to their next state. Lane for lane the same arithmetic
/// whatever the lane width, so the grid (four lanes) and the reference (one) agree.
template <class V>
void steerMembers(MemberLanes<V::kWidth>& m, const SchoolStep& step, AgentArrays& a)
{
    using Mask = typename V::Mask;
    constexpr int W = V::kWidth;
    const FishSchoolParams& p = *step.params;
    m.padIdleLanes();
    const V zero(0.0f);
    const V keepMax(p.keepMaxDistance);
    const V mid(step.mid);
    const V x = V::load(m.x);
    const V y = V::load(m.y);

    // The band state was decided after the scan (planWith); here its wish. Making room
    // pushes away from the near neighbours; closing up heads for the centre of the far ones
    // (with nobody beyond the middle, that offset and the wish are zero), harder the farther
    // the nearest one is. A fish that sees nobody has no band wish.
    const V neighbours = V::load(m.neighbours);
    const Mask hasNeighbours = neighbours > zero;
    const Mask makingRoom = V::loadMask(m.makingRoom);
    const Mask closingUp = V::loadMask(m.closingUp);
    const V bandX = V::load(m.bandX);
    const V bandY = V::load(m.bandY);
    V keepX = bandX;
    V keepY = bandY;
    if (any(closingUp & hasNeighbours)) { // (a square root and two divisions most steps skip)
        const V band2 = bandX * bandX + bandY * bandY;
        const V closeUp = masked(band2 >= V(1e-12f), V(1.0f) / sqrt(band2)) *
                          clamp01((V::load(m.nearest) - mid) / V(p.keepMaxDistance - step.mid));
        keepX = select(makingRoom, bandX, -(bandX * closeUp));
        keepY = select(makingRoom, bandY, -(bandY * closeUp));
    }
    const Mask keeping = hasNeighbours & (makingRoom | closingUp);
    keepX = masked(keeping, keepX);
    keepY = masked(keeping, keepY);

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
    V directionX = keepX * V(p.keepWeight) + masked(hasNeighbours, alignX * moveWeight);
    V directionY = keepY * V(p.keepWeight) + masked(hasNeighbours, alignY * moveWeight);
    V goal = zero;
    if (step.led) {
        // Swim with the player, and gather toward it unless making room (making room wins,
        // so the school packs to its band around the player, not tighter).
        const V toPlayerX = V(step.playerPosition.x) - x;
        const V toPlayerY = V(step.playerPosition.y) - y;
        goal = sqrt(toPlayerX * toPlayerX + toPlayerY * toPlayerY);
        const V gather =
            V(p.followWeight) * clamp01((goal - keepMax) * V(1.0f / p.keepMaxDistance)) / goal;
        const Mask gathering = andNot(makingRoom, goal > keepMax);
        directionX = directionX + V(step.withPlayer.x) + masked(gathering, toPlayerX * gather);
        directionY = directionY + V(step.withPlayer.y) + masked(gathering, toPlayerY * gather);
    }
    directionX = directionX + V::load(m.wallX);
    directionY = directionY + V::load(m.wallY);

    const V speed = V::load(m.speed);
    const V cruise = speed + (V(p.moveSpeed) - speed) * V(clamp01(p.speedEasing * step.dt));
    const V heading = V::load(m.heading);
    V forwardX, forwardY;
    sinCosLanes(heading, forwardY, forwardX);
    const DriveLanes<V> r =
        driveLanes(heading, forwardX, forwardY, directionX, directionY, cruise, step.drive);

    // The move: free wherever the clearance grid says no wall is within reach (constrainMove's
    // own test, for all lanes at once); the other lanes go through constrainMove one by one.
    const float bodyReach = std::min(p.rayLength, p.radius + 0.05f);
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
        laneBits((roomLeft > zero) & (movedX * movedX + movedY * movedY < roomLeft * roomLeft));
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
    m.count = 0;
}

} // namespace

const std::vector<ParamSpec>& fishSchoolParamSpecs()

{
    static const std::vector<ParamSpec> specs = specsOf(kFishFields);
    return specs;
}

FishSchoolParams fishSchoolParams(const ParamValues& values) { return paramsFrom(kFishFields, values); }

std::optional<Error> checkFishSchoolRelations(const ParamValues& values)
{
    return checkRules(kFishFields, kFishRules, values);
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
           (m_homeX.capacity() + m_homeY.capacity() + m_sortedVx.capacity() + m_sortedVy.capacity() +
            m_memberX.capacity() + m_memberY.capacity()) *
               sizeof(float);
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
    SchoolStep step;
    step.params = &p;
    step.geometry = &geometry;
    step.drive = settings;
    step.dt = dt;
    step.inverseDt = inverseDt;
    step.mid = 0.5f * (p.keepMinDistance + p.keepMaxDistance);
    step.led = led;
    step.playerResting = ctx.player->speed < kStuckSpeed;
    step.playerPosition = playerPos;
    step.withPlayer = withPlayer;
    MemberLanes<V::kWidth> members;

    // Neighbour attributes in cell order (one pass), so the inner loop reads contiguous
    // memory; agents are visited in cell order too, so the clearance grid and the cells stay
    // in cache. The padding past n only feeds lanes that are masked off.
    for (auto* v : {&m_sortedVx, &m_sortedVy, &m_memberX, &m_memberY})
        v->resize(n + kLanePadding, 0.0f);
    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        const bool member = (a.flags[i] & kAgentInSchool) != 0;
        m_memberX[k] = member ? a.px[i] : std::numeric_limits<float>::quiet_NaN();
        m_memberY[k] = member ? a.py[i] : std::numeric_limits<float>::quiet_NaN();
        m_sortedVx[k] = a.vx[i];
        m_sortedVy[k] = a.vy[i];
    }

    for (std::size_t k = 0; k < n; ++k) {
        const std::size_t i = search.sortedIndex(static_cast<std::uint32_t>(k));
        if (i < first)
            continue;
        const Vec2 pos{a.px[i], a.py[i]};
        const float room = geometry.clearance(pos); // one lookup serves the feelers and the move
        const float heading = a.heading[i];
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
            const Vec2 forward = fromAngle(heading);
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
        // rule (v1) needs the nearest distance, how many sit within keepMaxDistance, and
        // either the push away from those nearer than the middle of the band (making room)
        // or the centre of those beyond it (closing up). Only the one the fish's state calls
        // for is summed; a fish whose state changes to the other scans again (rare: states
        // last many steps). No per-neighbour sorting: this loop is most of a step's cost.
        const float keepMin = p.keepMinDistance;
        const float keepMax = p.keepMaxDistance;
        const float mid = step.mid;
        const V vMid2(mid * mid);
        const V vKeepMax2(keepMax * keepMax);
        const V vRepelOverD(mid / keepMin); // the push is (1 - d / mid) * mid / keepMin
        const V vRepelOffset(1.0f / keepMin);
        const V vTouching(kTouchingDistance2);
        const V vFar(std::numeric_limits<float>::max());
        const float* memberX = m_memberX.data();
        const float* neighbourVx = m_sortedVx.data();
        const float* neighbourVy = m_sortedVy.data();
        auto scan = [&](auto bandSum) SHOAL_FORCE_INLINE {
            constexpr BandSum kBand = decltype(bandSum)::value;
            V alignX, alignY, bandX, bandY;
            V nearest2 = vFar;
            typename V::Count neighbourCount, withinKeepMaxCount;
            scanNeighbours(search, memberX, m_memberY.data(), pos, p.neighborRadius,
                           static_cast<std::uint32_t>(k),
                           [&](std::uint32_t slot, V dx, V dy, V d2, Mask in) SHOAL_FORCE_INLINE {
                neighbourCount.add(in);
                alignX += masked(in, V::load(neighbourVx + slot));
                alignY += masked(in, V::load(neighbourVy + slot));
                nearest2 = min(d2 + maskedOff(in, vFar), nearest2); // (a NaN lane, a free fish, loses)
                withinKeepMaxCount.add(in & (d2 <= vKeepMax2));
                if constexpr (kBand == BandSum::FarCentre) {
                    const Mask beyondMid = in & (d2 >= vMid2);
                    bandX += masked(beyondMid, dx);
                    bandY += masked(beyondMid, dy);
                }
                if constexpr (kBand == BandSum::PushAway) {
                    // Away, the harder the closer: (1 - d / mid) * mid / keepMin along the unit
                    // offset, so (dx, dy) times mid / (keepMin d) - 1 / keepMin. Lanes exactly on
                    // top of this fish are left to touchingSplit (nearest2 shows them);
                    // masked-off lanes may divide by zero, which masking turns back into zero.
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
        };
        auto scanFor = [&](BandSum band) SHOAL_FORCE_INLINE {
            if (band == BandSum::PushAway)
                return scan(std::integral_constant<BandSum, BandSum::PushAway>{});
            if (band == BandSum::FarCentre)
                return scan(std::integral_constant<BandSum, BandSum::FarCentre>{});
            return scan(std::integral_constant<BandSum, BandSum::None>{});
        };
        const bool wasMakingRoom = (flags & kAgentMakingRoom) != 0;
        const bool wasClosingUp = (flags & kAgentClosingUp) != 0;
        const BandSum expected = bandSumFor(wasMakingRoom, wasClosingUp);
        MemberScan sums = scanFor(expected);

        // Too close beats too far: while a neighbour is inside keepMinDistance the fish only
        // makes room; otherwise, unless at least half of its nearest neighborCount already sit
        // within keepMaxDistance, it closes up on the far ones. Each, once started, carries on
        // until the nearest neighbour is at the middle of the band (hysteresis), so a school
        // settles inside the band rather than on its edges. Mixing the two, as the seed does,
        // lets the pull of the many far neighbours squeeze the nearest to the inner edge.
        // A fish that sees nobody keeps its state.
        const float nearest = std::sqrt(sums.nearest2);
        bool makingRoom = wasMakingRoom;
        bool closingUp = wasClosingUp;
        if (sums.neighbours > 0) {
            const int watched = std::min(sums.neighbours, static_cast<int>(p.neighborCount));
            makingRoom = wasMakingRoom ? nearest < mid : nearest < keepMin;
            closingUp = !makingRoom && (wasClosingUp ? nearest > mid : 2 * sums.withinKeepMax < watched);
            const BandSum needed = bandSumFor(makingRoom, closingUp);
            if (SHOAL_UNLIKELY(needed != expected && needed != BandSum::None))
                sums.band = scanFor(needed).band;
            if (SHOAL_UNLIKELY(makingRoom && sums.nearest2 < kTouchingDistance2))
                sums.band += touchingSplit(search, pos, static_cast<std::uint32_t>(k),
                                           static_cast<std::uint32_t>(i), ctx.seed, 2,
                                           [&](std::uint32_t slot) { return !std::isnan(memberX[slot]); });
        }
        flags &= static_cast<std::uint8_t>(~(kAgentMakingRoom | kAgentClosingUp));
        flags |= (makingRoom ? kAgentMakingRoom : 0) | (closingUp ? kAgentClosingUp : 0);

        const int l = members.count++;
        members.index[l] = static_cast<std::uint32_t>(i);
        members.flags[l] = flags;
        members.x[l] = pos.x;
        members.y[l] = pos.y;
        members.heading[l] = heading;
        members.speed[l] = a.speed[i];
        members.room[l] = room;
        members.neighbours[l] = static_cast<float>(sums.neighbours);
        members.nearest[l] = nearest;
        members.alignX[l] = sums.align.x;
        members.alignY[l] = sums.align.y;
        members.bandX[l] = sums.band.x;
        members.bandY[l] = sums.band.y;
        members.makingRoom[l] = makingRoom ? ~0u : 0u;
        members.closingUp[l] = closingUp ? ~0u : 0u;
        // Feelers only near geometry (the test feelerAvoidance makes first): the heading's
        // unit vector is otherwise computed four lanes at a time in steerMembers.
        Vec2 wall;
        if (SHOAL_UNLIKELY(!(p.rayLength < room)))
            wall = geometry.feelerAvoidance(pos, fromAngle(heading), p.rayLength, room) * kWallWeight;
        members.wallX[l] = wall.x;
        members.wallY[l] = wall.y;
        if (members.count == V::kWidth)
            steerMembers<V>(members, step, a);
    }
    if (members.count > 0)
        steerMembers<V>(members, step, a);
    for (std::uint32_t i : m_joined)
        a.flags[i] |= kAgentInSchool;
}

} // namespace shoal
