#pragma once
/// Routing round static geometry for goal-seeking groups: the level's free space for one body
/// radius on a grid (FlowOccupancy, built once per geometry and radius, shared), and per goal
/// a flow field over it (FlowField): the path length to the goal and the direction to follow
/// from every cell, so a whole group routes with one lookup per agent.

#include "scene/routebudget.h"

#include <shoal/vec2.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace shoal {

class StaticGeometry;
class FlowField;

/// Where a body of one radius can be: a grid over the level's bounds whose cell is free when
/// its centre keeps inflation() metres from every wall, obstacle and the bounds (exact
/// distances to segments and circles, and nothing inside a solid polygon), the legal
/// 8-neighbour moves between free cells, and for each blocked cell near free space the free
/// cell a body there escapes to. Immutable once built: the FlowFields of several goals (or
/// groups of the same radius) share one. Rebuild it when the geometry changes. It also knows
/// the fields routes over it hold (fieldFor()), so groups heading for the same cell share
/// one field instead of each keeping a copy.
class FlowOccupancy
{
public:
    /// The cell size the two-argument constructor uses: half the body radius, clamped to
    /// [0.5 m, 1 m] (finer costs a rebuild more than a step affords on a 100 m level), grown
    /// by powers of two until the level has at most kMaxCells cells.
    static float cellSizeFor(float bodyRadius, Vec2 levelSize);
    static constexpr std::size_t kMaxCells = kMaxRouteCells;
    /// The clearance a free cell's centre keeps beyond the body radius, as a fraction of it:
    /// paths stay off the surfaces, and a door exactly 2 radii wide stays shut.
    static constexpr float kMarginFraction = 0.05f;

    /// `bodyRadius` in metres (>= 0); the cell size from cellSizeFor(). Allocates and costs
    /// a few milliseconds: build it when the level or the radius changes, not per step.
    FlowOccupancy(const StaticGeometry& geometry, float bodyRadius);
    /// Same, with `cellSize` metres (> 0) chosen by the caller.
    FlowOccupancy(const StaticGeometry& geometry, float bodyRadius, float cellSize);
    /// A window of `level`: its whole cells that overlap [windowMin, windowMax] (at least one
    /// cell, clipped to the level), with the same radius, inflation and cells. Routes over it
    /// never leave the window (its edge is blocked, like the bounds), and a blocked cell whose
    /// escape lies outside it escapes nowhere. A copy, with no geometry queries: cheap enough
    /// to follow a goal that keeps moving (a 32 m window of 0.5 m cells: a few microseconds).
    FlowOccupancy(const FlowOccupancy& level, Vec2 windowMin, Vec2 windowMax);

    float bodyRadius() const { return m_radius; }
    /// How far a free cell's centre is from all geometry, m: (1 + kMarginFraction) *
    /// sqrt(r^2 + (cell / 2)^2), at least 0.75 cell. So a door (or any gap) narrower than
    /// 2 radii is always shut, no move between free cells crosses geometry, and a gap is
    /// always open when wider than 2 * inflation + cell (along an axis) or + 1.41 cell (at
    /// any angle): with the default cells, 3 radii for bodies of 1 m and more, about 1.4 m
    /// and 1.6 m for a 0.35 m body. Gaps in between open or shut with the grid's alignment.
    float inflation() const { return m_inflation; }
    float cellSize() const { return m_cell; }
    /// The corner of cell (0, 0): the bounds' minimum corner. Cell (c, r) spans
    /// origin + [c, c + 1) x [r, r + 1) cells.
    Vec2 origin() const { return m_place.origin; }
    int columns() const { return m_place.cols; }
    int rows() const { return m_place.rows; }
    bool blocked(int column, int row) const { return m_free[slot(column, row)] == 0; }
    Vec2 cellCentre(int column, int row) const
    {
        return {m_place.origin.x + (static_cast<float>(column) + 0.5f) * m_cell,
                m_place.origin.y + (static_cast<float>(row) + 0.5f) * m_cell};
    }
    std::size_t freeCellCount() const { return m_freeCount; }
    /// Whether p lies on the grid (cell (0, 0) to (columns - 1, rows - 1)).
    bool contains(Vec2 p) const { return placement().contains(p); }
    /// Whether a body's centre may be at p: p is on the grid and its cell is free.
    bool freeAt(Vec2 p) const { return contains(p) && m_free[slotAt(p)] != 0; }
    /// Whether the segment from the centre of cell (`column`, `row`) of the grid to the
    /// centre of the cell (dx, dy) cells away runs through free cells only (so it keeps at
    /// least inflation() - 0.71 cell from geometry); false when it leaves the grid.
    bool lineOfSight(int column, int row, int dx, int dy) const
    {
        return lineOfSight(slot(column, row), dx, dy);
    }
    std::size_t memoryBytes() const;

    /// The free slot a goal at p routes to: p's cell when free, else the free cell it escapes
    /// to, else the free cell whose centre is nearest (ties to the lower slot); -1 when no
    /// cell is free. A field's content depends on nothing else of its goal.
    int goalSlotFor(Vec2 p) const { return snapGoal(slotAt(p)); }
    /// A field over this occupancy that leads to `goalSlot` and that some route still holds,
    /// or null. Fields are found only once registered with addField().
    std::shared_ptr<FlowField> fieldFor(int goalSlot) const;
    /// Makes `field` (over this occupancy) findable by fieldFor() for as long as a route
    /// holds it. Fields nobody holds any more are dropped when another is added.
    void addField(const std::shared_ptr<FlowField>& field) const;

    /// Where the grid lies: the maths of contains() and of finding a point's slot, in a value
    /// a loop over many points can keep in registers (FlowField::Cells).
    struct Placement
    {
        Vec2 origin;
        float invCell = 1.0f;
        float colsF = 0.0f;
        float rowsF = 0.0f;
        int cols = 0;
        int rows = 0;
        int stride = 0;

        bool contains(Vec2 p) const
        {
            const float fx = (p.x - origin.x) * invCell, fy = (p.y - origin.y) * invCell;
            return fx >= 0.0f && fy >= 0.0f && fx < colsF && fy < rowsF;
        }
        /// The slot of the cell holding p; points outside the grid (and NaN) clamp to the
        /// border.
        int slotAt(Vec2 p) const
        {
            const float fx = (p.x - origin.x) * invCell;
            const float fy = (p.y - origin.y) * invCell;
            const int column = fx >= 0.0f ? (fx < colsF ? static_cast<int>(fx) : cols - 1) : 0;
            const int row = fy >= 0.0f ? (fy < rowsF ? static_cast<int>(fy) : rows - 1) : 0;
            return (row + 1) * stride + column + 1;
        }
    };
    const Placement& placement() const { return m_place; }

private:
    friend class FlowField;

    // The grid is stored with a one-cell blocked frame (stride = columns + 2), so every
    // neighbour of an inner cell is a valid slot and the search needs no bounds tests.
    int slot(int column, int row) const { return (row + 1) * m_place.stride + column + 1; }
    /// The slot of the cell holding p; points outside the grid (and NaN) clamp to the border.
    int slotAt(Vec2 p) const { return placement().slotAt(p); }
    /// The row of slot s in the framed grid, without an integer division: s + 0.5 keeps the
    /// quotient at least half a slot from a whole number, far beyond double rounding.
    int rowOf(int s) const { return static_cast<int>((s + 0.5) * m_invStride); }
    Vec2 slotCentre(int s) const
    {
        const int row = rowOf(s);
        return cellCentre(s - row * m_place.stride - 1, row - 1);
    }
    /// Slot `to` less slot `from` in whole cells, (dx, dy).
    void offsetBetween(int from, int to, int& dx, int& dy) const
    {
        const int rowFrom = rowOf(from), rowTo = rowOf(to);
        dx = (to - rowTo * m_place.stride) - (from - rowFrom * m_place.stride);
        dy = rowTo - rowFrom;
    }
    bool innerSlot(int s) const
    {
        const int row = s / m_place.stride, column = s - row * m_place.stride;
        return row >= 1 && row <= m_place.rows && column >= 1 && column <= m_place.cols;
    }

    int snapGoal(int rawSlot) const;
    void markNearGeometry(const StaticGeometry& geometry);
    void clearSolidInteriors(const StaticGeometry& geometry);
    /// Places the grid (its cells' origin and count) and returns its slot count, frame
    /// included.
    std::size_t place(Vec2 origin, int columns, int rows);
    void buildMoves();
    void buildClearance();
    bool lineOfSight(int fromSlot, int dx, int dy) const;
    void buildEscapes(const StaticGeometry& geometry);

    float m_radius = 0.0f;
    float m_inflation = 0.0f;
    float m_cell = 1.0f;
    Placement m_place; ///< where the grid lies (origin, cell count, stride)
    double m_invStride = 1.0;
    std::size_t m_freeCount = 0;
    int m_offset[8] = {}; ///< slot offsets of the 8 neighbours (FlowField's move order)

    /// The fields of goals over this free space that routes hold (fieldFor()). Not part of
    /// what the occupancy is: a registry. Routes that share fields update in their group's
    /// preparation, which the step runs on one thread (Behaviour::preparePlan).
    mutable std::vector<std::weak_ptr<FlowField>> m_fields;

    std::vector<std::uint8_t> m_free;  ///< per slot: 1 when a body's centre may be there
    std::vector<std::uint8_t> m_moves; ///< per slot: bit k = the move to neighbour k is legal
    /// Per slot: the Chebyshev distance in cells to the nearest blocked cell (0 if blocked),
    /// at most 255: how far a line of sight may jump.
    std::vector<std::uint8_t> m_clearance;
    /// Per slot: the free slot whose field a body here follows: itself when free; for a
    /// blocked cell within reach of free space, a free cell reached from its centre without
    /// crossing geometry; else slot 0, a frame slot that is never reachable.
    std::vector<std::int32_t> m_escape;
};

/// A flow field toward one goal over a FlowOccupancy: for every cell, the length of the
/// shortest path to the goal that keeps the body's clearance, and the unit direction to
/// follow, pointing straight at the goal (or at the corner to round next) when that is in
/// sight, so agents do not zig-zag along grid diagonals. One field serves a whole group.
///
/// setGoal() recomputes only when the goal moves to another cell: a Dijkstra search over
/// 8-neighbour moves (1 and sqrt 2 cells; no diagonal past a blocked cell) run with two FIFO
/// queues orders the cells; as each settles it takes an "anchor", the point it heads for:
/// its parent's anchor (the goal cell, or the corner cell the route bends at) when that is
/// in line of sight, else, at the edge of a shadow, the best anchor in sight among its
/// neighbours' (or a neighbour itself). Distances run through the anchors (any-angle, not
/// grid steps). Deterministic (no threads, no hashing, fixed visiting order), and no
/// allocation after construction: every buffer is sized for the occupancy once.
///
/// A field need not cover the whole level. Dijkstra settles cells in increasing cost, and a
/// cell's anchor and distance depend only on cells settled before it, so a search stopped at
/// a cost (its horizon) leaves every cell it settled exactly as the whole search would: what
/// a group reads where its agents are is bit for bit the same, at the cost of the region
/// between them and the goal instead of the level. A route asks for that (want(): the cells
/// of its agents, wantReach(): a disc round the goal): the search grows by steps until those
/// are settled, then goes a margin further (kHorizonMargin), so agents walk
/// for a while before one leaves it. A plan that looks up a cell beyond the horizon heads
/// straight for the goal that once and says so (FlowRoute::Cells::bends): the next step's
/// aiming widens the field. The horizon is a rung of a fixed ladder (horizonAtLeast), so the
/// settled cells depend on what was wanted, not on in what order routes asked.
///
/// On a level bigger than one slice (sliced(): more free cells than kSliceCells) a search a
/// step aims at a new goal runs in slices instead (computeSlice, World::computeRoutes): at
/// most kSliceCells cells a step in each of kSliceLanes lanes, so no step pays a whole
/// level's search (50-60 ms on a level of a million cells; a slice takes 5-8 ms).
/// Meanwhile the field still reads as the last search left it (the search writes buffers of
/// its own, geometry/searchbuffers.h, swapped in when it lands): a group follows its old way
/// for the few steps the new one takes. The cut is by cell count, never by time, so the same
/// scene runs the same on any machine and any number of threads; a search's cells are
/// settled in the same order however it is cut.
class FlowField
{
public:
    /// A field with its own occupancy for `bodyRadius` metres over `geometry`.
    FlowField(const StaticGeometry& geometry, float bodyRadius);
    /// A field over a shared occupancy (several goals of the same radius).
    explicit FlowField(std::shared_ptr<const FlowOccupancy> occupancy);
    ~FlowField();

    /// Cells a lane settles per step (see the class comment), and the lanes a step runs.
    static constexpr std::uint64_t kSliceCells = std::uint64_t(1) << 17;
    static constexpr std::size_t kSliceLanes = 2;
    static constexpr std::uint64_t kNoBudget = ~std::uint64_t(0);
    /// Whether a search over this field's occupancy may take more than one slice: it has
    /// more free cells than kSliceCells. A smaller field is always computed at once.
    bool sliced() const { return m_occupancy->freeCellCount() > kSliceCells; }
    /// aimed() at a new goal, or asked to widen (requestWidening), with a search that runs
    /// in slices (sliced()).
    bool slicing() const { return (m_aimed || m_widen) && sliced(); }
    /// Adds the field to `aimed` (a step's list of fields to compute) unless it is there
    /// already this step: until it is computed, or World::computeRoutes calls dequeued()
    /// on it (it waits behind other searches in slices).
    void enqueue(std::vector<FlowField*>& aimed)
    {
        if (!m_enqueued) {
            m_enqueued = true;
            aimed.push_back(this);
        }
    }
    void dequeued() { m_enqueued = false; }
    /// The world's order for searches in slices (oldest first), 0 before the first step that
    /// lists the field. Kept until the search lands, through a new goal aimed meanwhile.
    std::uint64_t queueOrder() const { return m_queueOrder; }
    void setQueueOrder(std::uint64_t order) { m_queueOrder = order; }
    /// Part of a search in slices stopped at a slice's end and waits for the next.
    bool searching() const { return m_flight != nullptr; }
    /// Goes on with the search aimed() at (starting it if it has not), settling at most
    /// `budget` cells (kNoBudget: to the end), or computes a widening whole; returns the
    /// cells it settled of the budget. When the search ends it lands: the field reads as
    /// the new goal's from then on.
    std::uint64_t computeSlice(std::uint64_t budget);
    /// Whether the field leads as well to `goal` as to the cell it was built for, on a level
    /// where a new search is dear: the goal's cell (as it routes, see goalSlotFor) is that
    /// cell, or a free cell within `metres` of it in its line of sight (bodies following the
    /// field come into sight of the one and then see the other). False while a search for
    /// another goal is queued.
    bool leadsNear(Vec2 goal, float metres) const;
    /// Whether a search landed since the field was made (or its goal cleared), and the goal
    /// it was for: what the field reads as while a new one runs.
    bool landed() const { return m_landed; }
    Vec2 landedGoal() const { return m_landedGoal; }
    /// A search in slices that has not landed, as World::snapshot() keeps it: its goal, what
    /// it was asked to reach, how it climbs the horizon's ladder, how many cells it has
    /// settled and its place in the world's queue. restoreSearch() rebuilds it exactly.
    struct QueuedSearch
    {
        bool widening = false; ///< of the goal landed (else a new goal's)
        Vec2 goal;
        std::vector<std::int32_t> wanted;
        float wantedCost = 0.0f;
        float start = 0.0f;
        bool grow = false;
        std::uint64_t settled = 0; ///< 0: not started
        std::uint64_t order = 0;
    };
    QueuedSearch queuedSearch() const;
    /// Aims the field at `search.goal` (or asks it to widen) and settles the same cells its
    /// search had, so the next slice goes on exactly as the saved one would have (it reads
    /// as before: only the search's own buffers are written).
    void restoreSearch(const QueuedSearch& search);

    /// Routes to `goal` (m). Recomputes the field only when the goal's cell differs from the
    /// last one (returns true when it did): the field depends on the goal's cell, not on
    /// where in it the goal is. A goal whose cell is blocked (inside or hugging geometry)
    /// snaps to a free cell: the one its cell escapes to (see FlowOccupancy), else the free
    /// cell whose centre is nearest the goal cell's centre (routedGoal() says where).
    bool setGoal(Vec2 goal);
    /// setGoal() without the computing: returns whether computeAimed() has a field to
    /// compute. A step aims its routes first, in group order, then computes every aimed field
    /// on its threads at once (each a function of its occupancy and goal cell alone, so the
    /// order does not matter); nothing reads a field in between.
    bool aimAt(Vec2 goal);
    /// Computes the field for the goal aimAt() gave it, if it has not been, or widens it as
    /// want() and wantReach() asked: at once, in the field's own buffers (a search in
    /// slices under way is finished).
    void computeAimed();
    /// The next computing (of the goal aimed at, or a widening) settles the cell a body at p
    /// follows. True when that needs computing: the field is aimed at a new goal, or the
    /// cell is beyond the horizon (a cell that escapes nowhere is never wanted). Until
    /// something is wanted, an aimed goal is computed over the whole level.
    bool want(Vec2 p);
    /// The next computing settles every cell within `metres` of the goal along the route
    /// (a cell of grid cost c is at least c / sqrt 2 cells away: see the .cpp). True when
    /// that needs computing.
    bool wantReach(float metres);
    /// Asks for a widening by what was wanted (of the goal already computed): true the first
    /// time since the field was last computed, so a step adds a field to compute once
    /// however many routes widen it.
    bool requestWidening();
    /// Aimed at a new goal and not computed since (computeAimed() is due): horizon() and
    /// complete() still speak of the last goal's search.
    bool aimed() const { return m_aimed; }
    /// aimed(), and due to settle only what was wanted (else the whole level).
    bool aimedWithin() const { return m_aimed && (!m_wanted.empty() || m_wantedCost > 0.0f); }
    /// Computes at once what requestWidening() asked (the caller alone reads the field).
    void widenNow() { computeAimed(); }
    /// Settles exactly the cells of cost at most `horizon` (kUnreachable: all), as a field
    /// that horizon() gave would: what a restored snapshot rebuilds. Computes like setGoal().
    bool setGoalWithin(Vec2 goal, float horizon);
    /// The grid cost (in cells) up to which the search settled every cell; kUnreachable once
    /// it has settled every reachable one (complete()).
    float horizon() const { return m_horizon; }
    bool complete() const { return m_horizon == kUnreachable; }
    /// How many times the field was widened for the same goal (requestWidening, wantReach).
    std::uint64_t widenCount() const { return m_widenings; }
    /// A plan looked up a cell beyond the horizon since the field was last computed (from any
    /// thread): the routes that hold it widen it at the next step's aiming.
    bool readBeyond() const { return m_readBeyond.load(std::memory_order_relaxed); }
    /// A plan looked up `slot`, which Cells::beyond() says lies beyond the horizon: noted
    /// unless the slot escapes nowhere (deep in geometry, which no widening would settle).
    void noteBeyond(int slot) const
    {
        if (m_occupancy->m_escape[static_cast<std::size_t>(slot)] != 0)
            m_readBeyond.store(true, std::memory_order_relaxed);
    }
    void setReadBeyond(bool beyond) { m_readBeyond.store(beyond, std::memory_order_relaxed); }
    /// Whether the cell a body at p follows is settled (or the field is complete): direction()
    /// and distance() there are the whole level's field's.
    bool settled(Vec2 p) const { return complete() || reachedAt(m_occupancy->slotAt(p)); }
    /// The smallest step of the horizon's ladder (8 cells, then each 2^(1/4) times the one
    /// before) at least `cost` cells; kUnreachable beyond the ladder.
    static float horizonAtLeast(float cost);
    /// How much further than the farthest wanted cell a search goes, in grid cost (cells):
    /// a body walks that far before it leaves the field (1.6 s for a swarm member running
    /// straight away from its goal at 5 m/s over 0.5 m cells), then up to the next rung of
    /// the ladder.
    static constexpr float kHorizonMargin = 16.0f;
    /// No goal: every direction is zero and every distance infinite.
    void clearGoal();
    /// The geometry changed: routes over `occupancy` from now on, recomputing for the current
    /// goal. Buffers are reallocated only when the cell count differs.
    void setOccupancy(std::shared_ptr<const FlowOccupancy> occupancy);

    /// The unit direction to follow from p toward the goal: a cell lookup and a precomputed
    /// vector. Zero in the goal cell (the goal is in plain sight there: steer to it directly),
    /// where the goal is unreachable, and without a goal. A blocked cell (a body hugging a
    /// wall) follows the free cell it escapes to; points outside the grid use the border cell.
    Vec2 direction(Vec2 p) const { return directionAt(m_occupancy->slotAt(p)); }
    /// The path length from p to the goal, m: straight to the anchor its cell heads for (the
    /// goal cell's centre, or the corner it rounds next), then the anchor's own distance;
    /// +infinity when unreachable. Same cell rules as direction(). Along direction() it falls
    /// cell by cell; within a cell it can rise by a fraction of one where the route changes
    /// anchor (measured: under 0.6 cell). Costs a square root more than direction().
    float distance(Vec2 p) const { return distanceAt(m_occupancy->slotAt(p), p); }
    bool reachable(Vec2 p) const { return distance(p) < kUnreachable; }
    /// Whether the route from p bends before the goal: the goal is reachable but not in sight
    /// from p's cell (it heads for a corner first). Where this is false a body may as well
    /// head straight for the goal itself: the goal is in sight, or there is no route.
    /// One bit per cell: where agents are sparse (a tank per 36 cells) the bits of a whole
    /// level stay in cache while the cells themselves would not.
    bool bends(Vec2 p) const { return bendsAt(m_occupancy->slotAt(p)); }
    /// What a body at p follows: direction(p) where the route bends(), else `straight` (the
    /// body's own line to the goal, exact where the field's cells would round it). A bit
    /// lookup, and a cell lookup where it bends.
    Vec2 steer(Vec2 p, Vec2 straight) const
    {
        const int s = m_occupancy->slotAt(p);
        return bendsAt(s) ? directionAt(s) : straight;
    }

    /// What a loop over many agents looks up, copied out of the field and its occupancy: held
    /// in a local, it stays in registers, where the field's members would be loaded again
    /// after every store to an agent's arrays (a float store may alias them). Valid until
    /// the field is rebuilt or moves to another occupancy.
    struct Cells
    {
        FlowOccupancy::Placement grid;
        const std::uint64_t* bends = nullptr;
        /// settled() bits, per slot as looked up; null when the field is complete.
        const std::uint64_t* reached = nullptr;

        int slotAt(Vec2 p) const { return grid.slotAt(p); }
        /// bends() of the points in `slot`.
        bool bendsAt(int slot) const
        {
            return (bends[static_cast<std::size_t>(slot) >> 6] >> (slot & 63)) & 1u;
        }
        /// Whether `slot` lies beyond the horizon (never for a complete field).
        bool beyond(int slot) const
        {
            return reached && !((reached[static_cast<std::size_t>(slot) >> 6] >> (slot & 63)) & 1u);
        }
    };
    Cells cells() const
    {
        return {m_occupancy->placement(), m_bends.data(), complete() ? nullptr : m_reached.data()};
    }
    /// direction(p) and distance(p) for p in slot `slot` (slotAt(p), looked up already). The
    /// direction is the unit step, in whole cells, from the cell a body there follows (its
    /// escape, for a blocked one) to that cell's anchor: what the search would have stored,
    /// bit for bit, worked out from what the cell keeps instead of kept in 8 more bytes.
    Vec2 directionAt(int slot) const
    {
        const FlowOccupancy& occ = *m_occupancy;
        const std::int32_t from = occ.m_escape[slot];
        const std::int32_t to = m_anchor[from];
        if (to < 0 || to == from)
            return {}; // unreachable, or the goal's own cell
        int dx, dy;
        occ.offsetBetween(from, to, dx, dy);
        const float inverse = 1.0f / std::sqrt(static_cast<float>(dx * dx + dy * dy));
        return {static_cast<float>(dx) * inverse, static_cast<float>(dy) * inverse};
    }
    /// What directionAt(slot) reads (for a prefetch): the cell's escape, then for a free
    /// cell (its own escape) its anchor.
    const std::int32_t& escapeAtRef(int slot) const { return m_occupancy->m_escape[slot]; }
    const std::int32_t& anchorAtRef(int slot) const { return m_anchor[slot]; }
    float distanceAt(int slot, Vec2 p) const
    {
        const FlowOccupancy& occ = *m_occupancy;
        const std::int32_t anchor = m_anchor[occ.m_escape[slot]];
        if (anchor < 0)
            return kUnreachable;
        return m_distance[anchor] + shoal::distance(p, occ.slotCentre(anchor));
    }

    bool hasGoal() const { return m_hasGoal; }
    /// The goal as last given to setGoal().
    Vec2 goal() const { return m_goal; }
    /// The centre of the cell the field leads to (the goal's cell, or the one it snapped to);
    /// meaningless when routable() is false.
    Vec2 routedGoal() const { return m_routedGoal; }
    /// A goal is set and has a free cell to route to.
    bool routable() const { return m_goalSlot >= 0; }
    /// The free slot the field leads to (FlowOccupancy::goalSlotFor() of the goal), -1 for none.
    int goalSlot() const { return m_goalSlot; }
    /// The field was computed this many times (setGoal calls that returned true, and
    /// setOccupancy with a goal).
    std::uint64_t rebuildCount() const { return m_rebuilds; }

    /// What a viewer draws: the grid (cell (c, r) spans origin + [c, c + 1) x [r, r + 1)
    /// cells), which cells are blocked, each free cell's distance from its centre (+infinity
    /// when unreachable or blocked) and direction (for a blocked cell, the direction of the
    /// free cell it escapes to: what a body there follows).
    const FlowOccupancy& occupancy() const { return *m_occupancy; }
    const std::shared_ptr<const FlowOccupancy>& sharedOccupancy() const { return m_occupancy; }
    float cellSize() const { return m_occupancy->cellSize(); }
    Vec2 origin() const { return m_occupancy->origin(); }
    int columns() const { return m_occupancy->columns(); }
    int rows() const { return m_occupancy->rows(); }
    bool cellBlocked(int column, int row) const { return m_occupancy->blocked(column, row); }
    float cellDistance(int column, int row) const
    {
        // Only anchors keep their distance: the cell's is its anchor's plus the straight
        // run, the operations the search made.
        const FlowOccupancy& occ = *m_occupancy;
        const int s = occ.slot(column, row);
        const std::int32_t anchor = m_anchor[s];
        if (anchor < 0)
            return kUnreachable;
        if (anchor == s)
            return m_distance[s];
        int dx, dy;
        occ.offsetBetween(s, anchor, dx, dy);
        return m_distance[anchor] + std::sqrt(static_cast<float>(dx * dx + dy * dy)) * occ.m_cell;
    }
    Vec2 cellDirection(int column, int row) const
    {
        return directionAt(m_occupancy->slot(column, row));
    }
    /// This field's buffers (not the shared occupancy: ask it for its own).
    std::size_t memoryBytes() const;

    static constexpr float kUnreachable = std::numeric_limits<float>::infinity();

private:
    /// Sizes the arrays to the occupancy, as reset() leaves them.
    void allocate();
    void reset();
    struct Search;
    struct Progress;
    struct Flight;
    enum class Stop
    {
        Limit,  ///< the next cell costs more than the limit
        Dry,    ///< no cell is left to settle
        Budget, ///< the slice's cells are settled
    };
    /// Computes the field for its goal (counted as a rebuild when `fresh`, else as a
    /// widening): settles every cell of cost at most `start` (kUnreachable: every one), then
    /// with `grow` on up the horizon's ladder as far as the wanted cells ask.
    void rebuild(bool fresh, float start, bool grow);
    /// Settles cells in cost order into `distance` and `anchor` (the field's, or a search in
    /// slices' own) from where `progress` stopped, up to cost `limit` or until `budgetEnd`
    /// cells are settled in all.
    Stop searchTo(Progress& progress, float* distance, std::int32_t* anchor, float limit,
                  std::uint64_t budgetEnd);
    /// The search's ladder (see rebuild), from `progress.start` each time: the same cells
    /// however the search was cut (a rung already passed settles nothing new).
    Stop climb(Progress& progress, float* distance, std::int32_t* anchor, std::uint64_t budgetEnd);
    /// What every search ends with: the horizon, what the next one clears, the bits.
    void finishSearch(const Progress& progress);
    /// aimAt()'s new goal: `goal` in raw slot `rawSlot`, routed to free slot `target`.
    void aim(Vec2 goal, int rawSlot, int target);
    /// Starts the search in slices of the goal aimed at (`fresh`), or of the widening asked.
    void takeOff(bool fresh);
    /// The search in slices ended: its buffers become the field's.
    void land();
    /// Drops a search in slices under way (a new goal, a new occupancy).
    void abandonFlight();
    /// Clears what the last search wrote (the anchors it settled, the bits it marked).
    void clearSearched();
    void markBends(std::size_t from, std::size_t to);
    bool bendsAt(int slot) const
    {
        return (m_bends[static_cast<std::size_t>(slot) >> 6] >> (slot & 63)) & 1u;
    }
    bool reachedAt(int slot) const
    {
        return (m_reached[static_cast<std::size_t>(slot) >> 6] >> (slot & 63)) & 1u;
    }
    /// The grid cost to settle so that every cell within `metres` of the goal is.
    float reachCost(float metres) const;

    std::shared_ptr<const FlowOccupancy> m_occupancy;
    Vec2 m_goal;
    Vec2 m_routedGoal;
    bool m_hasGoal = false;
    bool m_aimed = false; ///< aimAt() moved the goal to a cell the field is not computed for
    std::int32_t m_rawGoalSlot = -1; ///< the slot setGoal last saw (before snapping)
    std::int32_t m_goalSlot = -1;    ///< the free slot the field leads to, -1 for none
    std::uint64_t m_rebuilds = 0;
    std::uint64_t m_widenings = 0;
    float m_horizon = kUnreachable;     ///< the search settled every cell of cost <= this
    bool m_widen = false;               ///< requestWidening() asked for more of the same goal
    std::vector<std::int32_t> m_wanted; ///< slots the next computing settles (want())
    float m_wantedCost = 0.0f;          ///< grid cost the next computing settles (wantReach())
    mutable std::atomic<bool> m_readBeyond{false};
    bool m_enqueued = false;          ///< in this step's list (enqueue())
    std::uint64_t m_queueOrder = 0;   ///< the world's order for a search in slices
    bool m_landed = false;            ///< a search landed (see landed())
    Vec2 m_landedGoal;                ///< the goal the arrays below are for
    std::unique_ptr<Flight> m_flight; ///< a search in slices stopped at a slice's end
    // What the last search wrote, so the next clears only that: the slots it settled (their
    // anchors) and the words of bits it marked. Outside them anchors are -1 and bits 0.
    std::size_t m_settledFrom = 0, m_settledTo = 0;
    std::size_t m_bitsFrom = 0, m_bitsTo = 0;

    // Per slot, structure of arrays: the path length in metres through the anchors (kept
    // for the cells some cell heads for, the anchors; the others' is cellDistance's sum),
    // and the slot it heads for (-1 until settled; the goal's is itself).
    std::vector<float> m_distance;
    std::vector<std::int32_t> m_anchor;
    /// Per slot (as looked up, before its escape), one bit: the route from there bends.
    std::vector<std::uint64_t> m_bends;
    /// Per slot (as looked up), one bit: the cell a body there follows is settled.
    std::vector<std::uint64_t> m_reached;
};

} // namespace shoal
