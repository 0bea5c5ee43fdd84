// Solid bodies against static geometry: exact distances to the level's surfaces, pushing a
// body's centre out to its radius, and proving a motion free by distances alone.
//
// Why not rays: a ray keeps clearance only along the motion, never beside it, at a wall's end
// or round a convex corner, and a ray through the exact vertex where two edges meet can miss
// both. A distance query sees every surface in every direction, and the proof below needs no
// intersection test at all.

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

/// Pushes that leave this much overlap (m) count as resolved: far below the 5 cm a user or
/// the metrics notice, far above float rounding at level scale.
constexpr float kResolved = 1e-3f;
/// A pushed body ends this far beyond its radius, so rounding never leaves it touching.
constexpr float kPushSlack = 1e-4f;
/// Pushes per body and step: a concave corner needs one per wall; more means a gap the body
/// does not fit.
constexpr int kPushRounds = 4;
/// Halvings of a motion the proof may make before it calls the motion blocked.
constexpr int kProofSplits = 8;

/// Which side of the line a -> b point p is on: +1 left, -1 right, 0 on it.
float sideOf(Vec2 a, Vec2 b, Vec2 p)
{
    const float z = cross(b - a, p - a);
    return z > 0.0f ? 1.0f : (z < 0.0f ? -1.0f : 0.0f);
}

/// Whether the open segments p -> q and a -> b properly intersect.
bool segmentsIntersect(Vec2 p, Vec2 q, Vec2 a, Vec2 b)
{
    const float d1 = sideOf(a, b, p), d2 = sideOf(a, b, q);
    const float d3 = sideOf(p, q, a), d4 = sideOf(p, q, b);
    return d1 * d2 < 0.0f && d3 * d4 < 0.0f;
}

/// The nearest point of one surface to a body, seen from the side the body belongs on.
struct Contact
{
    float distance = 0.0f; ///< signed: negative when the body's centre is past the surface
    Vec2 normal;           ///< unit, from the surface toward where the centre belongs
};

/// A wall or outline edge a -> b, against a centre at q that came from `from`. The body
/// belongs on the side of the edge it was on, which is q's own side unless q -> from crosses
/// the edge (then a planned motion went through it, and the body belongs back with `from`).
Contact segmentContact(const Segment& s, Vec2 q, Vec2 from)
{
    const Vec2 ab = s.b - s.a;
    const float len2 = ab.lengthSquared();
    const float t = len2 > 0.0f ? dot(q - s.a, ab) / len2 : 0.0f;
    if (t > 0.0f && t < 1.0f) {
        float side =
            segmentsIntersect(from, q, s.a, s.b) ? sideOf(s.a, s.b, from) : sideOf(s.a, s.b, q);
        if (side == 0.0f)
            side = sideOf(s.a, s.b, from);
        if (side == 0.0f)
            side = 1.0f;
        const Vec2 normal = Vec2(-ab.y, ab.x) * (side / std::sqrt(len2));
        return {dot(q - s.a, normal), normal};
    }
    // Past an end: the end point is nearest, in every direction.
    const Vec2 end = t <= 0.0f ? s.a : s.b;
    const Vec2 away = q - end;
    const float d = away.length();
    if (d > 1e-9f)
        return {d, away / d};
    // Exactly on the end point: back toward where it came from, else along the edge outward.
    const Vec2 back = (from - end).normalizedOr(t <= 0.0f ? -ab : ab);
    return {0.0f, back.normalizedOr({1.0f, 0.0f})};
}

/// A circle obstacle against a centre at q: bodies belong outside it.
Contact circleContact(const Circle& c, Vec2 q, Vec2 from)
{
    const Vec2 away = q - c.center;
    const float d = away.length();
    if (d > 1e-9f)
        return {d - c.radius, away / d};
    return {-c.radius, (from - c.center).normalizedOr({1.0f, 0.0f})};
}

/// Of two surfaces exactly as near (a body at a corner, two walls the same distance off),
/// the one whose vector v (the push, or the nearest point) is first by x, then y, wins: the
/// result depends on the geometry alone, not on which the cells or the file list first.
bool firstOfEqual(Vec2 v, Vec2 best)
{
    return v.x < best.x || (v.x == best.x && v.y < best.y);
}

} // namespace

template <class F> void StaticGeometry::forEachFeatureNear(Vec2 p, float reach, F&& f) const
{
    // Every surface within `reach` of p has its nearest point inside the query box, and each
    // bucket lists every item whose box touches the cell: the cells of the box suffice.
    const float fx0 = (p.x - reach - m_boundsMin.x) * m_invCell;
    const float fy0 = (p.y - reach - m_boundsMin.y) * m_invCell;
    const float fx1 = (p.x + reach - m_boundsMin.x) * m_invCell;
    const float fy1 = (p.y + reach - m_boundsMin.y) * m_invCell;
    const int x0 = std::clamp(static_cast<int>(std::floor(fx0)), 0, m_cols - 1);
    const int y0 = std::clamp(static_cast<int>(std::floor(fy0)), 0, m_rows - 1);
    const int x1 = std::clamp(static_cast<int>(std::floor(fx1)), 0, m_cols - 1);
    const int y1 = std::clamp(static_cast<int>(std::floor(fy1)), 0, m_rows - 1);
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const std::size_t c = static_cast<std::size_t>(y) * m_cols + x;
            for (std::uint32_t k = m_bucketStart[c]; k < m_bucketStart[c + 1]; ++k)
                f(m_bucketItems[k]);
        }
}

float StaticGeometry::surfaceDistance(Vec2 p, float reach) const
{
    float best = reach;
    forEachFeatureNear(p, reach, [&](std::int32_t item) {
        float d;
        if (item >= 0) {
            const Segment& s = m_segments[static_cast<std::size_t>(item)];
            const Vec2 ab = s.b - s.a;
            const float len2 = ab.lengthSquared();
            const float t = len2 > 0.0f ? clamp01(dot(p - s.a, ab) / len2) : 0.0f;
            d = distance(p, s.a + ab * t);
        } else {
            const Circle& c = m_circles[static_cast<std::size_t>(~item)];
            d = std::fabs(distance(p, c.center) - c.radius);
        }
        best = std::min(best, d);
    });
    // Outside the bounds the bounds edge is still the nearest surface; the buckets cover only
    // the level, so measure it directly.
    if (!(p.x >= m_boundsMin.x && p.y >= m_boundsMin.y && p.x <= m_boundsMax.x &&
          p.y <= m_boundsMax.y)) {
        const float dx = std::max({m_boundsMin.x - p.x, p.x - m_boundsMax.x, 0.0f});
        const float dy = std::max({m_boundsMin.y - p.y, p.y - m_boundsMax.y, 0.0f});
        best = std::min(best, std::sqrt(dx * dx + dy * dy));
    }
    return best;
}

RayHit StaticGeometry::nearestSurface(Vec2 p, float reach) const
{
    RayHit best;
    float bestDistance = reach;
    auto consider = [&](Vec2 point) {
        const float d = distance(p, point);
        if (d > 1e-9f && (d < bestDistance ||
                          (best.hit && d == bestDistance && firstOfEqual(point, best.point)))) {
            bestDistance = d;
            best.hit = true;
            best.point = point;
            best.normal = (p - point) / d;
        }
    };
    forEachFeatureNear(p, reach, [&](std::int32_t item) {
        if (item >= 0) {
            const Segment& s = m_segments[static_cast<std::size_t>(item)];
            const Vec2 ab = s.b - s.a;
            const float len2 = ab.lengthSquared();
            const float t = len2 > 0.0f ? clamp01(dot(p - s.a, ab) / len2) : 0.0f;
            consider(s.a + ab * t);
        } else {
            const Circle& c = m_circles[static_cast<std::size_t>(~item)];
            consider(c.center + (p - c.center).normalizedOr({1.0f, 0.0f}) * c.radius);
        }
    });
    return best;
}

float StaticGeometry::pushOut(Vec2& q, Vec2 from, float radius) const
{
    // Deepest surface first, a few rounds: a concave corner resolves one wall per round, and
    // a push never doubles up at a convex corner where two edges share the nearest point.
    for (int round = 0; round <= kPushRounds; ++round) {
        float deepest = 0.0f;
        Vec2 push;
        forEachFeatureNear(q, radius, [&](std::int32_t item) {
            const Contact c =
                item >= 0 ? segmentContact(m_segments[static_cast<std::size_t>(item)], q, from)
                          : circleContact(m_circles[static_cast<std::size_t>(~item)], q, from);
            const float depth = radius - c.distance;
            if (depth <= 0.0f || depth < deepest)
                return;
            const Vec2 candidate = c.normal * (depth + kPushSlack);
            if (depth > deepest || firstOfEqual(candidate, push)) {
                deepest = depth;
                push = candidate;
            }
        });
        if (deepest <= 0.0f || round == kPushRounds)
            return deepest;
        q += push;
    }
    return 0.0f;
}

bool StaticGeometry::pathIsClear(Vec2 a, float clearA, Vec2 b, float clearB, int splits) const
{
    // Any point of a -> b on a surface would be at least clearA from a and clearB from b, so
    // a path shorter than clearA + clearB touches nothing (a margin covers rounding).
    const float length = distance(a, b);
    if (clearA + clearB > length + 1e-5f)
        return true;
    if (splits == 0 || clearA <= 0.0f || clearB <= 0.0f)
        return false;
    const Vec2 mid = (a + b) * 0.5f;
    const float clearMid = surfaceDistance(mid, 0.5f * length + 1e-3f);
    return pathIsClear(a, clearA, mid, clearMid, splits - 1) &&
           pathIsClear(mid, clearMid, b, clearB, splits - 1);
}

Vec2 StaticGeometry::keepClearNearGeometry(Vec2 from, Vec2 to, float radius, bool* adjusted) const
{
    auto result = [&](Vec2 p) {
        // Never a centre past the level's edge: in a level thinner than the body no place
        // is clear of both edges, and pushed out of one it would leave through the other.
        p = {std::clamp(p.x, m_boundsMin.x, m_boundsMax.x),
             std::clamp(p.y, m_boundsMin.y, m_boundsMax.y)};
        if (adjusted)
            *adjusted = p.x != to.x || p.y != to.y;
        return p;
    };
    const float reach = std::max(radius, distance(from, to)) + 1e-3f;
    const float clearFrom = surfaceDistance(from, reach);
    // The planned place, pushed out of whatever it overlaps.
    Vec2 q = to;
    if (pushOut(q, from, radius) <= kResolved &&
        pathIsClear(from, clearFrom, q, surfaceDistance(q, reach), kProofSplits))
        return result(q);
    // No room there (a gap narrower than the body) or no provably free way: stay, pushed out
    // of whatever the old place overlaps (a body placed against a wall, a wall just drawn).
    Vec2 stay = from;
    if (pushOut(stay, from, radius) <= kResolved &&
        pathIsClear(from, clearFrom, stay, surfaceDistance(stay, reach), kProofSplits))
        return result(stay);
    return result(from);
}

} // namespace shoal
