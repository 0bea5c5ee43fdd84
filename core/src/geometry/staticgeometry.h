#pragma once
/// The level's static geometry (bounds, walls, obstacles) in metres: the solid obstacles
/// (circles, convex polygons) as Box2D static bodies, every wall and outline edge in plain
/// arrays of our own (a big level has hundreds of thousands: as Box2D fixtures with their
/// broad-phase proxies they took 300 MB), a bucket grid over both for ray casts, a coarse
/// clearance grid so that only agents near geometry pay for them, an edge list for the
/// exact, ray-independent crossing test used by the metrics, and the solid-body rule
/// (keepClear, in bodyclearance.cpp): a body's centre never comes closer to a surface than
/// its radius.

#include "kernels/prefetch.h"
#include <shoal/scenedesc.h>
#include <shoal/vec2.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

class b2Fixture;
class b2Shape;
class b2World;

namespace shoal {

class FlowOccupancy;

struct RayHit
{
    bool hit = false;
    Vec2 point;
    Vec2 normal;        ///< unit, pointing back toward the ray's origin side
    float fraction = 1; ///< along from -> to
};

/// What an agent does when its motion would hit geometry.
enum class WallResponse
{
    Stop,  ///< stay short of the surface
    Slide, ///< keep the motion's component along the surface
};

/// A wall or obstacle edge, for the exact crossing test and for drawing.
struct Segment
{
    Vec2 a;
    Vec2 b;
};

/// A ray as the item tests take it: from p1 toward p2, hits up to maxFraction count.
struct RayInput
{
    Vec2 p1;
    Vec2 p2;
    float maxFraction = 1.0f;
};

struct Circle
{
    Vec2 center;
    float radius = 0;
};

class StaticGeometry
{
public:
    explicit StaticGeometry(const SceneDesc& scene);
    ~StaticGeometry();
    StaticGeometry(const StaticGeometry&) = delete;
    StaticGeometry& operator=(const StaticGeometry&) = delete;

    /// Closest hit along from -> to, over the ray items (wall pieces, solid obstacles) the
    /// ray's box overlaps in the bucket grid: a short ray tests a handful; a long one walks
    /// its cells in stretches along the ray and stops at the first stretch with a hit.
    RayHit rayCast(Vec2 from, Vec2 to) const;
    /// The same query over every ray item, no buckets: the reference the tests compare with.
    RayHit rayCastEveryItem(Vec2 from, Vec2 to) const;

    /// Lower bound of the distance from `p` to any geometry (bounds included), capped at
    /// maxClearance(). An agent whose reach is below this cannot touch a wall: no ray needed.
    float clearance(Vec2 p) const
    {
        const float fx = (p.x - m_boundsMin.x) * m_invCell;
        const float fy = (p.y - m_boundsMin.y) * m_invCell;
        if (!(fx >= 0.0f && fy >= 0.0f && fx < m_colsF && fy < m_rowsF))
            return 0.0f; // outside the bounds (or NaN): always check
        // Through int: both are in [0, cells), and a signed conversion is one instruction.
        const int x = static_cast<int>(fx);
        const int y = static_cast<int>(fy);
        // Most of a level is open: its tile answers from a table that stays in cache, and
        // the grid's line (megabytes away at 100,000 agents) is read only near geometry.
        if (m_openTile[static_cast<std::size_t>(y >> kTileShift) *
                           static_cast<std::size_t>(m_tileCols) +
                       static_cast<std::size_t>(x >> kTileShift)])
            return kMaxClearance;
        return m_clearance[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_cols) +
                           static_cast<std::size_t>(x)];
    }
    bool mayReach(Vec2 p, float reach) const { return reach >= clearance(p); }
    static constexpr std::size_t kPrefetchAhead = 8;
    /// A hint, nothing more: clearance(p) will be asked soon. A loop over many bodies gives it
    /// a few bodies ahead, so the grid's cache line is on its way when that body's turn
    /// comes (at 100,000 bodies the grid is megabytes, and a loop that reads many arrays
    /// per body leaves the processor's own prefetching behind). Measured: the squad's plan
    /// gains (a tank per 20 m^2, so nearly every tank's line is a new one); the swarm's,
    /// the school's and the followers' lose a little, and do without.
    void prefetchClearance(Vec2 p) const
    {
        // (How far ahead: kPrefetchAhead bodies, about as many as a plan covers while a
        // line comes from memory.)
        const float fx = (p.x - m_boundsMin.x) * m_invCell;
        const float fy = (p.y - m_boundsMin.y) * m_invCell;
        if (!(fx >= 0.0f && fy >= 0.0f && fx < m_colsF && fy < m_rowsF))
            return;
        const int x = static_cast<int>(fx);
        const int y = static_cast<int>(fy);
        if (m_openTile[static_cast<std::size_t>(y >> kTileShift) *
                           static_cast<std::size_t>(m_tileCols) +
                       static_cast<std::size_t>(x >> kTileShift)])
            return; // answered without the grid
        const float* at = m_clearance.data() +
                          static_cast<std::size_t>(y) * static_cast<std::size_t>(m_cols) +
                          static_cast<std::size_t>(x);
        prefetchLine(at);
    }
    /// Asks for the clearance grid's lines over the box lo..hi: a small group's agents,
    /// one group ahead of its plan (Group::prefetchPlaces).
    void prefetchClearanceBox(Vec2 lo, Vec2 hi) const
    {
        prefetchBox(m_clearance.data(), m_cols, static_cast<int>(m_rowsF),
                    (lo.x - m_boundsMin.x) * m_invCell, (lo.y - m_boundsMin.y) * m_invCell,
                    (hi.x - m_boundsMin.x) * m_invCell, (hi.y - m_boundsMin.y) * m_invCell);
    }
    static constexpr float maxClearance() { return kMaxClearance; }

    /// Moves from `from` toward `to` and returns where the agent may end up: short of any
    /// surface by `clearance` metres (Stop), or along it (Slide). The result never crosses
    /// geometry: each returned motion has been checked by a ray that did not hit.
    /// `blocked` (optional) is set when geometry shortened the motion.
    Vec2 constrainMove(Vec2 from, Vec2 to, float clearance, WallResponse response,
                       bool* blocked = nullptr) const
    {
        return constrainMove(from, to, clearance, response, blocked, this->clearance(from));
    }
    /// Same, with `clearanceAtFrom` = clearance(from) already looked up by the caller.
    Vec2 constrainMove(Vec2 from, Vec2 to, float clearance, WallResponse response, bool* blocked,
                       float clearanceAtFrom) const
    {
        // The common case, inline: far from everything, the motion is free.
        const float room = clearanceAtFrom - moveReach(clearance);
        if (room > 0.0f && distanceSquared(from, to) < room * room) {
            if (blocked)
                *blocked = false;
            return to;
        }
        return constrainMoveNearGeometry(from, to, clearance, response, blocked);
    }

    /// How close to geometry a move that keeps `clearance` may start and still be free:
    /// constrainMove(from, to, ...) returns `to` untouched when |to - from| is less than
    /// clearance(from) - moveReach(clearance). Lets a caller test moves in bulk.
    static float moveReach(float clearance) { return clearance > kSkin ? clearance : kSkin; }

    /// Steering away from geometry ahead: up to three feelers (ahead and +/- 35 degrees) of
    /// `length` metres; each hit pushes along its normal, harder the nearer the hit.
    /// Zero (and no ray cast) when nothing is within reach.
    Vec2 feelerAvoidance(Vec2 position, Vec2 forward, float length) const
    {
        return feelerAvoidance(position, forward, length, clearance(position));
    }
    /// Same, with `clearanceHere` = clearance(position) already looked up by the caller.
    Vec2 feelerAvoidance(Vec2 position, Vec2 forward, float length, float clearanceHere) const
    {
        if (length <= 0.0f || length < clearanceHere)
            return {};
        return feelersNearGeometry(position, forward, length);
    }

    /// The feelers feelerAvoidance casts: ahead at full length and 35 degrees either side at
    /// 0.7 of it (viewers draw the same rays).
    struct Feelers
    {
        Vec2 direction[3];
        float length[3];
    };
    static Feelers feelers(Vec2 forward, float length);

    /// Solid bodies. Where a body of `radius` that was at `from` and was planned to `to` may
    /// end up: `to` itself when it is at least `radius` from every surface; else `to` pushed
    /// out of every surface nearer than `radius` (to the side the body came from); else, when
    /// that is impossible (a gap narrower than the body) or the way there is not provably
    /// free, `from` pushed out; else `from`. Every accepted motion is proved free of surfaces
    /// by distances alone (a path whose ends are d1 and d2 from every surface cannot touch one
    /// if it is shorter than d1 + d2; longer paths are split), so it never crosses geometry
    /// even where a ray would slip through a vertex. `adjusted` (optional) is set when the
    /// result differs from `to`.
    Vec2 keepClear(Vec2 from, Vec2 to, float radius, bool* adjusted = nullptr) const
    {
        return keepClear(from, to, radius, adjusted, clearance(from));
    }
    /// Whether keepClear(from, to, radius) would leave `to` as it is without a look-up: no
    /// surface is within `radius` of anywhere on the move, as `clearFrom` (a lower bound of
    /// the distance from `from` to any geometry) less the move's length shows (a millimetre
    /// covers rounding). A caller holding many clearances skips most bodies with it.
    static bool moveIsClear(float clearFrom, float radius, Vec2 from, Vec2 to)
    {
        const float room = clearFrom - radius - 1e-3f;
        const float dx = to.x - from.x, dy = to.y - from.y;
        return room > 0.0f && dx * dx + dy * dy < room * room;
    }
    /// Same, with `clearFrom` = clearance(from) already looked up by the caller.
    Vec2 keepClear(Vec2 from, Vec2 to, float radius, bool* adjusted, float clearFrom) const
    {
        // The common case, inline: both ends are far enough from everything (the lower
        // bounds of their clearances add up to more than the move).
        const float clearTo = clearance(to);
        const float sum = clearFrom + clearTo;
        if (clearTo >= radius && sum * sum > distanceSquared(from, to)) {
            if (adjusted)
                *adjusted = false;
            return to;
        }
        return keepClearNearGeometry(from, to, radius, adjusted);
    }

    /// Exact distance from p to the nearest surface (wall, obstacle outline, circle, bounds),
    /// or `reach` when none is nearer than that.
    float surfaceDistance(Vec2 p, float reach) const;
    /// The nearest surface point to p within `reach`, and the unit normal from it toward p
    /// (hit false when nothing is that near). Families that steer along a surface the
    /// solid-body rule stopped them at (the worm's head) read its direction here.
    RayHit nearestSurface(Vec2 p, float reach) const;
    /// How far a body of `radius` at p overlaps the nearest surface (0 when clear), m.
    float bodyOverlap(Vec2 p, float radius) const
    {
        if (clearance(p) >= radius)
            return 0.0f;
        const float d = surfaceDistance(p, radius);
        return d < radius ? radius - d : 0.0f;
    }

    /// Exact test (own edge list, not Box2D): does the segment a -> b cross any wall,
    /// obstacle edge, circle or the bounds? Used to count wall crossings.
    bool segmentCrosses(Vec2 a, Vec2 b) const;

    /// Inside an obstacle, or outside the bounds: not a valid place for an agent.
    bool isInsideSolid(Vec2 p, float margin = 0.0f) const;

    const std::vector<Segment>& segments() const { return m_segments; }
    const std::vector<Circle>& circles() const { return m_circles; }
    Vec2 boundsMin() const { return m_boundsMin; }
    Vec2 boundsMax() const { return m_boundsMax; }

    /// The free space of this level for bodies of `bodyRadius` m (see FlowOccupancy), built
    /// on the first request (a few milliseconds) and shared by every caller asking for the
    /// same radius: the flow fields of every group of that size. A replaced level
    /// (World::replaceGeometry) is a new StaticGeometry with occupancies of its own, so a
    /// field still holding an old one can tell. Occupancies nobody else holds any more are
    /// dropped when another is built. Safe to call from several threads at once (the
    /// followers' plans ask for theirs in parallel).
    std::shared_ptr<const FlowOccupancy> flowOccupancy(float bodyRadius) const;

    /// Ray casts made so far.
    std::uint64_t rayCastCount() const { return m_rayCasts.load(std::memory_order_relaxed); }
    /// Wall and outline pieces (edges split to at most kGeometryPieceLength) and solid
    /// obstacles: what ray casts test.
    std::size_t rayItemCount() const { return m_pieces.size() + m_solids.size(); }
    /// Bytes held by the arrays and grids of this geometry (Box2D's obstacle bodies aside).
    std::size_t memoryBytes() const;

private:
    Vec2 constrainMoveNearGeometry(Vec2 from, Vec2 to, float clearance, WallResponse response,
                                   bool* blocked) const;
    Vec2 feelersNearGeometry(Vec2 position, Vec2 forward, float length) const;
    Vec2 keepClearNearGeometry(Vec2 from, Vec2 to, float radius, bool* adjusted) const;
    float pushOut(Vec2& q, Vec2 from, float radius) const;
    bool pathIsClear(Vec2 a, float clearA, Vec2 b, float clearB, int splits) const;
    template <class F> void forEachFeatureNear(Vec2 p, float reach, F&& f) const;

    static constexpr float kMaxClearance = 6.0f;
    static constexpr float kSkin = 0.01f;
    void addEdgeChain(const std::vector<Vec2>& points, bool closed);
    void addSolid(const b2Shape& shape);
    void buildClearanceGrid();
    void buildEdgeBuckets();
    bool segmentCrossesSegment(Vec2 a, Vec2 b, const Segment& s) const;
    void buildRayBuckets();
    struct RayStamps;
    /// This thread's stamps for this geometry, ready for a new ray (see m_serial).
    RayStamps& rayStamps() const;
    /// Tests the ray items of cells [x0, x1] x [y0, y1] not yet tested by this ray.
    void rayCastCells(RayInput& ray, int x0, int y0, int x1, int y1, RayHit& best,
                      RayStamps& stamps) const;
    /// Tests one item; a hit nearer than ray.maxFraction becomes `best` and clips the ray.
    void rayCastItem(std::int32_t item, RayInput& ray, RayHit& best) const;

    std::unique_ptr<b2World> m_world; ///< the solid obstacles only
    Vec2 m_boundsMin;
    Vec2 m_boundsMax;
    std::vector<Segment> m_segments; ///< every edge (walls, polygons, bounds)
    std::vector<Circle> m_circles;
    std::vector<std::vector<Vec2>> m_solidPolygons; ///< obstacle outlines, for isInsideSolid

    // Clearance grid over the bounds (row-major), in metres.
    float m_cell = 1.0f;
    float m_invCell = 1.0f;
    int m_cols = 0;
    int m_rows = 0;
    float m_colsF = 0.0f;
    float m_rowsF = 0.0f;
    std::vector<float> m_clearance;
    /// Per tile of (1 << kTileShift)^2 clearance cells, row-major: 1 when every cell of the
    /// tile holds kMaxClearance (nothing within reach), so clearance() need not read them.
    static constexpr int kTileShift = 4;
    int m_tileCols = 0;
    std::vector<std::uint8_t> m_openTile;

    // Edge buckets over the same cells: indices into m_segments / m_circles (circles encoded
    // as ~index), for the exact crossing test and the distance queries.
    std::vector<std::uint32_t> m_bucketStart;
    std::vector<std::int32_t> m_bucketItems;

    // Ray items: two-sided wall and outline pieces (tested with Box2D's edge arithmetic,
    // so results are what its edge fixtures gave) and the solid obstacles' fixtures. Ray
    // buckets over the same cells list them as piece index or ~solid index, in the order
    // Box2D listed its fixtures (newest body first), which decides exact ties; a stamp per
    // item tests an item in several cells once per ray. The stamps are each thread's own
    // (plans cast rays on several threads at once), found by this geometry's serial number:
    // an address may be a new level's once the old one is gone, a serial never is.
    std::vector<Segment> m_pieces;
    std::vector<const b2Fixture*> m_solids;
    std::vector<std::int32_t> m_rayOrder; ///< every item in the order made (the build's)
    std::vector<std::uint32_t> m_rayStart;
    std::vector<std::int32_t> m_rayItems;
    std::uint64_t m_serial = 0;

    mutable std::atomic<std::uint64_t> m_rayCasts{0};

    /// flowOccupancy()'s cache, one per radius asked for, and its lock.
    mutable std::vector<std::shared_ptr<const FlowOccupancy>> m_occupancies;
    mutable std::mutex m_occupanciesLock;
};

} // namespace shoal
