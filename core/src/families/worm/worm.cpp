#include "families/worm/worm.h"
#include "math/fastmath.h"

#include "math/statehash.h"
#include "world/spawnoccupancy.h"
#include "world/statebytes.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_map>

namespace shoal {

namespace {

using F = ParamField<WormParams>;

// clang-format off
const F kWormFields[] = {
    {{"speed", "Speed", "m/s", 0.1, 20.0, 0.1, 2.5,
      "How fast the head crawls. A worm never stops on its own (the article's is an endless "
      "runner); only a wall halts it. Faster worms travel further between joints' "
      "decisions, so they answer the pointer a little later."},
     &WormParams::speed},
    {{"length", "Length", "m", 0.2, 200.0, 0.1, 6.0,
      "Body length from head to tail; every coin eaten adds growthPerCoin. The head segment "
      "grows as fast as the tail segment shrinks, so it stays constant otherwise. Longer "
      "bodies hold more joints: memory and time grow with length / minSegmentLength."},
     &WormParams::length},
    {{"width", "Width", "m", 0.05, 5.0, 0.05, 0.6,
      "Width of the ribbon drawn along the body; the head keeps width / 2 from every "
      "surface, corners and wall ends included. A wider worm needs minSegmentLength of at "
      "least width x tan(maxTurnAngle / 2), or its mitred joints would fold over each "
      "other."},
     &WormParams::width},
    {{"minSegmentLength", "Min segment length", "m", 0.02, 20.0, 0.01, 0.5,
      "The head segment must be this long before the worm may turn again: the spacing of "
      "joints. Short segments with a small maxTurnAngle make the article's smooth snake; "
      "long ones make an angular worm that answers the pointer later. Turning radius is "
      "about minSegmentLength / (2 sin(maxTurnAngle / 2))."},
     &WormParams::minSegmentLength},
    {{"maxTurnAngle", "Max turn per joint", "deg", 1.0, 90.0, 1.0, 30.0,
      "The sharpest bend at one joint. A sharper turn is split into transition segments, "
      "one joint per minSegmentLength of travel. 10-15 with short segments looks rounded "
      "(the article's advice); 90 gives square corners. At most 90, the article's limit, so "
      "a mitre never sticks out more than width / sqrt(2)."},
     &WormParams::maxTurnAngle, ParamScale::Degrees},
    {{"growthPerCoin", "Growth per coin", "m", 0.0, 20.0, 0.1, 0.0,
      "How much longer the worm gets for each coin it eats: the tail stays put until the "
      "extra length has grown in. 0 keeps the length constant."},
     &WormParams::growthPerCoin},
    {{"eatRadius", "Eat radius", "m", 0.0, 5.0, 0.05, 0.5,
      "A coin whose centre comes this close to the head is eaten. 0 = the worm never eats."},
     &WormParams::eatRadius},
    {{"wallResponse", "At a wall", "", 0.0, 1.0, 1.0, 1.0,
      "stop: the head halts width / 2 short of the wall (or of a corner or wall end beside "
      "its way) and the tail waits with it (the article's crash); it crawls on only if a "
      "turn of at most maxTurnAngle toward its target leads along or away from the wall. "
      "slide: at every joint the worm feels about one turning radius ahead and bends along "
      "walls and out of corners before it meets them, and takes only turns that leave it "
      "room to circle at its sharpest turn, so it never crawls into a pocket narrower than "
      "its turning circle; a head that still meets a wall (or a corner's tip) glides along "
      "it where that is a turn of at most maxTurnAngle, else it halts as in stop mode. "
      "Either way no joint bends more than maxTurnAngle.",
      ParamType::Choice, {"stop", "slide"}},
     &WormParams::wallResponse},
    {{"wanderTurn", "Wander turn", "deg", 0.0, 90.0, 1.0, 15.0,
      "Without a target, each joint turns by a random angle of up to this (never more than "
      "maxTurnAngle), so idle worms meander instead of running in straight lines. "
      "0 = straight ahead, as the article's worm crawls between touches."},
     &WormParams::wanderTurn, ParamScale::Degrees},
    {{"arriveDistance", "Arrive distance", "m", 0.05, 50.0, 0.05, 1.0,
      "After the pointer is released a worm keeps heading for the last pressed point until "
      "its head is this close, then wanders. A worm cannot reach a point inside its turning "
      "circle: below the turning radius it may circle the point for a while."},
     &WormParams::arriveDistance},
};
// clang-format on

using WormReading = ParamReading<WormParams>;

/// width x tan(maxTurnAngle / 2) from the authored values (m, degrees): how far a mitre
/// reaches along a segment.
double mitreLength(const WormReading& r)
{
    return r.authored(&WormParams::width) *
           std::tan(0.5 * r.authored(&WormParams::maxTurnAngle) * 3.14159265358979323846 / 180.0);
}

// Compared and shown as authored (double).
const std::array<ParamRule<WormParams>, 1> kWormRules = {{
    {[](const WormReading& r) {
         return !(r.authored(&WormParams::minSegmentLength) < mitreLength(r) - 1e-9);
     },
     [](const WormReading& r) {
         return "minSegmentLength = " + r.text(&WormParams::minSegmentLength) +
                " m is shorter than width x tan(maxTurnAngle / 2) = " +
                formatNumber(mitreLength(r), 3) + " m (width " + r.text(&WormParams::width) +
                " m, maxTurnAngle " + r.text(&WormParams::maxTurnAngle) +
                " deg): the mitred joints would fold the ribbon over itself; raise "
                "minSegmentLength or lower width or maxTurnAngle";
     }},
}};

/// Distance from p to the segment ab, m.
float pointToSegment(Vec2 p, Vec2 a, Vec2 b)
{
    const Vec2 ab = b - a;
    const float len2 = dot(ab, ab);
    const float t = len2 > 0.0f ? std::clamp(dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
    return distance(p, a + ab * t);
}

/// Distance between the segments ab and cd, m (0 where they cross).
float segmentToSegment(Vec2 a, Vec2 b, Vec2 c, Vec2 d)
{
    const float d1 = cross(b - a, c - a), d2 = cross(b - a, d - a);
    const float d3 = cross(d - c, a - c), d4 = cross(d - c, b - c);
    if (((d1 > 0.0f && d2 < 0.0f) || (d1 < 0.0f && d2 > 0.0f)) &&
        ((d3 > 0.0f && d4 < 0.0f) || (d3 < 0.0f && d4 > 0.0f)))
        return 0.0f;
    return std::min(std::min(pointToSegment(a, c, d), pointToSegment(b, c, d)),
                    std::min(pointToSegment(c, a, b), pointToSegment(d, a, b)));
}

/// The box round a polyline's joints (or one segment's two ends).
struct JointBox
{
    Vec2 min, max;

    static JointBox of(const Vec2* points, std::size_t count)
    {
        JointBox box{points[0], points[0]};
        for (std::size_t k = 1; k < count; ++k) {
            box.min = {std::min(box.min.x, points[k].x), std::min(box.min.y, points[k].y)};
            box.max = {std::max(box.max.x, points[k].x), std::max(box.max.y, points[k].y)};
        }
        return box;
    }
    /// How far apart two boxes must lie for what they hold to be surely no nearer than
    /// `gap`: the gap with room to spare for the rounding of segmentToSegment (which grows
    /// with the coordinates' size). A pair nearer than that is left to the exact test, so
    /// a box never changes an answer.
    static float reachFor(float gap, const JointBox& a, const JointBox& b)
    {
        const float scale =
            std::max({std::abs(a.min.x), std::abs(a.min.y), std::abs(a.max.x), std::abs(a.max.y),
                      std::abs(b.min.x), std::abs(b.min.y), std::abs(b.max.x), std::abs(b.max.y)});
        return gap + 1e-3f + 1e-5f * scale;
    }
    /// Whether the two boxes lie further apart than `reach` along x or y.
    bool apart(const JointBox& o, float reach) const
    {
        return o.min.x - max.x > reach || min.x - o.max.x > reach || o.min.y - max.y > reach ||
               min.y - o.max.y > reach;
    }
};

/// Whether the polylines p and q (joints) come nearer each other than `gap`, m. Segments
/// whose boxes lie further apart than `reach` (JointBox::reachFor, of boxes round both
/// polylines) skip the exact test.
bool polylinesNear(const std::vector<Vec2>& p, const std::vector<Vec2>& q, const JointBox& qBox,
                   float gap, float reach)
{
    for (std::size_t i = 0; i + 1 < p.size(); ++i) {
        const JointBox segment = JointBox::of(&p[i], 2);
        if (segment.apart(qBox, reach))
            continue;
        for (std::size_t j = 0; j + 1 < q.size(); ++j)
            if (!segment.apart(JointBox::of(&q[j], 2), reach) &&
                segmentToSegment(p[i], p[i + 1], q[j], q[j + 1]) < gap)
                return true;
    }
    return false;
}

/// The bodies laid so far while a group spawns, bucketed by the cells of a coarse grid they
/// lie in (padded by the gap), so a try is tested only against the bodies near it: tested
/// against every body laid before, a spawn of 10,000 worms took minutes. Gives the answer
/// the test against every body gives; the boxes round bodies and segments only skip pairs
/// that cannot be near (a spawn of 20,000 worms in a crowded area spent most of its time
/// measuring segments metres apart).
class LaidBodies
{
public:
    LaidBodies(float cell, float gap) : m_cell(cell), m_gap(gap) {}

    void add(std::vector<Vec2> body)
    {
        const auto index = static_cast<std::uint32_t>(m_bodies.size());
        forCells(body, m_gap, [&](std::uint64_t key) { m_buckets[key].push_back(index); });
        m_boxes.push_back(body.empty() ? JointBox{} : JointBox::of(body.data(), body.size()));
        m_bodies.push_back(std::move(body));
        m_seen.push_back(0);
    }

    /// Whether `points` come nearer than the gap to a body laid.
    bool near(const std::vector<Vec2>& points)
    {
        ++m_stamp;
        bool found = false;
        if (points.empty())
            return false;
        const JointBox box = JointBox::of(points.data(), points.size());
        forCells(points, 0.0f, [&](std::uint64_t key) {
            if (found)
                return;
            const auto bucket = m_buckets.find(key);
            if (bucket == m_buckets.end())
                return;
            for (const std::uint32_t b : bucket->second) {
                if (m_seen[b] == m_stamp)
                    continue;
                m_seen[b] = m_stamp;
                if (m_bodies[b].empty())
                    continue;
                const float reach = JointBox::reachFor(m_gap, box, m_boxes[b]);
                if (box.apart(m_boxes[b], reach))
                    continue;
                if (polylinesNear(points, m_bodies[b], m_boxes[b], m_gap, reach)) {
                    found = true;
                    return;
                }
            }
        });
        return found;
    }

private:
    template <class Visit> void forCells(const std::vector<Vec2>& points, float pad, Visit&& visit)
    {
        if (points.empty())
            return;
        float x0 = points[0].x, x1 = x0, y0 = points[0].y, y1 = y0;
        for (const Vec2 q : points) {
            x0 = std::min(x0, q.x);
            x1 = std::max(x1, q.x);
            y0 = std::min(y0, q.y);
            y1 = std::max(y1, q.y);
        }
        const auto cell = [&](float v) {
            return static_cast<std::int64_t>(std::floor(v / m_cell));
        };
        for (std::int64_t cy = cell(y0 - pad); cy <= cell(y1 + pad); ++cy)
            for (std::int64_t cx = cell(x0 - pad); cx <= cell(x1 + pad); ++cx)
                visit((static_cast<std::uint64_t>(cx) << 32) ^
                      (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu));
    }

    float m_cell;
    float m_gap;
    std::vector<std::vector<Vec2>> m_bodies;
    std::vector<JointBox> m_boxes; ///< round each body laid
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> m_buckets;
    std::vector<std::uint32_t> m_seen; ///< the stamp of the last near() that tested it
    std::uint32_t m_stamp = 0;
};

constexpr float kTurnEpsilon = 1e-3f; // rad: a smaller difference keeps the worm straight
constexpr float kZeroLength = 1e-6f;  // m
constexpr float kMinLeg = 1e-4f;      // m, shortest move made against a wall
// m: a head segment this much short of minSegmentLength may turn, so that a length of a whole
// number of steps is not missed by rounding (a joint a step later makes another circle).
constexpr float kJointSlack = 1e-4f;
constexpr int kSpawnAttempts = 32;
// A spawned worm rests in a gentle wave: its direction swings this much (rad) either side,
// one period over the body, in segments of about an eighth of its length.
constexpr float kSpawnWave = 0.35f;
constexpr int kSpawnSegments = 8;
constexpr float kSpawnSpread = 0.5f;  // rad either side of the spawn area's longer side
constexpr float kMaxLookAhead = 8.0f; // m, cap on the slide look-ahead beyond one segment
constexpr float kMinMitreDenominator = 0.25f;
constexpr float kEscapeSkin = 0.01f; // m, kept beyond half the width (rounding)
// The head as a solid body: its centre may come this much nearer a surface than half the
// width (m). A head that glides along a wall at exactly half the width has this margin for
// the proofs below, and a user never sees it.
constexpr float kClearSlack = 2e-3f;
// Halvings of a leg the proof may make before it falls back to the disc round a piece's start.
constexpr int kProofDepth = 5;
// m: how far beside a leg a proof may centre its free disc (further means a query over more
// cells; a longer leg is split instead).
constexpr float kMaxProofDisc = 0.5f;
// m: the surface that stopped the head beside its leg is looked for this far ahead of the
// stop, where it is nearer than any surface the head merely glides along.
constexpr float kContactProbe = 5e-3f;
// m beyond half the width and the leg that a leg's distance queries look (rounding).
constexpr float kClearReachSkin = 1e-3f;

/// Which cell of side `cell` the offset `d` (>= 0) falls in, at most 0xffff.
std::uint32_t cellNumber(float d, float cell)
{
    const float n = d / cell;
    return n > 0.0f ? static_cast<std::uint32_t>(std::min(n, 65535.0f)) : 0u;
}

/// The cells' place on a Z-curve (x's and y's bits interleaved): cells near each other in
/// the plane mostly get keys near each other.
std::uint32_t zOrder(std::uint32_t x, std::uint32_t y)
{
    std::uint32_t key = 0;
    for (int bit = 0; bit < 16; ++bit)
        key |= ((x >> bit) & 1u) << (2 * bit) | ((y >> bit) & 1u) << (2 * bit + 1);
    return key;
}

/// Distance from p to the nearest surface, or `reach` if none is nearer: the clearance grid
/// answers far from geometry without a query.
float distanceWithin(const StaticGeometry& geometry, Vec2 p, float reach)
{
    return geometry.clearance(p) >= reach ? reach : geometry.surfaceDistance(p, reach);
}

/// Whether the leg a -> b keeps `keep` m from every surface by one disc that holds no
/// surface, centred away from the surface nearest its midpoint m (`dm` from it). The disc is the
/// smallest that keeps `keep` off that surface's line and holds both ends, touching the line
/// where that is smallest (beside the midpoint for a leg along a wall, the near end for a leg
/// leaving it); one query tells whether any other surface comes into it.
bool freeDiscHolds(const StaticGeometry& geometry, Vec2 a, Vec2 b, Vec2 m, float dm, float keep)
{
    if (dm - keep >= 0.5f * distance(a, b))
        return true; // the disc round the midpoint
    const RayHit nearest = geometry.nearestSurface(m, dm + 1e-3f);
    if (!nearest.hit)
        return false;
    const Vec2 n = nearest.normal;
    const Vec2 along = n.perp();
    // Depths past the line kept `keep` off the surface, and positions along it.
    const float ha = dot(a - nearest.point, n) - keep;
    const float hb = dot(b - nearest.point, n) - keep;
    if (!(ha > 0.0f && hb > 0.0f))
        return false;
    const float ta = dot(a - nearest.point, along);
    const float tb = dot(b - nearest.point, along);
    // A disc of radius rho touching that line at t holds a point (t', h) if
    // (t' - t)^2 + h^2 <= 2 rho h.
    auto radiusAt = [&](float t) {
        return std::max(((ta - t) * (ta - t) + ha * ha) / (2.0f * ha),
                        ((tb - t) * (tb - t) + hb * hb) / (2.0f * hb));
    };
    float bestT = ta;
    float bestRadius = radiusAt(ta);
    for (const float t : {0.75f * ta + 0.25f * tb, 0.5f * (ta + tb), 0.25f * ta + 0.75f * tb, tb}) {
        const float rho = radiusAt(t);
        if (rho < bestRadius) {
            bestRadius = rho;
            bestT = t;
        }
    }
    if (bestRadius > kMaxProofDisc)
        return false;
    const Vec2 centre = nearest.point + along * bestT + n * (keep + bestRadius);
    const float needed = std::max(distance(centre, a), distance(centre, b)) + keep;
    return distanceWithin(geometry, centre, needed + 1e-4f) >= needed;
}

/// How far along the leg from + dir t (t0 <= t <= t1) is proved to keep `keep` m from every
/// surface, by distances alone: returns the t reached (t1 if all). d0, d1: the distances from
/// the ends to the nearest surface. A surface point is at least d0 from the start and d1 from
/// the end, so a leg shorter than (d0 - keep) + (d1 - keep) is clear; else one free disc may
/// hold it; else it is halved.
float provedRun(const StaticGeometry& geometry, Vec2 from, Vec2 dir, float t0, float d0, float t1,
                float d1, float keep, int depth)
{
    const float length = t1 - t0;
    if ((d0 - keep) + (d1 - keep) > length)
        return t1;
    const Vec2 a = from + dir * t0;
    const Vec2 b = from + dir * t1;
    const float tm = 0.5f * (t0 + t1);
    const Vec2 m = from + dir * tm;
    const float dm = distanceWithin(geometry, m, keep + 0.5f * length + 1e-3f);
    if (freeDiscHolds(geometry, a, b, m, dm, keep))
        return t1;
    if (depth == 0)
        return t0 + clampf(d0 - keep, 0.0f, length); // the disc round the start
    const float reached = provedRun(geometry, from, dir, t0, d0, tm, dm, keep, depth - 1);
    if (reached < tm)
        return reached;
    return provedRun(geometry, from, dir, tm, dm, t1, d1, keep, depth - 1);
}

} // namespace

const std::vector<ParamSpec>& wormParamSpecs()
{
    using H = ParamHandle;
    static const std::vector<ParamSpec> specs =
        withHandles(specsOf(kWormFields), {{"width", H::line(H::Shape::Side)},
                                           {"maxTurnAngle", H::cone(2.5f)},
                                           {"eatRadius", H::radius(60.0f)}});
    return specs;
}

WormParams wormParams(const ParamValues& values)
{
    return paramsFrom(kWormFields, values);
}

std::optional<Error> checkWormRelations(const ParamValues& values)
{
    return checkRules(kWormFields, kWormRules, values);
}

void WormBehaviour::setParams(const ParamValues& values)
{
    m_params = paramsFrom(kWormFields, values);
}

// ---------------------------------------------------------------------------------------
// Body storage: per worm a ring of joints, head first. Only the head joint ever moves; the
// tail point lies on the last segment, `m_tailCut` short of that segment's far end, so the
// body is exactly the path the head took. Its length is updated where it changes (the head
// segment, the tail cut), never summed over the body each step.

int WormBehaviour::requiredCapacity() const
{
    // The scene limits count the same room (kMaxWormJoints).
    return static_cast<int>(wormJointCapacity(m_params.length, m_params.minSegmentLength));
}

void WormBehaviour::allocate(int worms, int capacity)
{
    m_worms = worms;
    m_capacity = std::max(4, capacity);
    const std::size_t slots =
        static_cast<std::size_t>(worms) * static_cast<std::size_t>(m_capacity);
    m_joints.assign(slots, JointSlot{});
    const std::size_t n = static_cast<std::size_t>(worms);
    m_ring.resize(n);
    std::iota(m_ring.begin(), m_ring.end(), 0u);
    m_headSlot.assign(n, 0);
    m_count.assign(n, 2);
    m_pathLength.assign(n, 0.0);
    m_tailCut.assign(n, 0.0);
    m_bodyLength.assign(n, 0.0);
    m_heading.assign(n, 0.0f);
    m_grown.assign(n, 0.0f);
    m_targetX.assign(n, 0.0f);
    m_targetY.assign(n, 0.0f);
    m_hasTarget.assign(n, 0);
}

void WormBehaviour::growCapacity()
{
    // Rare (a worm grew, or its segments got short along a wall): everything is re-laid
    // head-first into twice the room.
    const int capacity = std::max(m_capacity * 2, requiredCapacity());
    const std::size_t slots =
        static_cast<std::size_t>(m_worms) * static_cast<std::size_t>(capacity);
    Rings joints(slots);
    for (int w = 0; w < m_worms; ++w) {
        const std::size_t base = static_cast<std::size_t>(w) * static_cast<std::size_t>(capacity);
        for (int k = 0; k < m_count[static_cast<std::size_t>(w)]; ++k)
            joints[base + static_cast<std::size_t>(k)] = m_joints[slot(w, k)];
    }
    // Every worm's ring is now the w-th, its head in slot 0.
    std::iota(m_ring.begin(), m_ring.end(), 0u);
    std::fill(m_headSlot.begin(), m_headSlot.end(), 0);
    m_capacity = capacity;
    m_joints.swap(joints);
}

Vec2 WormBehaviour::joint(int worm, int k) const
{
    const std::size_t w = static_cast<std::size_t>(worm);
    const int count = m_count[w];
    if (k < count - 1)
        return fixedJoint(worm, k);
    // The tail: on the last segment, m_tailCut short of its far end.
    const Vec2 a = fixedJoint(worm, count - 2);
    const Vec2 b = fixedJoint(worm, count - 1);
    const double full = m_joints[slot(worm, count - 2)].segLength;
    if (full <= 0.0)
        return a;
    const float t = static_cast<float>((full - m_tailCut[w]) / full);
    return a + (b - a) * t;
}

void WormBehaviour::joints(int worm, std::vector<Vec2>& out) const
{
    const int n = jointCount(worm);
    out.resize(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k)
        out[static_cast<std::size_t>(k)] = joint(worm, k);
}

Vec2 WormBehaviour::target(int worm) const
{
    const std::size_t w = static_cast<std::size_t>(worm);
    return {m_targetX[w], m_targetY[w]};
}

float WormBehaviour::length(int worm) const
{
    return m_params.length + m_grown[static_cast<std::size_t>(worm)];
}

Vec2 WormBehaviour::segmentDirection(int w, int k, Vec2 fallback) const
{
    // From the fixed far end (not the interpolated tail), so a nearly eaten tail segment
    // keeps its exact direction.
    return (fixedJoint(w, k) - fixedJoint(w, k + 1)).normalizedOr(fallback);
}

void WormBehaviour::layBody(int w, Vec2 head, float heading, float bodyLength)
{
    const std::size_t i = static_cast<std::size_t>(w);
    m_headSlot[i] = 0;
    m_count[i] = 2;
    const std::size_t s0 = slot(w, 0);
    const std::size_t s1 = slot(w, 1);
    const Vec2 tail = head - fromAngle(heading) * bodyLength;
    m_joints[s0].x = head.x;
    m_joints[s0].y = head.y;
    m_joints[s1].x = tail.x;
    m_joints[s1].y = tail.y;
    m_joints[s0].segLength = distance(head, tail);
    m_joints[s1].segLength = 0.0f;
    m_pathLength[i] = m_joints[s0].segLength;
    m_tailCut[i] = 0.0;
    m_bodyLength[i] = m_pathLength[i];
    m_heading[i] = heading;
    m_grown[i] = 0.0f;
    m_hasTarget[i] = 0;
}

float WormBehaviour::fitLength(const StaticGeometry& geometry, Vec2 head, float heading,
                               float wanted) const
{
    if (wanted <= 0.0f)
        return 0.0f;
    const float clearance = 0.5f * m_params.width;
    const Vec2 back = -fromAngle(heading);
    float fit = wanted;
    const RayHit hit = geometry.rayCast(head, head + back * (wanted + clearance));
    if (hit.hit)
        fit = std::max(0.0f, hit.fraction * (wanted + clearance) - clearance);
    // The exact crossing test (what the metrics count) has the last word.
    while (fit > kZeroLength && geometry.segmentCrosses(head, head + back * fit))
        fit *= 0.5f;
    return fit > kZeroLength ? fit : 0.0f;
}

void WormBehaviour::layBody(int w, const std::vector<Vec2>& points, float heading)
{
    const std::size_t i = static_cast<std::size_t>(w);
    const int n = static_cast<int>(points.size());
    m_headSlot[i] = 0;
    m_count[i] = n;
    double path = 0.0;
    for (int k = 0; k < n; ++k) {
        const std::size_t s = slot(w, k);
        const Vec2 p = points[static_cast<std::size_t>(k)];
        m_joints[s].x = p.x;
        m_joints[s].y = p.y;
        m_joints[s].segLength =
            k + 1 < n ? distance(p, points[static_cast<std::size_t>(k + 1)]) : 0.0f;
        path += m_joints[s].segLength;
    }
    m_pathLength[i] = path;
    m_tailCut[i] = 0.0;
    m_bodyLength[i] = path;
    m_heading[i] = heading;
    m_grown[i] = 0.0f;
    m_hasTarget[i] = 0;
}

float WormBehaviour::curvedBody(const StaticGeometry& geometry, Vec2 head, float heading,
                                float phase, std::vector<Vec2>& out) const
{
    out.clear();
    out.push_back(head);
    // Few joints, each well within the sharpest turn (a wave of one period bends a joint by
    // about kSpawnWave x 2 pi / segments), none on a segment shorter than the worm makes.
    const int segments = std::clamp(
        static_cast<int>(m_params.length / std::max(m_params.minSegmentLength, kZeroLength)), 1,
        kSpawnSegments);
    const float piece = m_params.length / static_cast<float>(segments);
    float laid = 0.0f;
    float previous = heading;
    Vec2 at = head;
    for (int k = 0; k < segments; ++k) {
        const float wave =
            std::sin(phase + 2.0f * kPi * static_cast<float>(k) / static_cast<float>(segments)) -
            std::sin(phase);
        const float turn = std::clamp(wrapAngle(heading + kSpawnWave * wave - previous),
                                      -m_params.maxTurnAngle, m_params.maxTurnAngle);
        const float direction = previous + turn; // the head segment lies along the heading
        // As a hand-placed body: cut short where geometry is (it grows in as it crawls out).
        const float fit = fitLength(geometry, at, direction, piece);
        if (fit <= 0.0f)
            break;
        at = at - fromAngle(direction) * fit;
        out.push_back(at);
        laid += fit;
        previous = direction;
        if (fit < piece)
            break;
    }
    return out.size() >= 2 ? laid : 0.0f;
}

void WormBehaviour::spawn(Group& group, const GroupDesc& desc, Random& random,
                          const StaticGeometry& geometry, SpawnOccupancy& placed)
{
    const int spawnCount = desc.spawn ? std::max(0, desc.spawn->count) : 0;
    const int total = static_cast<int>(desc.agents.size()) + spawnCount;
    allocate(total, requiredCapacity());
    const float clearance = 0.5f * m_params.width;
    const float look = lookAhead();

    // Every body laid so far, for spawned worms to rest clear of (build time only).
    LaidBodies bodies(std::max(m_params.length, 4.0f * m_params.width), m_params.width);
    std::vector<Vec2> points;
    int w = 0;
    for (const AgentDesc& agent : desc.agents) {
        const Vec2 head{static_cast<float>(agent.position.x), static_cast<float>(agent.position.y)};
        const float heading = wrapAngle(degToRad(static_cast<float>(agent.heading)));
        // A hand-placed worm whose straight body would pass through geometry starts shorter
        // and grows to full length as it crawls out.
        layBody(w, head, heading, fitLength(geometry, head, heading, m_params.length));
        joints(w++, points);
        bodies.add(points);
    }
    if (desc.spawn) {
        const Rect& area = desc.spawn->area;
        const float axis = area.max.x - area.min.x >= area.max.y - area.min.y ? 0.0f : 0.5f * kPi;
        std::vector<Vec2> best;
        struct SpawnedWorm
        {
            std::vector<Vec2> points;
            float heading;
        };
        std::vector<SpawnedWorm> spawned;
        for (int k = 0; k < spawnCount; ++k) {
            // Best of a few seeded tries, resting in a gentle wave: the whole body fits behind
            // the head, then a way out (room to circle at its sharpest turn, see hasWayOut),
            // then clear of the worms laid before (a width apart: no body crosses another at
            // the start), then the whole body inside the area, then room to crawl ahead (no
            // wall within the look-ahead), then the longest body.
            float bestFit = -1.0f;
            float bestHeading = 0.0f;
            int bestRank = -1;
            for (int attempt = 0; attempt < kSpawnAttempts; ++attempt) {
                const Vec2 p{
                    random.uniform(static_cast<float>(area.min.x), static_cast<float>(area.max.x)),
                    random.uniform(static_cast<float>(area.min.y), static_cast<float>(area.max.y))};
                // Along the area's longer side, either way, within a third of a right angle:
                // bodies that fit the area and lie side by side rather than across.
                const float way = random.uniform(-kPi, kPi);
                const float heading =
                    wrapAngle(axis + (way < 0.0f ? kPi : 0.0f) + way * (kSpawnSpread / kPi));
                const float phase = random.uniform(-kPi, kPi);
                if (geometry.isInsideSolid(p, clearance))
                    continue;
                const float fit = curvedBody(geometry, p, heading, phase, points);
                if (fit <= 0.0f)
                    continue;
                const bool whole = fit >= m_params.length * (1.0f - 1e-4f);
                const bool clear = !bodies.near(points);
                const bool inArea = std::all_of(points.begin(), points.end(), [&](Vec2 q) {
                    return q.x >= area.min.x && q.x <= area.max.x && q.y >= area.min.y &&
                           q.y <= area.max.y;
                });
                const bool roomAhead = !geometry.rayCast(p, p + fromAngle(heading) * look).hit;
                // (The step is not known yet: segments of exactly minSegmentLength.)
                const bool wayOut = hasWayOut(p, heading, 0.0f, geometry);
                const int rank = (whole ? 16 : 0) + (wayOut ? 8 : 0) + (clear ? 4 : 0) +
                                 (inArea ? 2 : 0) + (roomAhead ? 1 : 0);
                if (rank > bestRank || (rank == bestRank && fit > bestFit)) {
                    best = points;
                    bestHeading = heading;
                    bestFit = fit;
                    bestRank = rank;
                }
                if (rank == 31)
                    break;
            }
            // No clear place for this head at all: one worm fewer, never a worm in a wall.
            if (bestFit > 0.0f) {
                bodies.add(best);
                spawned.push_back({best, bestHeading});
            }
        }
        // Laid in the order of their heads along a Z-curve over cells a body long: the rings
        // then lie in memory much as the worms lie in the level, so the world's reordering
        // (which moves a worm's values, never its ring) finds rings near each other.
        const float cell = std::max(m_params.length, 1.0f);
        const auto key = [&](const SpawnedWorm& s) {
            return zOrder(cellNumber(s.points[0].x - static_cast<float>(area.min.x), cell),
                          cellNumber(s.points[0].y - static_cast<float>(area.min.y), cell));
        };
        std::stable_sort(
            spawned.begin(), spawned.end(),
            [&](const SpawnedWorm& l, const SpawnedWorm& r) { return key(l) < key(r); });
        for (const SpawnedWorm& s : spawned)
            layBody(w++, s.points, s.heading);
        // Worms crawl over each other (they meet no body of their own kind), so no crowd of
        // them is too dense: every listed worm is laid and the area has no capacity.
        SpawnReport& report = group.spawnReport;
        report.listedAsked = report.listedPlaced = desc.agents.size();
        report.areaAsked = static_cast<std::size_t>(spawnCount);
        report.areaCapacity = report.areaAsked;
        report.areaPlaced = static_cast<std::size_t>(w) - desc.agents.size();
    }
    m_worms = w;

    AgentArrays& a = group.agents;
    a.resize(0);
    a.resize(static_cast<std::size_t>(w));
    for (int j = 0; j < w; ++j) {
        const std::size_t i = static_cast<std::size_t>(j);
        const Vec2 head = fixedJoint(j, 0);
        const Vec2 velocity = fromAngle(m_heading[i]) * m_params.speed;
        a.px[i] = head.x;
        a.py[i] = head.y;
        a.heading[i] = m_heading[i];
        a.speed[i] = m_params.speed;
        a.vx[i] = velocity.x;
        a.vy[i] = velocity.y;
        a.flags[i] = kAgentAtGoal;
        // Later groups spawn clear of the heads (worms lay over each other: their own
        // places never ask it).
        placed.add(head, clearance, group.index, group.collision.layers, group.collision.mask);
    }
}

void WormBehaviour::resetBodies(const Group& group, const StaticGeometry* geometry)
{
    // The group's agents were placed by someone else: lay a straight body behind each head.
    const AgentArrays& a = group.agents;
    allocate(static_cast<int>(a.size()), requiredCapacity());
    for (int w = 0; w < m_worms; ++w) {
        const std::size_t i = static_cast<std::size_t>(w);
        const Vec2 head{a.px[i], a.py[i]};
        const float heading = a.heading[i];
        const float fit =
            geometry ? fitLength(*geometry, head, heading, m_params.length) : m_params.length;
        layBody(w, head, heading, fit);
    }
}

void WormBehaviour::pushJoint(int w)
{
    const std::size_t i = static_cast<std::size_t>(w);
    if (m_count[i] >= m_capacity)
        growCapacity();
    const std::size_t old = slot(w, 0);
    m_headSlot[i] = m_headSlot[i] == 0 ? m_capacity - 1 : m_headSlot[i] - 1;
    const std::size_t s = slot(w, 0);
    m_joints[s].x = m_joints[old].x;
    m_joints[s].y = m_joints[old].y;
    m_joints[s].segLength = 0.0f;
    ++m_count[i];
}

void WormBehaviour::advanceHead(int w, float distance)
{
    // The head is placed from the joint behind it, not stepped from where it was: its
    // rounding never accumulates, so the head segment stays straight to the last bit.
    if (distance <= 0.0f)
        return;
    const std::size_t s = slot(w, 0);
    const Vec2 behind = fixedJoint(w, 1);
    const Vec2 head = behind + fromAngle(m_heading[static_cast<std::size_t>(w)]) *
                                   (m_joints[s].segLength + distance);
    m_joints[s].x = head.x;
    m_joints[s].y = head.y;
    // Lengths are always measured from the stored points, so the bookkept body length is
    // the length of the polyline a reader gets.
    const float length = shoal::distance(behind, head);
    m_pathLength[static_cast<std::size_t>(w)] +=
        static_cast<double>(length) - m_joints[s].segLength;
    m_joints[s].segLength = length;
}

void WormBehaviour::trimTail(int w)
{
    // m_bodyLength holds the length the body should have now; cut the rest off the tail.
    const std::size_t i = static_cast<std::size_t>(w);
    const double wanted = std::max(0.0, m_bodyLength[i]);
    int& count = m_count[i];
    double& path = m_pathLength[i];
    while (count > 2) {
        const double last = m_joints[slot(w, count - 2)].segLength;
        if (path - last < wanted)
            break;
        path -= last; // the whole last segment is behind the tail: drop its far joint
        --count;
    }
    double last = m_joints[slot(w, count - 2)].segLength;
    m_tailCut[i] = std::clamp(path - wanted, 0.0, last);
    const double remaining = last - m_tailCut[i];
    if (m_tailCut[i] > remaining && remaining >= std::min(0.5, 0.5 * wanted)) {
        // Re-anchor the far end at the tail once more of the segment is eaten than is left,
        // so a long straight run never leaves the far end (and with it float precision) far
        // behind. Never on a short remainder: its direction would be rounded.
        const Vec2 tail = joint(w, count - 1);
        const std::size_t far = slot(w, count - 1);
        m_joints[far].x = tail.x;
        m_joints[far].y = tail.y;
        const std::size_t s = slot(w, count - 2);
        const float length = distance(fixedJoint(w, count - 2), tail);
        path += static_cast<double>(length) - last;
        m_joints[s].segLength = length;
        last = length;
        m_tailCut[i] = std::clamp(path - wanted, 0.0, last);
    }
    m_bodyLength[i] = path - m_tailCut[i];
}

void WormBehaviour::setHeadingAtJoint(int w, float heading)
{
    // A turn is a joint: the head segment so far stays as it is and a new one starts at the
    // head. If the head segment is still empty (the head has not moved since the last
    // joint), that joint is re-aimed instead (see turnBase()).
    if (m_joints[slot(w, 0)].segLength > kZeroLength)
        pushJoint(w);
    m_heading[static_cast<std::size_t>(w)] = wrapAngle(heading);
}

float WormBehaviour::limitedTurn(int w, float wanted) const
{
    const float base = turnBase(w);
    return base + clampf(wrapAngle(wanted - base), -m_params.maxTurnAngle, m_params.maxTurnAngle);
}

float WormBehaviour::lookAhead() const
{
    const WormParams& p = m_params;
    float sine = 0.0f, cosine = 1.0f;
    sinCos(0.5f * p.maxTurnAngle, sine, cosine); // not libm: same on every machine
    const float turnRadius = p.minSegmentLength / (2.0f * sine);
    return 0.5f * p.width + 2.0f * p.minSegmentLength + std::min(turnRadius, kMaxLookAhead);
}

bool WormBehaviour::circleIsClear(Vec2 head, float heading, float side, float stepLength,
                                  const StaticGeometry& geometry) const
{
    // One segment along `heading`, then the sharpest turn at every joint: a regular polygon
    // whose joints lie on a circle of radius chord / (2 sin(maxTurnAngle / 2)), the head one
    // of them. The worm can crawl round it for ever if no surface comes within half the width
    // of the circle: one distance query from its centre, which sees a corner or a wall's end
    // as it sees a wall (the head's own legs stop at all three). The circle is the same at the
    // next joint (its sharpest turn is this polygon's next chord), so a worm that keeps a way
    // out always has one.
    const WormParams& p = m_params;
    const float chord = segmentChord(stepLength);
    float halfSine = 0.0f, halfCosine = 1.0f;
    sinCos(0.5f * p.maxTurnAngle, halfSine, halfCosine);
    const float radius = chord / (2.0f * halfSine);
    const Vec2 joint = head + fromAngle(heading) * chord;
    const Vec2 first = fromAngle(heading + side * p.maxTurnAngle);
    const Vec2 centre =
        joint + first * (0.5f * chord) + first.perp() * (side * radius * halfCosine);
    // The disc holds the head, which is outside every obstacle: free of surfaces, it is
    // outside them all.
    const float ring = radius + 0.5f * p.width + kEscapeSkin;
    return distanceWithin(geometry, centre, ring) >= ring;
}

float WormBehaviour::segmentChord(float stepLength) const
{
    // A joint is made at the first step that finds the head segment minSegmentLength long
    // (less the slack), and the head crawls a whole step each step: segments are a whole
    // number of steps.
    const float s = m_params.minSegmentLength;
    if (!(stepLength > 0.0f))
        return s;
    return stepLength * std::ceil((s - kJointSlack) / stepLength);
}

bool WormBehaviour::hasWayOut(Vec2 head, float heading, float stepLength,
                              const StaticGeometry& geometry) const
{
    return circleIsClear(head, heading, 1.0f, stepLength, geometry) ||
           circleIsClear(head, heading, -1.0f, stepLength, geometry);
}

float WormBehaviour::wallAwareHeading(const NearBodies& near, int w, Vec2 head, float wanted,
                                      float stepLength, const StaticGeometry* walls) const
{
    // Feelers at joint time, one turning radius and two segments long (the next decision
    // is a segment away). If the turn the worm is about to make runs into geometry, take
    // instead the allowed turn whose feeler is clear and closest to the wanted direction,
    // or, walled in, the hardest turn toward the more open side: the worm bends along walls
    // and out of corners before it meets them. Every turn it takes must also leave it a way
    // out (hasWayOut): a worm turns at most maxTurnAngle per joint, so one that runs into a
    // pocket narrower than its turning circle could only halt there. Bodies near (other
    // groups' agents, the player) stop a feeler as a wall does.
    const WormParams& p = m_params;
    const float heading = m_heading[static_cast<std::size_t>(w)];
    const float look = lookAhead();
    float halfSine = 0.0f, halfCosine = 1.0f;
    sinCos(0.5f * p.maxTurnAngle, halfSine, halfCosine);
    const float circleReach =
        segmentChord(stepLength) * (1.0f + 1.0f / halfSine) + 0.5f * p.width + kEscapeSkin;
    if (walls && !walls->mayReach(head, std::max(look, circleReach)))
        walls = nullptr;
    if (!walls && near.count == 0)
        return wanted;
    const float candidate =
        heading + clampf(wrapAngle(wanted - heading), -p.maxTurnAngle, p.maxTurnAngle);
    // How far the head gets along an option is what counts as clear, as it does for the
    // head's own legs: a corner or a wall's end beside the way stops it as a wall ahead does.
    const float clear = look - 0.5f * p.width;
    RayHit ahead;
    auto feel = [&](Vec2 dir, RayHit* surface) {
        const float wall = walls ? feelerReach(*walls, head, dir, look, surface) : look;
        return near.count > 0 ? bodyRun(near, head, dir, wall, nullptr) : wall;
    };
    auto wayOutOf = [&](float option) {
        return !walls || hasWayOut(head, option, stepLength, *walls);
    };
    if (feel(fromAngle(candidate), &ahead) >= clear && wayOutOf(candidate))
        return wanted;
    // The options: five turns across the allowed range, and the wall's own direction (both
    // ways) where it is within reach, so a worm running beside a wall lines up with it
    // exactly instead of creeping closer.
    float options[7];
    int count = 0;
    for (int k = -2; k <= 2; ++k)
        options[count++] = heading + 0.5f * static_cast<float>(k) * p.maxTurnAngle;
    if (ahead.hit) {
        const float along = angleOf(ahead.normal.perp());
        for (const float tangent : {along, wrapAngle(along + kPi)})
            if (std::fabs(wrapAngle(tangent - heading)) <= p.maxTurnAngle)
                options[count++] = heading + wrapAngle(tangent - heading);
    }
    // A feeler that misses can still run the head in toward the wall it skims at a
    // shallow angle: against the wall found ahead, an option is clear only if it keeps
    // half the width off that wall over the whole look-ahead.
    const float room = ahead.hit ? dot(head - ahead.point, ahead.normal) - 0.5f * p.width : 0.0f;
    float deviation[7];
    for (int k = 0; k < count; ++k)
        deviation[k] = std::fabs(wrapAngle(wanted - options[k]));
    // How far the head gets along an option, felt only when the search comes to it.
    float reach[7];
    bool felt[7] = {};
    auto reachOf = [&](int k) {
        if (!felt[k]) {
            felt[k] = true;
            const Vec2 dir = fromAngle(options[k]);
            reach[k] = feel(dir, nullptr);
            const float approach = ahead.hit ? -dot(dir, ahead.normal) : 0.0f;
            if (approach > 0.0f)
                reach[k] = std::min(reach[k], std::max(0.0f, room) / approach);
        }
        return reach[k];
    };
    // The closest to the wanted direction with a clear feeler and a way out; else the
    // closest with a way out and room for its first segment (it turns late, but it turns).
    int order[7];
    for (int k = 0; k < count; ++k) {
        int j = k;
        for (; j > 0 && deviation[order[j - 1]] > deviation[k]; --j)
            order[j] = order[j - 1];
        order[j] = k;
    }
    bool checked[7] = {}, wayOut[7] = {};
    for (const float needed : {clear, std::min(clear, segmentChord(stepLength))}) {
        for (int j = 0; j < count; ++j) {
            const int k = order[j];
            if (reachOf(k) < needed)
                continue;
            if (!checked[k]) {
                checked[k] = true;
                wayOut[k] = wayOutOf(options[k]);
            }
            if (wayOut[k])
                return options[k];
        }
    }
    return walledInTurn(w, head, wanted, reachOf(4), reachOf(0), stepLength, walls);
}

float WormBehaviour::walledInTurn(int w, Vec2 head, float wanted, float reachLeft, float reachRight,
                                  float stepLength, const StaticGeometry* walls) const
{
    // A corner, a pocket, a wall met head-on: the furthest feeler would point into the
    // corner. Turn as hard as allowed toward the side whose turning circle is clear, else
    // toward the side that is more open.
    const float turn = m_params.maxTurnAngle;
    const float heading = m_heading[static_cast<std::size_t>(w)];
    const bool leftClear = !walls || circleIsClear(head, heading + turn, 1.0f, stepLength, *walls);
    const bool rightClear =
        !walls || circleIsClear(head, heading - turn, -1.0f, stepLength, *walls);
    float side = wrapAngle(wanted - heading) >= 0.0f ? 1.0f : -1.0f;
    if (leftClear != rightClear)
        side = leftClear ? 1.0f : -1.0f;
    else if (reachLeft != reachRight)
        side = reachLeft > reachRight ? 1.0f : -1.0f;
    return heading + side * turn;
}

float WormBehaviour::turnBase(int w) const
{
    const std::size_t i = static_cast<std::size_t>(w);
    if (m_joints[slot(w, 0)].segLength > kZeroLength || m_count[i] < 3)
        return m_heading[i];
    return angleOf(segmentDirection(w, 1, fromAngle(m_heading[i])));
}

float WormBehaviour::feelerReach(const StaticGeometry& geometry, Vec2 head, Vec2 dir, float look,
                                 RayHit* surface) const
{
    const float clearance = 0.5f * m_params.width;
    // The side rays run a little inside the head's width, so a wall the head glides along at
    // half the width is not met by them.
    const Vec2 side = dir.perp() * std::max(0.0f, clearance - 2.0f * kClearSlack);
    float reach = look;
    RayHit first; // the surface that stops the head first
    for (const Vec2 offset : {Vec2{}, side, -side}) {
        const Vec2 from = head + offset;
        const RayHit hit = geometry.rayCast(from, from + dir * look);
        if (!hit.hit)
            continue;
        // The head stops half the width off the line of the surface met (as in clearRun).
        float stop = hit.fraction * look;
        const float approach = -dot(dir, hit.normal);
        if (approach > 1e-6f)
            stop = std::min(stop, (dot(head - hit.point, hit.normal) - clearance) / approach);
        stop = std::max(0.0f, stop);
        if (!first.hit || stop < reach)
            first = hit;
        reach = std::min(reach, stop);
    }
    if (surface)
        *surface = first;
    return reach;
}

float WormBehaviour::clearRun(const StaticGeometry& geometry, Vec2 from, Vec2 dir, float length,
                              RayHit* surface) const
{
    const float clearance = 0.5f * m_params.width;
    if (surface)
        *surface = RayHit{};
    const float reach = clearance + length + kClearReachSkin;
    if (length <= 0.0f || geometry.clearance(from) >= reach)
        return std::max(length, 0.0f);
    // Ahead: the first surface the centre line meets. On a slant the head stops where it is
    // half the width off that surface's line, which the ray alone does not see.
    float run = length;
    const RayHit ahead = geometry.rayCast(from, from + dir * (length + clearance));
    if (ahead.hit) {
        float stop = ahead.fraction * (length + clearance) - clearance;
        const float approach = -dot(dir, ahead.normal);
        if (approach > 1e-6f)
            stop = std::min(stop, (dot(from - ahead.point, ahead.normal) - clearance) / approach);
        run = clampf(stop, 0.0f, length);
    }
    // Beside the leg (a convex corner, a wall's end, a circle) by distances: the part of the
    // leg proved to keep half the width. A head that is nearer already (placed there, or the
    // walls were redrawn under it) may move, but never nearer.
    const float d0 = distanceWithin(geometry, from, reach);
    const float full = clearance - kClearSlack;
    const float keep = d0 >= full ? full : std::max(d0 - kClearSlack, 0.5f * d0);
    float proved = run;
    if (run > 0.0f) {
        const float d1 = distanceWithin(geometry, from + dir * run, reach);
        proved = provedRun(geometry, from, dir, 0.0f, d0, run, d1, keep, kProofDepth);
    }
    if (proved >= run) {
        if (surface && run < length)
            *surface = ahead;
        return run;
    }
    // Stopped beside the leg, somewhere between keep and half the width off what stopped it:
    // the surface nearest just ahead of the stop, with the normal from its nearest point (a
    // corner's tip) toward the head. Back off along the leg to half the width off that
    // surface's line (as the ray's stop does), so that a head gliding on along it has the
    // slack to spare.
    const Vec2 at = from + dir * proved;
    const float probe = std::min(kContactProbe, length - proved);
    RayHit blocker = geometry.nearestSurface(at + dir * probe, clearance + probe);
    if (!blocker.hit)
        blocker = geometry.nearestSurface(at, clearance + kContactProbe);
    if (blocker.hit) {
        const float approach = -dot(dir, blocker.normal);
        const float shortBy = clearance - dot(at - blocker.point, blocker.normal);
        if (approach > 1e-3f && shortBy > 0.0f)
            proved = std::max(0.0f, proved - shortBy / approach);
    }
    if (surface)
        *surface = blocker;
    return proved;
}

Vec2 WormBehaviour::advance(const NearBodies& near, float heading, Vec2 from, float length,
                            const StaticGeometry* geometry, bool* blocked, RayHit* surface,
                            bool* byBody) const
{
    // Along the heading only, and as a solid body (clearRun): every leg of the head's path is
    // a straight motion that keeps half the width from every surface, so the body (the path)
    // never crosses a wall. Bodies near stop it as well (bodyRun).
    const Vec2 dir = fromAngle(heading);
    *blocked = false;
    if (surface)
        *surface = RayHit{};
    if (byBody)
        *byBody = false;
    if (length <= 0.0f)
        return from + dir * length;
    float run = length;
    // Far from everything (the common case) the leg is free without a query.
    if (geometry && geometry->clearance(from) < 0.5f * m_params.width + length + kClearReachSkin)
        run = clearRun(*geometry, from, dir, length, surface);
    if (near.count > 0) {
        RayHit contact;
        const float body = bodyRun(near, from, dir, run, &contact);
        if (body < run) {
            run = body;
            if (surface)
                *surface = contact;
            if (byBody)
                *byBody = true;
        }
    }
    if (run >= length)
        return from + dir * length;
    *blocked = true;
    // A crumb of motion against the wall (rounding) would leave a crumb of a head
    // segment, and the next bend would make a joint on it each step: stay put instead.
    return run < kMinLeg ? from : from + dir * run;
}

std::size_t WormBehaviour::preparePlan(Group& group, const StepContext& ctx)
{
    m_eaten.clear();
    if (static_cast<int>(group.agents.size()) != m_worms)
        resetBodies(group, ctx.geometry);
    if (group.targetVersion != m_seenTargetVersion) {
        // A target a game set (World::setTarget): every worm heads there as for a point the
        // pointer was released at, until its head arrives; a held pointer still leads.
        m_seenTargetVersion = group.targetVersion;
        for (std::size_t w = 0; w < static_cast<std::size_t>(m_worms); ++w) {
            m_targetX[w] = group.target.x;
            m_targetY[w] = group.target.y;
            m_hasTarget[w] = group.hasTarget ? 1 : 0;
        }
    }
    // Room in every ring for the joints this step may add: the parts never grow the rings
    // (a grown ring is laid out anew, under every other worm's feet).
    int most = 0;
    for (const int count : m_count)
        most = std::max(most, count);
    while (most + kJointsPerStep > m_capacity)
        growCapacity();
    m_near.resize(static_cast<std::size_t>(ctx.workers > 1 ? ctx.workers : 1));
    return ctx.planParts(static_cast<std::size_t>(m_worms));
}

void WormBehaviour::planPart(Group& group, const StepContext& ctx, std::size_t part, int worker)
{
    NearBodies& near = m_near[static_cast<std::size_t>(worker)];
    const auto [begin, end] = ctx.planPartRange(static_cast<std::size_t>(m_worms), part);
    for (std::size_t w = begin; w < end; ++w) {
        // A worm's head and tail slots are the first lines its step reads, at a place in its
        // ring the processor cannot guess: ask for them a few worms ahead.
        if (w + kPrefetchWorms < end)
            prefetchEnds(static_cast<int>(w + kPrefetchWorms));
        if (group.playerLed && w == 0)
            continue;
        stepWorm(group, static_cast<int>(w), ctx, near);
    }
}

void WormBehaviour::finishPlan(Group& group, const StepContext& ctx)
{
    // A worm's step reads no coin and eating changes nothing it does this step (the growth
    // shows from the next), so eating after the parts, in worm order, is what eating at the
    // end of each worm's step in that order was.
    if (!ctx.pickups || !(m_params.eatRadius > 0.0f))
        return;
    // The coins still there, once: a level of many other pickups, or of coins all eaten,
    // costs the worms nothing here.
    m_coins.clear();
    for (std::size_t k = 0; k < ctx.pickups->size(); ++k)
        if ((*ctx.pickups)[k].kind == PickupKind::Coin && !(*ctx.pickups)[k].taken)
            m_coins.push_back(static_cast<std::uint32_t>(k));
    if (m_coins.empty())
        return;
    // In a grid of their own: a worm looks only at the coins round its head (20,000 worms
    // testing every coin of a level were a twentieth of a big level's step, on one thread).
    m_coinX.resize(m_coins.size());
    m_coinY.resize(m_coins.size());
    for (std::size_t j = 0; j < m_coins.size(); ++j) {
        m_coinX[j] = (*ctx.pickups)[m_coins[j]].position.x;
        m_coinY[j] = (*ctx.pickups)[m_coins[j]].position.y;
    }
    m_coinGrid.build(m_coinX.data(), m_coinY.data(), m_coins.size(), 2.0f * m_params.eatRadius);
    for (int w = 0; w < m_worms; ++w)
        if (!(group.playerLed && w == 0))
            eatCoins(w, fixedJoint(w, 0), ctx);
}

SHOAL_FORCE_INLINE inline WormBehaviour::Aim WormBehaviour::aim(const Group& group, int w,
                                                                Vec2 head, const StepContext& ctx)
{
    // Steering: the pointer while it is held, then the last pressed point until reached.
    const WormParams& p = m_params;
    const std::size_t i = static_cast<std::size_t>(w);
    if (ctx.pointer.pressed) {
        m_targetX[i] = ctx.pointer.position.x;
        m_targetY[i] = ctx.pointer.position.y;
        m_hasTarget[i] = 1;
    }
    Aim out;
    out.heading = m_heading[i];
    if (m_hasTarget[i]) {
        const Vec2 toTarget = target(w) - head;
        out.goalDistance = toTarget.length();
        out.atGoal = out.goalDistance <= p.arriveDistance;
        if (out.atGoal && !ctx.pointer.pressed)
            m_hasTarget[i] = 0;
        else if (out.goalDistance > kZeroLength)
            out.heading = angleOf(toTarget);
    } else if (p.wanderTurn > 0.0f) {
        // Keyed by the worm's id, not its place in the arrays (the world reorders them).
        const std::uint64_t id = (static_cast<std::uint64_t>(group.index) << 32) |
                                 static_cast<std::uint64_t>(group.agents.id[i]);
        out.heading = m_heading[i] + p.wanderTurn * signedNoise(ctx.seed, ctx.step, id);
    }
    return out;
}

float WormBehaviour::bendAtWall(const NearBodies& near, int w, float wanted, float rest,
                                const RayHit& surface, const StaticGeometry* geometry, bool byBody)
{
    // The wall shortened the move. The head bends where it stopped, and the rest of the step
    // goes along the new heading, so the body is still exactly the path.
    const std::size_t i = static_cast<std::size_t>(w);
    const bool slide = byBody || m_params.response() == WallResponse::Slide;
    const Vec2 at = fixedJoint(w, 0);
    const float base = turnBase(w);
    float bendTo = base;
    bool bend = false;
    if (slide) {
        // Glide along the tangent nearest the direction the bend is measured from, if that
        // is a joint of at most maxTurnAngle (the look-ahead makes a steeper meeting rare).
        const Vec2 from = fromAngle(base);
        Vec2 along = from - surface.normal * dot(from, surface.normal);
        if (along.lengthSquared() < 1e-6f) {
            along = surface.normal.perp();
            if (dot(along, fromAngle(wanted)) < 0.0f)
                along = -along;
        }
        bendTo = angleOf(along);
        // In a corner that way is walled too: glide the other way.
        bool blockedThere = false;
        if (distance(at, advance(near, bendTo, at, rest, geometry, &blockedThere, nullptr)) <
            kMinLeg)
            bendTo = angleOf(-along);
        bend = std::fabs(wrapAngle(bendTo - base)) <= m_params.maxTurnAngle;
    }
    if (!bend && (slide || m_hasTarget[i])) {
        // Stop, or a glide that would bend sharper than maxTurnAngle: a bend toward where the
        // worm wants to go, within maxTurnAngle, and only one that leads along or away from
        // the wall: a worm pressing on the wall stays halted rather than growing a joint
        // every step.
        bendTo = limitedTurn(w, wanted);
        bend = dot(fromAngle(bendTo), surface.normal) >= 0.0f;
    }
    if (!bend || !(std::fabs(wrapAngle(bendTo - m_heading[i])) > kTurnEpsilon))
        return 0.0f;
    bool blockedAgain = false;
    const float leg =
        distance(at, advance(near, bendTo, at, rest, geometry, &blockedAgain, nullptr));
    if (leg < kMinLeg)
        return 0.0f;
    setHeadingAtJoint(w, bendTo);
    advanceHead(w, leg);
    return leg;
}

SHOAL_FORCE_INLINE inline void WormBehaviour::eatCoins(int w, Vec2 head, const StepContext& ctx)
{
    const WormParams& p = m_params;
    const float reach2 = p.eatRadius * p.eatRadius;
    // The coins the grid finds a little beyond the reach (its distances may round otherwise
    // than the test below), in pickup order, then the test itself.
    m_coinsNear.clear();
    m_coinGrid.forEachWithin(
        head, p.eatRadius * 1.001f + 1e-3f,
        [&](std::uint32_t j, float, float, float) { m_coinsNear.push_back(j); });
    if (m_coinsNear.empty())
        return;
    std::sort(m_coinsNear.begin(), m_coinsNear.end());
    for (const std::uint32_t j : m_coinsNear) {
        const std::uint32_t k = m_coins[j];
        PickupState& coin = (*ctx.pickups)[k];
        if (coin.taken || distanceSquared(coin.position, head) > reach2)
            continue;
        coin.taken = true;
        m_eaten.push_back(static_cast<std::uint32_t>(w));
        m_eaten.push_back(k);
        // The tail waits (trimTail) until it has grown in.
        m_grown[static_cast<std::size_t>(w)] += p.growthPerCoin;
    }
}

void WormBehaviour::stepWorm(Group& group, int w, const StepContext& ctx, NearBodies& near)
{
    const WormParams& p = m_params;
    const std::size_t i = static_cast<std::size_t>(w);
    const StaticGeometry* geometry = ctx.geometry;
    const Vec2 head = fixedJoint(w, 0);
    gatherNear(group, w, head, ctx, near);
    const Aim wish = aim(group, w, head, ctx);
    float wanted = wish.heading;
    const bool inspected = ctx.inspection && ctx.inspection->wants(group.index, group.agents.id[i]);
    if (inspected) {
        ctx.inspection->begin(ctx.step, "heading");
        ctx.inspection->add(m_hasTarget[i] ? "target" : "wander",
                            fromAngle(wish.heading) * p.speed);
    }

    // Turns happen only at joints: once the head segment has reached minSegmentLength.
    if (m_joints[slot(w, 0)].segLength >= p.minSegmentLength - kJointSlack) {
        const bool slide = p.response() == WallResponse::Slide && geometry;
        if (slide || near.count > 0)
            wanted = wallAwareHeading(near, w, head, wanted, p.speed * ctx.dt,
                                      slide ? geometry : nullptr);
        if (std::fabs(wrapAngle(wanted - m_heading[i])) > kTurnEpsilon)
            setHeadingAtJoint(w, limitedTurn(w, wanted));
    }
    if (inspected) {
        ctx.inspection->add("round walls and bodies", fromAngle(wanted) * p.speed);
        ctx.inspection->add("joint turn", fromAngle(m_heading[i]) * p.speed);
        ctx.inspection->wanted = fromAngle(wanted) * p.speed;
    }

    const float stepLength = p.speed * ctx.dt;
    bool blocked = false;
    bool byBody = false;
    RayHit surface;
    float moved = distance(
        head, advance(near, m_heading[i], head, stepLength, geometry, &blocked, &surface, &byBody));
    advanceHead(w, moved);
    if (blocked && surface.hit && stepLength - moved > kZeroLength)
        moved += bendAtWall(near, w, wanted, stepLength - moved, surface, geometry, byBody);
    const Vec2 next = fixedJoint(w, 0);
    m_bodyLength[i] = std::min(static_cast<double>(length(w)), m_bodyLength[i] + moved);
    trimTail(w);

    AgentArrays& a = group.agents;
    const Vec2 velocity = (next - head) / ctx.dt;
    a.nx[i] = next.x;
    a.ny[i] = next.y;
    a.nvx[i] = velocity.x;
    a.nvy[i] = velocity.y;
    a.nheading[i] = m_heading[i];
    a.nspeed[i] = moved / ctx.dt;
    if (inspected)
        ctx.inspection->planned = velocity;
    std::uint8_t flags = a.flags[i] & static_cast<std::uint8_t>(~(kAgentBlocked | kAgentAtGoal));
    if (blocked)
        flags |= kAgentBlocked;
    if (wish.atGoal)
        flags |= kAgentAtGoal;
    a.flags[i] = flags;
    a.goalDistance[i] = wish.goalDistance;
}

void WormBehaviour::outline(int worm, std::vector<Vec2>& left, std::vector<Vec2>& right) const
{
    const int n = jointCount(worm);
    left.resize(static_cast<std::size_t>(n));
    right.resize(static_cast<std::size_t>(n));
    const float half = 0.5f * m_params.width;
    const Vec2 headingDir = fromAngle(m_heading[static_cast<std::size_t>(worm)]);
    auto at = [](std::vector<Vec2>& v, int k) -> Vec2& { return v[static_cast<std::size_t>(k)]; };

    // Head end, square across the head segment (an empty head segment points along the heading).
    Vec2 ahead = segmentDirection(worm, 0, headingDir);
    const Vec2 head = joint(worm, 0);
    at(left, 0) = head + ahead.perp() * half;
    at(right, 0) = head - ahead.perp() * half;
    for (int k = 1; k < n - 1; ++k) {
        // The offset edges of the segment ahead and the one behind meet at their
        // intersection (the seed's line-intersection join), in closed form:
        // P + half (n_ahead + n_behind) / (1 + cos turn). It lies on both offset lines, so
        // the ribbon has no gap and no overlap; for turns up to 90 degrees 1 + cos >= 1.
        const Vec2 behind = segmentDirection(worm, k, ahead);
        const float denominator = std::max(1.0f + dot(ahead, behind), kMinMitreDenominator);
        const Vec2 mitre = (ahead.perp() + behind.perp()) * (half / denominator);
        const Vec2 p = joint(worm, k);
        at(left, k) = p + mitre;
        at(right, k) = p - mitre;
        ahead = behind;
    }
    const Vec2 tail = joint(worm, n - 1);
    at(left, n - 1) = tail + ahead.perp() * half;
    at(right, n - 1) = tail - ahead.perp() * half;

    // A segment shorter than its mitres (only where a wall forced joints closer than
    // minSegmentLength) would fold its inner edge: collapse that edge to its midpoint.
    for (int k = 1; k + 2 < n; ++k) {
        const Vec2 dir = segmentDirection(worm, k, headingDir);
        for (std::vector<Vec2>* side : {&left, &right}) {
            Vec2& front = at(*side, k);
            Vec2& back = at(*side, k + 1);
            if (dot(front - back, dir) < 0.0f)
                front = back = (front + back) * 0.5f;
        }
    }
    // The head and tail segments start and end empty: while one is shorter than the mitre
    // at its inner side, its square end is pulled onto the mitre point (a triangle, not a
    // folded quad).
    if (n >= 3) {
        const Vec2 headDir = segmentDirection(worm, 0, headingDir);
        const Vec2 tailDir = segmentDirection(worm, n - 2, headingDir);
        for (std::vector<Vec2>* side : {&left, &right}) {
            if (dot(at(*side, 0) - at(*side, 1), headDir) < 0.0f)
                at(*side, 0) = at(*side, 1);
            if (dot(at(*side, n - 2) - at(*side, n - 1), tailDir) < 0.0f)
                at(*side, n - 1) = at(*side, n - 2);
        }
    }
}

void WormBehaviour::hashState(std::uint64_t& h) const
{
    for (int w = 0; w < m_worms; ++w) {
        const std::size_t i = static_cast<std::size_t>(w);
        hashValue(h, m_count[i]);
        for (int k = 0; k < m_count[i]; ++k) {
            const std::size_t s = slot(w, k);
            hashValue(h, m_joints[s].x);
            hashValue(h, m_joints[s].y);
            hashValue(h, m_joints[s].segLength);
        }
        hashValue(h, m_tailCut[i]);
        hashValue(h, m_bodyLength[i]);
        hashValue(h, m_heading[i]);
        hashValue(h, m_grown[i]);
        hashValue(h, m_targetX[i]);
        hashValue(h, m_targetY[i]);
        hashValue(h, m_hasTarget[i]);
    }
}

std::size_t WormBehaviour::memoryBytes() const
{
    return m_joints.capacity() * sizeof(JointSlot) +
           (m_heading.capacity() + m_grown.capacity() + m_targetX.capacity() +
            m_targetY.capacity()) *
               sizeof(float) +
           (m_headSlot.capacity() + m_count.capacity()) * sizeof(int) +
           (m_ring.capacity() + m_reordering.u32.capacity()) * sizeof(std::uint32_t) +
           m_reordering.i32.capacity() * sizeof(int) +
           m_reordering.f64.capacity() * sizeof(double) +
           m_reordering.f32.capacity() * sizeof(float) + m_reordering.u8.capacity() +
           (m_pathLength.capacity() + m_tailCut.capacity() + m_bodyLength.capacity()) *
               sizeof(double) +
           m_hasTarget.capacity();
}

bool WormBehaviour::ringsInOrder() const
{
    for (std::size_t w = 0; w < m_ring.size(); ++w)
        if (m_ring[w] != w)
            return false;
    return true;
}

namespace {

/// v[k] = v[order[k]] for every k, through `room` (which keeps the old array afterwards).
template <class T>
void reorder(std::vector<T>& v, const std::vector<std::uint32_t>& order, std::vector<T>& room)
{
    room.resize(order.size());
    for (std::size_t k = 0; k < order.size(); ++k)
        room[k] = v[order[k]];
    v.swap(room);
}

} // namespace

void WormBehaviour::permuteAgents(const std::vector<std::uint32_t>& order)
{
    if (m_ring.size() != order.size())
        return; // not laid out for these agents (the world resets the bodies)
    Reordering& r = m_reordering;
    reorder(m_ring, order, r.u32);
    for (std::vector<int>* v : {&m_headSlot, &m_count})
        reorder(*v, order, r.i32);
    for (std::vector<double>* v : {&m_pathLength, &m_tailCut, &m_bodyLength})
        reorder(*v, order, r.f64);
    for (std::vector<float>* v : {&m_heading, &m_grown, &m_targetX, &m_targetY})
        reorder(*v, order, r.f32);
    reorder(m_hasTarget, order, r.u8);
}

void WormBehaviour::saveState(StateWriter& out) const
{
    out.value(m_worms);
    out.value(m_capacity);
    // Worm w's ring as the w-th (a reordered world's rings are elsewhere), and the three
    // members as three arrays: the bytes of the layout before JointSlot and m_ring.
    Rings inOrder;
    const Rings* joints = &m_joints;
    if (!ringsInOrder()) {
        const std::size_t capacity = static_cast<std::size_t>(m_capacity);
        inOrder.resize(m_joints.size());
        for (std::size_t w = 0; w < m_ring.size(); ++w)
            std::copy_n(m_joints.begin() + static_cast<std::ptrdiff_t>(m_ring[w] * capacity),
                        capacity, inOrder.begin() + static_cast<std::ptrdiff_t>(w * capacity));
        joints = &inOrder;
    }
    out.field(*joints, &JointSlot::x);
    out.field(*joints, &JointSlot::y);
    out.field(*joints, &JointSlot::segLength);
    out.array(m_headSlot);
    out.array(m_count);
    out.array(m_pathLength);
    out.array(m_tailCut);
    out.array(m_bodyLength);
    out.array(m_heading);
    out.array(m_grown);
    out.array(m_targetX);
    out.array(m_targetY);
    out.array(m_hasTarget);
    out.value(m_seenTargetVersion);
}

bool WormBehaviour::loadState(StateReader& in, const StaticGeometry& geometry)
{
    (void)geometry;
    const bool ok =
        in.value(m_worms) && in.value(m_capacity) && in.field(m_joints, &JointSlot::x, true) &&
        in.field(m_joints, &JointSlot::y, false) &&
        in.field(m_joints, &JointSlot::segLength, false) && in.array(m_headSlot) &&
        in.array(m_count) && in.array(m_pathLength) && in.array(m_tailCut) &&
        in.array(m_bodyLength) && in.array(m_heading) && in.array(m_grown) && in.array(m_targetX) &&
        in.array(m_targetY) && in.array(m_hasTarget) && in.value(m_seenTargetVersion);
    const std::size_t worms = static_cast<std::size_t>(std::max(m_worms, 0));
    const std::size_t slots = worms * static_cast<std::size_t>(std::max(m_capacity, 0));
    m_ring.resize(worms);
    std::iota(m_ring.begin(), m_ring.end(), 0u);
    return ok && m_joints.size() == slots && m_headSlot.size() == worms && m_count.size() == worms;
}

} // namespace shoal
