#include "geometry/staticgeometry.h"
#include "geometry/flowfield.h"
#include "math/fastmath.h"
#include <shoal/scenelimits.h>

#include <box2d/box2d.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal {

namespace {

// Box2D's convex polygons hold at most this many vertices.
constexpr int kMaxPolygonVertices = b2_maxPolygonVertices;
// Rays whose box covers more bucket cells than this use Box2D's broad-phase instead.
constexpr float kMaxRayCells = 96.0f;

b2Vec2 toB2(Vec2 v)
{
    return {v.x, v.y};
}
Vec2 fromB2(const b2Vec2& v)
{
    return {v.x, v.y};
}
Vec2 toVec(const Point2& p)
{
    return {static_cast<float>(p.x), static_cast<float>(p.y)};
}

/// Whether Box2D takes these points as a convex polygon without tripping its asserts: it
/// welds vertices nearer than half its linear slop (fewer than 3 left is "degenerate") and
/// asserts the hull's area is above float epsilon. Slivers and near-duplicates stay outlines.
bool box2dTakesPolygon(const std::vector<Vec2>& pts)
{
    constexpr float kMinVertexGap = 4.0f * b2_linearSlop;
    constexpr double kMinArea = 1e-3; // m^2, thousands of times Box2D's epsilon
    for (std::size_t i = 0; i < pts.size(); ++i)
        for (std::size_t j = i + 1; j < pts.size(); ++j)
            if (distanceSquared(pts[i], pts[j]) < kMinVertexGap * kMinVertexGap)
                return false;
    double twiceArea = 0.0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const Vec2 a = pts[i], b = pts[(i + 1) % pts.size()];
        twiceArea += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
    }
    return std::fabs(twiceArea) * 0.5 >= kMinArea;
}

/// A ray against a two-sided edge, in exactly the arithmetic of Box2D 2.4's b2EdgeShape
/// (at the identity transform its fixtures had, written out so that signed zeros come out
/// the same): the walls' ray results did not move when they left Box2D. Normal points back
/// toward the ray's side.
bool twoSidedEdgeRayCast(const Segment& edge, const RayInput& ray, float& fraction, Vec2& normal)
{
    // The identity rotation's products, as b2MulT(q, v) makes them.
    const float p1x = 1.0f * ray.p1.x + 0.0f * ray.p1.y;
    const float p1y = -0.0f * ray.p1.x + 1.0f * ray.p1.y;
    const float p2x = 1.0f * ray.p2.x + 0.0f * ray.p2.y;
    const float p2y = -0.0f * ray.p2.x + 1.0f * ray.p2.y;
    const float dx = p2x - p1x, dy = p2y - p1y;
    const float ex = edge.b.x - edge.a.x, ey = edge.b.y - edge.a.y;
    float nx = ey, ny = -ex;
    const float length = std::sqrt(nx * nx + ny * ny);
    if (!(length < b2_epsilon)) {
        const float inv = 1.0f / length;
        nx *= inv;
        ny *= inv;
    }
    const float numerator = nx * (edge.a.x - p1x) + ny * (edge.a.y - p1y);
    const float denominator = nx * dx + ny * dy;
    if (denominator == 0.0f)
        return false;
    const float t = numerator / denominator;
    if (t < 0.0f || ray.maxFraction < t)
        return false;
    const float qx = p1x + t * dx, qy = p1y + t * dy;
    const float rr = ex * ex + ey * ey;
    if (rr == 0.0f)
        return false;
    const float s = ((qx - edge.a.x) * ex + (qy - edge.a.y) * ey) / rr;
    if (s < 0.0f || 1.0f < s)
        return false;
    fraction = t;
    // b2Mul(q, normal) at the identity rotation, negated when the ray starts on the far side.
    const float mx = 1.0f * nx - 0.0f * ny;
    const float my = 0.0f * nx + 1.0f * ny;
    normal = numerator > 0.0f ? Vec2(-mx, -my) : Vec2(mx, my);
    return true;
}

bool isConvex(const std::vector<Vec2>& pts)
{
    const std::size_t n = pts.size();
    if (n < 3)
        return false;
    int sign = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = pts[i], b = pts[(i + 1) % n], c = pts[(i + 2) % n];
        const float z = cross(b - a, c - b);
        if (std::fabs(z) < 1e-7f)
            continue;
        const int s = z > 0 ? 1 : -1;
        if (sign == 0)
            sign = s;
        else if (s != sign)
            return false;
    }
    return sign != 0;
}

float distanceToSegment(Vec2 p, Vec2 a, Vec2 b)
{
    const Vec2 ab = b - a;
    const float len2 = ab.lengthSquared();
    const float t = len2 > 0 ? clamp01(dot(p - a, ab) / len2) : 0.0f;
    return distance(p, a + ab * t);
}

bool pointInPolygon(Vec2 p, const std::vector<Vec2>& poly)
{
    bool inside = false;
    for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
        const Vec2 a = poly[i], b = poly[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x)
            inside = !inside;
    }
    return inside;
}

} // namespace

StaticGeometry::StaticGeometry(const SceneDesc& scene)
    : m_world(std::make_unique<b2World>(b2Vec2(0.0f, 0.0f)))
{
    static std::atomic<std::uint64_t> serials{0};
    m_serial = serials.fetch_add(1, std::memory_order_relaxed) + 1;
    m_boundsMin = toVec(scene.bounds.min);
    m_boundsMax = toVec(scene.bounds.max);

    // The bounds are a closed wall like any other: nothing leaves the level.
    addEdgeChain(
        {m_boundsMin, {m_boundsMax.x, m_boundsMin.y}, m_boundsMax, {m_boundsMin.x, m_boundsMax.y}},
        true);
    for (const WallDesc& wall : scene.walls) {
        std::vector<Vec2> pts;
        for (const Point2& p : wall.points)
            pts.push_back(toVec(p));
        addEdgeChain(pts, wall.closed);
    }
    for (const ObstacleDesc& obstacle : scene.obstacles) {
        if (obstacle.shape == ObstacleShape::Circle) {
            const Circle circle{toVec(obstacle.center), static_cast<float>(obstacle.radius)};
            m_circles.push_back(circle);
            b2CircleShape shape;
            shape.m_p = toB2(circle.center);
            shape.m_radius = circle.radius;
            addSolid(shape);
            continue;
        }
        std::vector<Vec2> pts;
        for (const Point2& p : obstacle.points)
            pts.push_back(toVec(p));
        m_solidPolygons.push_back(pts);
        if (isConvex(pts) && static_cast<int>(pts.size()) <= kMaxPolygonVertices &&
            box2dTakesPolygon(pts)) {
            // A solid convex shape: rays from outside hit it; its edges also go into the
            // exact crossing list.
            b2PolygonShape shape;
            std::vector<b2Vec2> verts;
            for (Vec2 v : pts)
                verts.push_back(toB2(v));
            shape.Set(verts.data(), static_cast<int>(verts.size()));
            addSolid(shape);
            for (std::size_t i = 0; i < pts.size(); ++i)
                m_segments.push_back({pts[i], pts[(i + 1) % pts.size()]});
            continue;
        }
        // Concave (or too many vertices): its outline as two-sided edges.
        addEdgeChain(pts, true);
    }
    buildClearanceGrid();
    buildEdgeBuckets();
    buildRayBuckets();
}

void StaticGeometry::addSolid(const b2Shape& shape)
{
    b2BodyDef def;
    b2Body* body = m_world->CreateBody(&def);
    m_rayOrder.push_back(~static_cast<std::int32_t>(m_solids.size()));
    m_solids.push_back(body->CreateFixture(&shape, 0.0f));
}

void StaticGeometry::buildRayBuckets()
{
    // Each item's box, as Box2D computed its fixture's: an edge's grown by its skin radius.
    const std::size_t items = m_rayOrder.size();
    std::vector<b2AABB> boxes(items);
    const b2Vec2 skin(b2_polygonRadius, b2_polygonRadius);
    for (std::size_t k = 0; k < items; ++k) {
        const std::int32_t item = m_rayOrder[k];
        if (item >= 0) {
            const Segment& piece = m_pieces[static_cast<std::size_t>(item)];
            boxes[k].lowerBound = b2Min(toB2(piece.a), toB2(piece.b)) - skin;
            boxes[k].upperBound = b2Max(toB2(piece.a), toB2(piece.b)) + skin;
        } else {
            const b2Fixture* fixture = m_solids[static_cast<std::size_t>(~item)];
            fixture->GetShape()->ComputeAABB(&boxes[k], fixture->GetBody()->GetTransform(), 0);
        }
    }
    auto cellRange = [&](const b2AABB& box, int& x0, int& y0, int& x1, int& y1) {
        x0 = std::max(0,
                      static_cast<int>(std::floor((box.lowerBound.x - m_boundsMin.x) * m_invCell)));
        y0 = std::max(0,
                      static_cast<int>(std::floor((box.lowerBound.y - m_boundsMin.y) * m_invCell)));
        x1 = std::min(m_cols - 1,
                      static_cast<int>(std::floor((box.upperBound.x - m_boundsMin.x) * m_invCell)));
        y1 = std::min(m_rows - 1,
                      static_cast<int>(std::floor((box.upperBound.y - m_boundsMin.y) * m_invCell)));
    };
    // Two passes (count, then fill), newest item first: the order Box2D kept its bodies and
    // fixtures in, so a ray through two items at exactly the same distance keeps the one it
    // kept before walls left Box2D.
    const std::size_t cells = static_cast<std::size_t>(m_cols) * m_rows;
    m_rayStart.assign(cells + 1, 0u);
    int x0, y0, x1, y1;
    for (const b2AABB& box : boxes) {
        cellRange(box, x0, y0, x1, y1);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                ++m_rayStart[static_cast<std::size_t>(y) * m_cols + x + 1];
    }
    for (std::size_t c = 0; c < cells; ++c)
        m_rayStart[c + 1] += m_rayStart[c];
    m_rayItems.assign(m_rayStart[cells], 0);
    std::vector<std::uint32_t> cursor(m_rayStart.begin(), m_rayStart.end() - 1);
    for (std::size_t k = items; k-- > 0;) {
        cellRange(boxes[k], x0, y0, x1, y1);
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                m_rayItems[cursor[static_cast<std::size_t>(y) * m_cols + x]++] = m_rayOrder[k];
    }
    std::vector<std::int32_t>().swap(m_rayOrder); // the build's only
}

StaticGeometry::~StaticGeometry() = default;

std::size_t StaticGeometry::memoryBytes() const
{
    auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    std::size_t total = bytes(m_segments) + bytes(m_circles) + bytes(m_clearance) +
                        bytes(m_openTile) + bytes(m_bucketStart) + bytes(m_bucketItems) +
                        bytes(m_pieces) + bytes(m_solids) + bytes(m_rayStart) + bytes(m_rayItems);
    for (const auto& polygon : m_solidPolygons)
        total += bytes(polygon);
    return total;
}

std::shared_ptr<const FlowOccupancy> StaticGeometry::flowOccupancy(float bodyRadius) const
{
    std::lock_guard<std::mutex> lock(m_occupanciesLock);
    for (const auto& occupancy : m_occupancies)
        if (occupancy->bodyRadius() == std::max(0.0f, bodyRadius))
            return occupancy;
    // A radius edited by dragging a slider asks for one occupancy per value it passes.
    m_occupancies.erase(std::remove_if(m_occupancies.begin(), m_occupancies.end(),
                                       [](const auto& o) { return o.use_count() == 1; }),
                        m_occupancies.end());
    m_occupancies.push_back(std::make_shared<const FlowOccupancy>(*this, bodyRadius));
    return m_occupancies.back();
}

void StaticGeometry::addEdgeChain(const std::vector<Vec2>& points, bool closed)
{
    if (points.size() < 2)
        return;
    const std::size_t edges = closed ? points.size() : points.size() - 1;
    for (std::size_t i = 0; i < edges; ++i) {
        const Vec2 a = points[i];
        const Vec2 b = points[(i + 1) % points.size()];
        m_segments.push_back({a, b});
        const float len = distance(a, b);
        if (len < 1e-6f)
            continue;
        // Long edges get split so each piece has a tight box in the ray buckets: a 100 m
        // bounds wall would otherwise be in the cells of every ray cast along it.
        // validateScene() bounds the pieces of a level (kMaxGeometryPieces); counted in
        // size_t, an edge of any length stays a defined number of them.
        const float count = std::ceil(len / static_cast<float>(kGeometryPieceLength));
        const std::size_t pieces = count > 1.0f ? static_cast<std::size_t>(count) : 1;
        for (std::size_t k = 0; k < pieces; ++k) {
            const Vec2 p0 = a + (b - a) * (static_cast<float>(k) / pieces);
            const Vec2 p1 = a + (b - a) * (static_cast<float>(k + 1) / pieces);
            m_rayOrder.push_back(static_cast<std::int32_t>(m_pieces.size()));
            m_pieces.push_back({p0, p1});
        }
    }
}

void StaticGeometry::buildClearanceGrid()
{
    const Vec2 size = m_boundsMax - m_boundsMin;
    m_cell = 1.0f;
    // Keep the grid within a few million cells on huge levels.
    while ((size.x / m_cell + 1.0f) * (size.y / m_cell + 1.0f) > 4.0e6f)
        m_cell *= 2.0f;
    m_cols = static_cast<int>(size.x / m_cell) + 1;
    m_rows = static_cast<int>(size.y / m_cell) + 1;
    m_invCell = 1.0f / m_cell;
    m_colsF = static_cast<float>(m_cols);
    m_rowsF = static_cast<float>(m_rows);
    m_clearance.assign(static_cast<std::size_t>(m_cols) * m_rows, kMaxClearance);

    const float halfDiagonal = m_cell * 0.70710678f;
    auto visit = [&](Vec2 lo, Vec2 hi, auto&& distanceAt) {
        const int x0 = std::max(
            0, static_cast<int>(std::floor((lo.x - kMaxClearance - m_boundsMin.x) / m_cell)));
        const int y0 = std::max(
            0, static_cast<int>(std::floor((lo.y - kMaxClearance - m_boundsMin.y) / m_cell)));
        const int x1 =
            std::min(m_cols - 1,
                     static_cast<int>(std::floor((hi.x + kMaxClearance - m_boundsMin.x) / m_cell)));
        const int y1 =
            std::min(m_rows - 1,
                     static_cast<int>(std::floor((hi.y + kMaxClearance - m_boundsMin.y) / m_cell)));
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x) {
                const Vec2 centre = m_boundsMin + Vec2((x + 0.5f) * m_cell, (y + 0.5f) * m_cell);
                // A lower bound for every point of the cell: centre distance minus half diagonal.
                const float d = std::max(0.0f, distanceAt(centre) - halfDiagonal);
                float& slot = m_clearance[static_cast<std::size_t>(y) * m_cols + x];
                slot = std::min(slot, d);
            }
    };
    for (const Segment& s : m_segments) {
        const Vec2 lo{std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)};
        const Vec2 hi{std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)};
        visit(lo, hi, [&](Vec2 c) { return distanceToSegment(c, s.a, s.b); });
    }
    for (const Circle& c : m_circles) {
        const Vec2 r{c.radius, c.radius};
        visit(c.center - r, c.center + r,
              [&](Vec2 p) { return std::fabs(distance(p, c.center) - c.radius); });
    }

    // Mark the tiles nothing reaches.
    m_tileCols = ((m_cols - 1) >> kTileShift) + 1;
    const int tileRows = ((m_rows - 1) >> kTileShift) + 1;
    m_openTile.assign(static_cast<std::size_t>(m_tileCols) * static_cast<std::size_t>(tileRows), 1);
    for (int y = 0; y < m_rows; ++y)
        for (int x = 0; x < m_cols; ++x)
            if (m_clearance[static_cast<std::size_t>(y) * m_cols + x] != kMaxClearance)
                m_openTile[static_cast<std::size_t>(y >> kTileShift) * m_tileCols +
                           (x >> kTileShift)] = 0;
}

void StaticGeometry::buildEdgeBuckets()
{
    const std::size_t cells = static_cast<std::size_t>(m_cols) * m_rows;
    m_bucketStart.assign(cells + 1, 0u);
    // Two passes (count, then fill) over the cells each item's box touches. No margin: the
    // queries map their boxes to cells the same monotonic way, so two boxes that overlap
    // share a cell (a cell of margin round each edge once made these lists 3x as long).
    auto forCells = [&](Vec2 lo, Vec2 hi, auto&& f) {
        const int x0 = std::max(0, static_cast<int>(std::floor((lo.x - m_boundsMin.x) / m_cell)));
        const int y0 = std::max(0, static_cast<int>(std::floor((lo.y - m_boundsMin.y) / m_cell)));
        const int x1 =
            std::min(m_cols - 1, static_cast<int>(std::floor((hi.x - m_boundsMin.x) / m_cell)));
        const int y1 =
            std::min(m_rows - 1, static_cast<int>(std::floor((hi.y - m_boundsMin.y) / m_cell)));
        for (int y = y0; y <= y1; ++y)
            for (int x = x0; x <= x1; ++x)
                f(static_cast<std::size_t>(y) * m_cols + x);
    };
    auto boxOfSegment = [](const Segment& s, Vec2& lo, Vec2& hi) {
        lo = {std::min(s.a.x, s.b.x), std::min(s.a.y, s.b.y)};
        hi = {std::max(s.a.x, s.b.x), std::max(s.a.y, s.b.y)};
    };
    Vec2 lo, hi;
    for (const Segment& s : m_segments) {
        boxOfSegment(s, lo, hi);
        forCells(lo, hi, [&](std::size_t c) { ++m_bucketStart[c + 1]; });
    }
    for (const Circle& c : m_circles)
        forCells(c.center - Vec2(c.radius, c.radius), c.center + Vec2(c.radius, c.radius),
                 [&](std::size_t cell) { ++m_bucketStart[cell + 1]; });
    for (std::size_t c = 0; c < cells; ++c)
        m_bucketStart[c + 1] += m_bucketStart[c];
    m_bucketItems.assign(m_bucketStart[cells], 0);
    std::vector<std::uint32_t> cursor(m_bucketStart.begin(), m_bucketStart.end() - 1);
    for (std::size_t i = 0; i < m_segments.size(); ++i) {
        boxOfSegment(m_segments[i], lo, hi);
        forCells(lo, hi,
                 [&](std::size_t c) { m_bucketItems[cursor[c]++] = static_cast<std::int32_t>(i); });
    }
    for (std::size_t i = 0; i < m_circles.size(); ++i) {
        const Circle& c = m_circles[i];
        forCells(c.center - Vec2(c.radius, c.radius), c.center + Vec2(c.radius, c.radius),
                 [&](std::size_t cell) {
                     m_bucketItems[cursor[cell]++] = ~static_cast<std::int32_t>(i);
                 });
    }
}

/// One thread's stamps for the rays it casts in one geometry.
struct StaticGeometry::RayStamps
{
    std::uint64_t serial = 0; ///< the geometry's (0: none yet)
    std::uint64_t lastUse = 0;
    std::uint32_t stamp = 0;
    std::vector<std::uint32_t> piece, solid;
};

StaticGeometry::RayStamps& StaticGeometry::rayStamps() const
{
    // A few geometries per thread (an editor runs a world and a comparison, tests many in
    // turn): the least recently used is the one replaced.
    constexpr std::size_t kKept = 4;
    thread_local RayStamps kept[kKept];
    thread_local std::uint64_t uses = 0;
    RayStamps* stamps = &kept[0];
    for (RayStamps& s : kept) {
        if (s.serial == m_serial) {
            stamps = &s;
            break;
        }
        if (s.lastUse < stamps->lastUse)
            stamps = &s;
    }
    stamps->lastUse = ++uses;
    if (stamps->serial != m_serial) {
        stamps->serial = m_serial;
        stamps->stamp = 0;
        stamps->piece.assign(m_pieces.size(), 0u);
        stamps->solid.assign(m_solids.size(), 0u);
    }
    if (++stamps->stamp == 0) {
        std::fill(stamps->piece.begin(), stamps->piece.end(), 0u);
        std::fill(stamps->solid.begin(), stamps->solid.end(), 0u);
        stamps->stamp = 1;
    }
    return *stamps;
}

RayHit StaticGeometry::rayCast(Vec2 from, Vec2 to) const
{
    m_rayCasts.fetch_add(1, std::memory_order_relaxed);
    if (distanceSquared(from, to) < 1e-12f)
        return {};
    RayStamps& stamps = rayStamps();
    RayInput ray{from, to, 1.0f};
    RayHit best;
    const float fx0 = (std::min(from.x, to.x) - m_boundsMin.x) * m_invCell;
    const float fy0 = (std::min(from.y, to.y) - m_boundsMin.y) * m_invCell;
    const float fx1 = (std::max(from.x, to.x) - m_boundsMin.x) * m_invCell;
    const float fy1 = (std::max(from.y, to.y) - m_boundsMin.y) * m_invCell;
    const bool inside = fx0 >= 0.0f && fy0 >= 0.0f && fx1 < m_colsF && fy1 < m_rowsF;
    if (inside && (fx1 - fx0 + 2.0f) * (fy1 - fy0 + 2.0f) <= kMaxRayCells) {
        // A short ray: the cells of its box.
        rayCastCells(ray, static_cast<int>(fx0), static_cast<int>(fy0), static_cast<int>(fx1),
                     static_cast<int>(fy1), best, stamps);
    } else {
        // A long ray (or one leaving the level): stretches of about a cell along it, each the
        // cells of its box grown by a cell (so rounding of the stretch's ends loses nothing;
        // items and rays outside the level sit in its border cells). An item the ray hits has
        // the hit point in its box, so it is tested by the time the walk passes the point:
        // once a stretch has ended with a hit, no later stretch can hold a nearer one.
        const float span = std::max(fx1 - fx0, fy1 - fy0);
        const float stretches = std::min(std::ceil(span), 4096.0f);
        const int count = std::max(1, static_cast<int>(stretches));
        auto cellOf = [](float f, int cells) {
            return static_cast<int>(std::clamp(std::floor(f), -1.0f, static_cast<float>(cells)));
        };
        for (int k = 0; k < count; ++k) {
            const float t0 = static_cast<float>(k) / static_cast<float>(count);
            const float t1 = static_cast<float>(k + 1) / static_cast<float>(count);
            if (best.hit && best.fraction <= t0)
                break;
            const Vec2 a = from + (to - from) * t0;
            const Vec2 b = k + 1 == count ? to : from + (to - from) * t1;
            const int x0 = cellOf((std::min(a.x, b.x) - m_boundsMin.x) * m_invCell, m_cols) - 1;
            const int y0 = cellOf((std::min(a.y, b.y) - m_boundsMin.y) * m_invCell, m_rows) - 1;
            const int x1 = cellOf((std::max(a.x, b.x) - m_boundsMin.x) * m_invCell, m_cols) + 1;
            const int y1 = cellOf((std::max(a.y, b.y) - m_boundsMin.y) * m_invCell, m_rows) + 1;
            rayCastCells(ray, std::max(0, x0), std::max(0, y0), std::min(m_cols - 1, x1),
                         std::min(m_rows - 1, y1), best, stamps);
        }
    }
    if (best.hit)
        best.point = from + (to - from) * best.fraction;
    return best;
}

void StaticGeometry::rayCastCells(RayInput& ray, int x0, int y0, int x1, int y1, RayHit& best,
                                  RayStamps& stamps) const
{
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const std::size_t c = static_cast<std::size_t>(y) * m_cols + x;
            for (std::uint32_t k = m_rayStart[c]; k < m_rayStart[c + 1]; ++k) {
                const std::int32_t item = m_rayItems[k];
                std::uint32_t& stamp = item >= 0 ? stamps.piece[static_cast<std::size_t>(item)]
                                                 : stamps.solid[static_cast<std::size_t>(~item)];
                if (stamp == stamps.stamp)
                    continue;
                stamp = stamps.stamp;
                rayCastItem(item, ray, best);
            }
        }
}

void StaticGeometry::rayCastItem(std::int32_t item, RayInput& ray, RayHit& best) const
{
    if (item < 0) {
        b2RayCastInput input;
        input.p1 = toB2(ray.p1);
        input.p2 = toB2(ray.p2);
        input.maxFraction = ray.maxFraction;
        b2RayCastOutput output;
        if (m_solids[static_cast<std::size_t>(~item)]->RayCast(&output, input, 0) &&
            output.fraction < ray.maxFraction) {
            // Clip the ray to this hit: later items must be nearer to count.
            ray.maxFraction = output.fraction;
            best.hit = true;
            best.fraction = output.fraction;
            best.normal = fromB2(output.normal);
        }
        return;
    }
    float fraction;
    Vec2 normal;
    if (twoSidedEdgeRayCast(m_pieces[static_cast<std::size_t>(item)], ray, fraction, normal) &&
        fraction < ray.maxFraction) {
        ray.maxFraction = fraction;
        best.hit = true;
        best.fraction = fraction;
        best.normal = normal;
    }
}

RayHit StaticGeometry::rayCastEveryItem(Vec2 from, Vec2 to) const
{
    if (distanceSquared(from, to) < 1e-12f)
        return {};
    RayInput ray{from, to, 1.0f};
    RayHit best;
    for (std::size_t k = 0; k < m_pieces.size(); ++k)
        rayCastItem(static_cast<std::int32_t>(k), ray, best);
    for (std::size_t k = 0; k < m_solids.size(); ++k)
        rayCastItem(~static_cast<std::int32_t>(k), ray, best);
    if (best.hit)
        best.point = from + (to - from) * best.fraction;
    return best;
}

Vec2 StaticGeometry::constrainMoveNearGeometry(Vec2 from, Vec2 to, float clearanceWanted,
                                               WallResponse response, bool* blocked) const
{
    if (blocked)
        *blocked = false;
    // At least a centimetre of skin: an agent never comes to rest exactly on a surface, where
    // rounding could put it on the far side.
    clearanceWanted = std::max(clearanceWanted, kSkin);
    const Vec2 motion = to - from;
    const float length = motion.length();
    if (length < 1e-7f)
        return from;
    if (!mayReach(from, length + clearanceWanted))
        return to;
    const Vec2 dir = motion / length;
    const RayHit hit = rayCast(from, to + dir * clearanceWanted);
    if (!hit.hit)
        return to;
    if (blocked)
        *blocked = true;
    const float hitDistance = hit.fraction * (length + clearanceWanted);
    const float allowed = std::max(0.0f, hitDistance - clearanceWanted);
    const Vec2 stopAt = from + dir * std::min(allowed, length);
    if (response == WallResponse::Stop)
        return stopAt;

    // Slide: keep what is left of the motion along the surface, and check that leg too.
    const Vec2 remaining = to - stopAt;
    const Vec2 along = remaining - hit.normal * dot(remaining, hit.normal);
    const float alongLength = along.length();
    if (alongLength < 1e-6f)
        return stopAt;
    const Vec2 alongDir = along / alongLength;
    const RayHit second = rayCast(stopAt, stopAt + along + alongDir * clearanceWanted);
    if (!second.hit)
        return stopAt + along;
    const float secondAllowed =
        std::max(0.0f, second.fraction * (alongLength + clearanceWanted) - clearanceWanted);
    return stopAt + alongDir * std::min(secondAllowed, alongLength);
}

StaticGeometry::Feelers StaticGeometry::feelers(Vec2 forward, float length)
{
    static const float c = std::cos(degToRad(35.0f));
    static const float s = std::sin(degToRad(35.0f));
    return {{forward, rotated(forward, c, s), rotated(forward, c, -s)},
            {length, length * 0.7f, length * 0.7f}};
}

Vec2 StaticGeometry::feelersNearGeometry(Vec2 position, Vec2 forward, float length) const
{
    const Feelers rays = feelers(forward, length);
    Vec2 push;
    for (int k = 0; k < 3; ++k) {
        const RayHit hit = rayCast(position, position + rays.direction[k] * rays.length[k]);
        if (hit.hit)
            push += hit.normal * (1.0f - hit.fraction);
    }
    return push;
}

bool StaticGeometry::segmentCrossesSegment(Vec2 a, Vec2 b, const Segment& s) const
{
    const Vec2 r = b - a;
    const Vec2 q = s.b - s.a;
    const float denom = cross(r, q);
    if (std::fabs(denom) < 1e-12f)
        return false; // parallel: sliding along a wall is not crossing it
    const float t = cross(s.a - a, q) / denom;
    const float u = cross(s.a - a, r) / denom;
    // Strictly inside both: touching the surface is not crossing it.
    return t > 1e-6f && t < 1.0f - 1e-6f && u >= 0.0f && u <= 1.0f;
}

bool StaticGeometry::segmentCrosses(Vec2 a, Vec2 b) const
{
    const Vec2 lo{std::min(a.x, b.x), std::min(a.y, b.y)};
    const Vec2 hi{std::max(a.x, b.x), std::max(a.y, b.y)};
    const int x0 = std::max(0, static_cast<int>(std::floor((lo.x - m_boundsMin.x) / m_cell)));
    const int y0 = std::max(0, static_cast<int>(std::floor((lo.y - m_boundsMin.y) / m_cell)));
    const int x1 =
        std::min(m_cols - 1, static_cast<int>(std::floor((hi.x - m_boundsMin.x) / m_cell)));
    const int y1 =
        std::min(m_rows - 1, static_cast<int>(std::floor((hi.y - m_boundsMin.y) / m_cell)));
    if (!(a.x >= m_boundsMin.x && a.x <= m_boundsMax.x && a.y >= m_boundsMin.y &&
          a.y <= m_boundsMax.y) ||
        !(b.x >= m_boundsMin.x && b.x <= m_boundsMax.x && b.y >= m_boundsMin.y &&
          b.y <= m_boundsMax.y)) {
        // Leaving the level crosses the bounds (unless both ends are outside it already).
        const bool aIn = a.x >= m_boundsMin.x && a.x <= m_boundsMax.x && a.y >= m_boundsMin.y &&
                         a.y <= m_boundsMax.y;
        const bool bIn = b.x >= m_boundsMin.x && b.x <= m_boundsMax.x && b.y >= m_boundsMin.y &&
                         b.y <= m_boundsMax.y;
        if (aIn != bIn)
            return true;
    }
    for (int y = y0; y <= y1; ++y)
        for (int x = x0; x <= x1; ++x) {
            const std::size_t c = static_cast<std::size_t>(y) * m_cols + x;
            for (std::uint32_t k = m_bucketStart[c]; k < m_bucketStart[c + 1]; ++k) {
                const std::int32_t item = m_bucketItems[k];
                if (item >= 0) {
                    if (segmentCrossesSegment(a, b, m_segments[static_cast<std::size_t>(item)]))
                        return true;
                } else {
                    const Circle& circle = m_circles[static_cast<std::size_t>(~item)];
                    const float r2 = circle.radius * circle.radius;
                    const bool aInside = distanceSquared(a, circle.center) < r2 * (1.0f - 1e-4f);
                    const bool bInside = distanceSquared(b, circle.center) < r2 * (1.0f - 1e-4f);
                    if (aInside != bInside)
                        return true;
                    if (!aInside && !bInside &&
                        distanceToSegment(circle.center, a, b) < circle.radius * (1.0f - 1e-3f))
                        return true; // passed straight through the disc
                }
            }
        }
    return false;
}

bool StaticGeometry::isInsideSolid(Vec2 p, float margin) const
{
    if (p.x < m_boundsMin.x + margin || p.x > m_boundsMax.x - margin ||
        p.y < m_boundsMin.y + margin || p.y > m_boundsMax.y - margin)
        return true;
    for (const Circle& c : m_circles)
        if (distanceSquared(p, c.center) < (c.radius + margin) * (c.radius + margin))
            return true;
    for (const auto& poly : m_solidPolygons)
        if (pointInPolygon(p, poly))
            return true;
    if (margin > 0.0f && clearance(p) < margin)
        for (const Segment& s : m_segments)
            if (distanceToSegment(p, s.a, s.b) < margin)
                return true;
    return false;
}

} // namespace shoal
