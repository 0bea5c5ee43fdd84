#include "geometry/flowfield.h"

#include "geometry/searchbuffers.h"
#include "geometry/staticgeometry.h"
#include "kernels/prefetch.h"
#include "math/fastmath.h"
#include "scene/routebudget.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <mutex>
#include <type_traits>

namespace shoal {

namespace {

// The 8 moves: the axes first (k = 0..3), then the diagonals (4..7), so that the opposite
// of move k is always k ^ 2. Diagonal k runs between axes k - 4 and (k - 3) & 3.
constexpr int kMoveX[8] = {1, 0, -1, 0, 1, -1, -1, 1};
constexpr int kMoveY[8] = {0, 1, 0, -1, 1, 1, -1, -1};
constexpr float kSqrt2 = 1.41421356f;

// Segments are rasterised in pieces no longer than this, so a long diagonal wall visits a
// band of cells along itself rather than its whole bounding box.
constexpr float kPieceLength = 2.0f;

/// The move (0..7) by (dx, dy), each in -1..1, not both 0.
int moveIndex(int dx, int dy)
{
    constexpr int kIndex[9] = {6, 3, 7, 2, -1, 0, 5, 1, 4};
    return kIndex[(dy + 1) * 3 + dx + 1];
}

float distanceSquaredToSegment(Vec2 p, Vec2 a, Vec2 b)
{
    const Vec2 ab = b - a;
    const float len2 = ab.lengthSquared();
    float t = len2 > 0.0f ? dot(p - a, ab) / len2 : 0.0f;
    t = t < 0.0f ? 0.0f : (t > 1.0f ? 1.0f : t);
    return distanceSquared(p, a + ab * t);
}

} // namespace

// ---------------------------------------------------------------------------------------
// FlowOccupancy

std::size_t FlowOccupancy::place(Vec2 origin, int columns, int rows)
{
    m_place.origin = origin;
    m_place.cols = columns;
    m_place.rows = rows;
    m_place.colsF = static_cast<float>(m_place.cols);
    m_place.rowsF = static_cast<float>(m_place.rows);
    m_place.stride = m_place.cols + 2;
    m_invStride = 1.0 / m_place.stride;
    for (int k = 0; k < 8; ++k)
        m_offset[k] = kMoveX[k] + kMoveY[k] * m_place.stride;
    return static_cast<std::size_t>(m_place.stride) * (m_place.rows + 2);
}

float FlowOccupancy::cellSizeFor(float bodyRadius, Vec2 levelSize)
{
    return routeCellSize(bodyRadius, levelSize.x, levelSize.y);
}

FlowOccupancy::FlowOccupancy(const StaticGeometry& geometry, float bodyRadius)
    : FlowOccupancy(geometry, bodyRadius,
                    cellSizeFor(bodyRadius, geometry.boundsMax() - geometry.boundsMin()))
{
}

FlowOccupancy::FlowOccupancy(const StaticGeometry& geometry, float bodyRadius, float cellSize)
{
    m_radius = std::max(0.0f, bodyRadius);
    m_cell = cellSize > 0.0f ? cellSize : 1.0f;
    m_place.invCell = 1.0f / m_cell;
    // Three rules, the strictest wins. The margin: paths keep off the surfaces. A door
    // narrower than 2 radii must stay shut: between its jambs the free space on either side
    // leaves a waist of 2 sqrt(inflation^2 - r^2), which must be wider than a cell so that no
    // move spans it. And no move between free centres may cross geometry: every point of a
    // move is within 0.71 cell of a free end, so 0.75 cell clears it.
    m_inflation = std::max((1.0f + kMarginFraction) *
                               std::sqrt(m_radius * m_radius + 0.25f * m_cell * m_cell),
                           0.75f * m_cell);
    const Vec2 size = geometry.boundsMax() - geometry.boundsMin();
    const std::size_t slots = place(
        geometry.boundsMin(), std::max(1, static_cast<int>(std::ceil(size.x * m_place.invCell))),
        std::max(1, static_cast<int>(std::ceil(size.y * m_place.invCell))));
    m_free.assign(slots, 0);
    // The bounds first: a centre must keep the inflation from each side of the level (this
    // also blocks the last column or row where the grid overhangs the bounds).
    const Vec2 lo = geometry.boundsMin() + Vec2(m_inflation, m_inflation);
    const Vec2 hi = geometry.boundsMax() - Vec2(m_inflation, m_inflation);
    for (int r = 0; r < m_place.rows; ++r)
        for (int c = 0; c < m_place.cols; ++c) {
            const Vec2 p = cellCentre(c, r);
            m_free[slot(c, r)] = p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y;
        }
    markNearGeometry(geometry);
    clearSolidInteriors(geometry);
    m_freeCount = static_cast<std::size_t>(std::count(m_free.begin(), m_free.end(), 1));
    buildMoves();
    buildClearance();
    buildEscapes(geometry);
}

FlowOccupancy::FlowOccupancy(const FlowOccupancy& level, Vec2 windowMin, Vec2 windowMax)
{
    m_radius = level.m_radius;
    m_inflation = level.m_inflation;
    m_cell = level.m_cell;
    m_place.invCell = level.m_place.invCell;
    auto cellOf = [&](float at, float origin, int count) {
        const float f = std::floor((at - origin) * m_place.invCell);
        return f <= 0.0f ? 0
                         : (f >= static_cast<float>(count - 1) ? count - 1 : static_cast<int>(f));
    };
    const int c0 = cellOf(windowMin.x, level.m_place.origin.x, level.m_place.cols);
    const int r0 = cellOf(windowMin.y, level.m_place.origin.y, level.m_place.rows);
    const int c1 = std::max(c0, cellOf(windowMax.x, level.m_place.origin.x, level.m_place.cols));
    const int r1 = std::max(r0, cellOf(windowMax.y, level.m_place.origin.y, level.m_place.rows));
    const std::size_t slots = place({level.m_place.origin.x + static_cast<float>(c0) * m_cell,
                                     level.m_place.origin.y + static_cast<float>(r0) * m_cell},
                                    c1 - c0 + 1, r1 - r0 + 1);
    m_free.assign(slots, 0);
    m_escape.assign(slots, 0);
    for (int r = 0; r < m_place.rows; ++r)
        for (int c = 0; c < m_place.cols; ++c) {
            const int from = level.slot(c0 + c, r0 + r);
            m_free[slot(c, r)] = level.m_free[from];
            // The level's escape, if it lies in the window (the frame slot 0 otherwise).
            const int e = level.m_escape[from];
            if (e == 0)
                continue;
            const int row = level.rowOf(e) - 1, column = e - (row + 1) * level.m_place.stride - 1;
            if (column >= c0 && column <= c1 && row >= r0 && row <= r1)
                m_escape[slot(c, r)] = slot(column - c0, row - r0);
        }
    m_freeCount = static_cast<std::size_t>(std::count(m_free.begin(), m_free.end(), 1));
    buildMoves();
    buildClearance();
}

void FlowOccupancy::markNearGeometry(const StaticGeometry& geometry)
{
    // Visits the cells whose centres may be within `reach` of the box [lo, hi] and blocks
    // those for which isNear(centre) holds.
    auto blockNear = [&](Vec2 lo, Vec2 hi, float reach, auto&& isNear) {
        const int c0 = std::max(
            0, static_cast<int>(std::floor((lo.x - reach - m_place.origin.x) * m_place.invCell)));
        const int r0 = std::max(
            0, static_cast<int>(std::floor((lo.y - reach - m_place.origin.y) * m_place.invCell)));
        const int c1 = std::min(
            m_place.cols - 1,
            static_cast<int>(std::floor((hi.x + reach - m_place.origin.x) * m_place.invCell)));
        const int r1 = std::min(
            m_place.rows - 1,
            static_cast<int>(std::floor((hi.y + reach - m_place.origin.y) * m_place.invCell)));
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) {
                std::uint8_t& free = m_free[slot(c, r)];
                if (free && isNear(cellCentre(c, r)))
                    free = 0;
            }
    };
    const float inflation2 = m_inflation * m_inflation;
    for (const Segment& s : geometry.segments()) {
        const int pieces =
            std::max(1, static_cast<int>(std::ceil(distance(s.a, s.b) / kPieceLength)));
        for (int k = 0; k < pieces; ++k) {
            const Vec2 a = s.a + (s.b - s.a) * (static_cast<float>(k) / pieces);
            const Vec2 b = k + 1 == pieces ? s.b : s.a + (s.b - s.a) * (float(k + 1) / pieces);
            blockNear({std::min(a.x, b.x), std::min(a.y, b.y)},
                      {std::max(a.x, b.x), std::max(a.y, b.y)}, m_inflation,
                      [&](Vec2 p) { return distanceSquaredToSegment(p, a, b) < inflation2; });
        }
    }
    for (const Circle& circle : geometry.circles()) {
        // The disc and its rim alike: a centre inside is nearer than radius + inflation too.
        const float reach = circle.radius + m_inflation;
        blockNear(circle.center, circle.center, reach,
                  [&](Vec2 p) { return distanceSquared(p, circle.center) < reach * reach; });
    }
}

void FlowOccupancy::clearSolidInteriors(const StaticGeometry& geometry)
{
    // What is left free is far from every edge, so a solid polygon's inside is whole
    // 4-connected regions: two free centres a cell apart cannot have an edge between them
    // (see inflation()). One point-in-solid test per region (its lowest slot, for a fixed
    // answer) tells inside from outside; rooms inside closed walls stay free, unreachable.
    std::vector<std::uint8_t> seen(m_free.size(), 0);
    std::vector<std::int32_t> stack, region;
    for (std::size_t s0 = 0; s0 < m_free.size(); ++s0) {
        if (!m_free[s0] || seen[s0])
            continue;
        region.clear();
        stack.assign(1, static_cast<std::int32_t>(s0));
        seen[s0] = 1;
        while (!stack.empty()) {
            const std::int32_t s = stack.back();
            stack.pop_back();
            region.push_back(s);
            for (int k = 0; k < 4; ++k) {
                const std::int32_t n = s + m_offset[k];
                if (m_free[n] && !seen[n]) {
                    seen[n] = 1;
                    stack.push_back(n);
                }
            }
        }
        if (geometry.isInsideSolid(slotCentre(static_cast<int>(s0))))
            for (const std::int32_t s : region)
                m_free[s] = 0;
    }
}

void FlowOccupancy::buildMoves()
{
    m_moves.assign(m_free.size(), 0);
    for (int r = 0; r < m_place.rows; ++r)
        for (int c = 0; c < m_place.cols; ++c) {
            const int s = slot(c, r);
            if (!m_free[s])
                continue;
            unsigned moves = 0;
            for (int k = 0; k < 4; ++k)
                moves |= static_cast<unsigned>(m_free[s + m_offset[k]]) << k;
            // A diagonal only past two free sides: no cutting a blocked corner.
            for (int k = 4; k < 8; ++k) {
                const unsigned sides = (1u << (k - 4)) | (1u << ((k - 3) & 3));
                if ((moves & sides) == sides && m_free[s + m_offset[k]])
                    moves |= 1u << k;
            }
            m_moves[s] = static_cast<std::uint8_t>(moves);
        }
}

void FlowOccupancy::buildClearance()
{
    // The Chebyshev distance to the nearest blocked cell, exact in two sweeps (each cell
    // takes the four neighbours already swept + 1); blocked cells and the frame are 0.
    m_clearance.assign(m_free.size(), 0);
    const int n = static_cast<int>(m_free.size());
    for (int s = m_place.stride + 1; s < n - m_place.stride - 1; ++s) {
        if (!m_free[s])
            continue;
        const int before =
            std::min({m_clearance[s - 1], m_clearance[s - m_place.stride - 1],
                      m_clearance[s - m_place.stride], m_clearance[s - m_place.stride + 1]});
        m_clearance[s] = static_cast<std::uint8_t>(std::min(255, before + 1));
    }
    for (int s = n - m_place.stride - 2; s > m_place.stride; --s) {
        if (!m_free[s])
            continue;
        const int after =
            std::min({m_clearance[s + 1], m_clearance[s + m_place.stride + 1],
                      m_clearance[s + m_place.stride], m_clearance[s + m_place.stride - 1]});
        m_clearance[s] = static_cast<std::uint8_t>(std::min<int>(m_clearance[s], after + 1));
    }
}

bool FlowOccupancy::lineOfSight(int from, int dx, int dy) const
{
    // Walked in whole steps m along the major axis, Bresenham style in integers (exact, no
    // division per step): `minor` is the cell row the ray is in at step m and `error`
    // 2 m |minor d| + |major d| - 2 |major d| minor, in [0, 2 |major d|). From a point in a
    // cell of clearance k every cell within k - 1 is free, so the walk jumps k - 1 steps;
    // beside a blocked cell it takes one step, visiting the cell the ray crosses into first
    // (both, when it passes exactly through their corner: the moves' no-cutting rule).
    const int adx = std::abs(dx), ady = std::abs(dy);
    const bool xMajor = adx >= ady;
    const long long major = xMajor ? adx : ady, minorD = xMajor ? ady : adx;
    const int majorStep = xMajor ? (dx > 0 ? 1 : -1) : (dy > 0 ? m_place.stride : -m_place.stride);
    const int minorStep =
        xMajor ? (dy >= 0 ? m_place.stride : -m_place.stride) : (dx >= 0 ? 1 : -1);
    long long m = 0, minor = 0, error = major;
    int s = from;
    for (;;) {
        const int k = m_clearance[s];
        if (k == 0)
            return false;
        if (major - m <= k - 1)
            return true;
        if (k >= 2) {
            const long long jump = k - 1;
            m += jump;
            error += 2 * minorD * jump;
            const long long rows = error / (2 * major);
            minor += rows;
            error -= rows * 2 * major;
            s = from + static_cast<int>(m) * majorStep + static_cast<int>(minor) * minorStep;
            continue;
        }
        const long long before = error;
        error += 2 * minorD;
        if (error >= 2 * major) {
            // Which boundary comes first: the row's (> 0), the column's (< 0), or both (0).
            const long long side = before + minorD - 2 * major;
            if (side >= 0 && !m_free[s + minorStep])
                return false;
            if (side <= 0 && !m_free[s + majorStep])
                return false;
            error -= 2 * major;
            ++minor;
            s += majorStep + minorStep;
        } else {
            s += majorStep;
        }
        ++m;
    }
}

void FlowOccupancy::buildEscapes(const StaticGeometry& geometry)
{
    // A body hugging a wall sits in a blocked cell (its centre is nearer than the
    // inflation). It follows a free cell reached from its cell's centre without crossing
    // geometry: first the blocked cells beside free ones (the nearest such neighbour, axes
    // before diagonals), then ring by ring inwards, as far as the inflation reaches. The
    // crossing test keeps a cell on a thin wall's near side from escaping to the far side.
    m_escape.assign(m_free.size(), 0);
    std::vector<std::int32_t> frontier, next;
    for (int r = 0; r < m_place.rows; ++r)
        for (int c = 0; c < m_place.cols; ++c) {
            const int s = slot(c, r);
            if (m_free[s]) {
                m_escape[s] = s;
                continue;
            }
            for (int k = 0; k < 8; ++k) {
                const int n = s + m_offset[k];
                if (m_free[n] && !geometry.segmentCrosses(slotCentre(s), slotCentre(n))) {
                    m_escape[s] = n;
                    frontier.push_back(s);
                    break;
                }
            }
        }
    const int layers = static_cast<int>(std::ceil(m_inflation * m_place.invCell)) + 1;
    for (int layer = 1; layer < layers && !frontier.empty(); ++layer) {
        next.clear();
        for (const std::int32_t b : frontier)
            for (int k = 0; k < 8; ++k) {
                const std::int32_t n = b + m_offset[k];
                if (m_escape[n] != 0 || !innerSlot(n) ||
                    geometry.segmentCrosses(slotCentre(n), slotCentre(b)))
                    continue;
                m_escape[n] = m_escape[b];
                next.push_back(n);
            }
        frontier.swap(next);
    }
}

std::size_t FlowOccupancy::memoryBytes() const
{
    return sizeof(*this) + m_free.capacity() + m_moves.capacity() + m_clearance.capacity() +
           m_escape.capacity() * sizeof(std::int32_t);
}

// ---------------------------------------------------------------------------------------
// FlowField

FlowField::FlowField(const StaticGeometry& geometry, float bodyRadius)
    : FlowField(std::make_shared<const FlowOccupancy>(geometry, bodyRadius))
{
}

FlowField::FlowField(std::shared_ptr<const FlowOccupancy> occupancy)
    : m_occupancy(std::move(occupancy))
{
    allocate();
}

void FlowField::allocate()
{
    // What reset() leaves, written once: a new field is made whenever a route's goal changes
    // cell while another route holds its old field (megabytes on a big level).
    const std::size_t slots = m_occupancy->m_free.size();
    m_distance.assign(slots, kUnreachable);
    m_anchor.assign(slots, -1);
    m_bends.assign((slots + 63) / 64, 0);
    m_reached.assign((slots + 63) / 64, 0);
    m_settledFrom = m_settledTo = m_bitsFrom = m_bitsTo = 0;
    m_horizon = kUnreachable;
}

void FlowField::reset()
{
    std::fill(m_distance.begin(), m_distance.end(), kUnreachable);
    std::fill(m_anchor.begin(), m_anchor.end(), -1);
    std::fill(m_bends.begin(), m_bends.end(), 0);
    std::fill(m_reached.begin(), m_reached.end(), 0);
    m_settledFrom = m_settledTo = m_bitsFrom = m_bitsTo = 0;
    m_horizon = kUnreachable;
}

void FlowField::clearSearched()
{
    std::fill(m_anchor.begin() + static_cast<std::ptrdiff_t>(m_settledFrom),
              m_anchor.begin() + static_cast<std::ptrdiff_t>(m_settledTo), -1);
    std::fill(m_bends.begin() + static_cast<std::ptrdiff_t>(m_bitsFrom),
              m_bends.begin() + static_cast<std::ptrdiff_t>(m_bitsTo), 0);
    std::fill(m_reached.begin() + static_cast<std::ptrdiff_t>(m_bitsFrom),
              m_reached.begin() + static_cast<std::ptrdiff_t>(m_bitsTo), 0);
    m_settledFrom = m_settledTo = m_bitsFrom = m_bitsTo = 0;
}

bool FlowField::setGoal(Vec2 goal)
{
    if (!aimAt(goal))
        return false;
    computeAimed();
    return true;
}

bool FlowField::setGoalWithin(Vec2 goal, float horizon)
{
    aimAt(goal);
    m_wanted.clear();
    m_wantedCost = 0.0f;
    rebuild(true, horizon, false);
    return true;
}

void FlowField::computeAimed()
{
    m_enqueued = false;
    if (m_flight) {
        computeSlice(kNoBudget);
        return;
    }
    // A new goal with nothing wanted settles the whole level, as it always did; with
    // something wanted, as little as that needs. A widening goes on from the horizon.
    if (m_aimed) {
        const bool bounded = !m_wanted.empty() || m_wantedCost > 0.0f;
        rebuild(true, bounded ? 0.0f : kUnreachable, bounded);
    } else if (m_widen) {
        rebuild(false, m_horizon, true);
    }
}

bool FlowField::want(Vec2 p)
{
    // A search in slices under way goes on with what it was asked for when it started.
    if (m_goalSlot < 0 || m_flight)
        return false;
    const std::int32_t e = m_occupancy->m_escape[m_occupancy->slotAt(p)];
    if (e == 0)
        return false; // escapes nowhere: no search ever settles it
    if (!m_aimed && (complete() || m_anchor[e] >= 0))
        return false;
    m_wanted.push_back(e);
    return true;
}

float FlowField::reachCost(float metres) const
{
    // Every leg of a route (a line of sight between cell centres, or a move) has a grid path
    // along the cells it crosses, at most |dx| + |dy| <= sqrt 2 times its length; a body's
    // cell escapes at most `escapes` cells (both axes) to the cell it follows.
    const FlowOccupancy& occ = *m_occupancy;
    const float escapes = std::ceil(occ.m_inflation * occ.m_place.invCell) + 1.0f;
    return kSqrt2 * metres * occ.m_place.invCell + 2.0f * escapes + 4.0f;
}

bool FlowField::wantReach(float metres)
{
    if (m_goalSlot < 0 || m_flight || !(metres > 0.0f))
        return false;
    const float cost = reachCost(metres);
    if (!m_aimed && cost <= m_horizon)
        return false;
    m_wantedCost = std::max(m_wantedCost, cost);
    return true;
}

bool FlowField::requestWidening()
{
    if (m_aimed || m_widen)
        return false; // due to be computed already: it takes what was wanted
    m_widen = true;
    return true;
}

float FlowField::horizonAtLeast(float cost)
{
    // 8 cells x 2^(k/4): the quarter powers as double constants, scaled exactly by ldexp and
    // rounded once to float, the same on every machine. A finer ladder would settle less
    // beyond what is wanted and widen more often; at 2^(1/4) a search settles at most 1.41
    // times the area it must.
    constexpr double kQuarterPowers[4] = {1.0, 1.189207115002721, 1.4142135623730951,
                                          1.681792830507429};
    for (int k = 0; k < 192; ++k) {
        const double step = std::ldexp(8.0 * kQuarterPowers[k % 4], k / 4);
        if (static_cast<float>(step) >= cost)
            return static_cast<float>(step);
    }
    return kUnreachable;
}

bool FlowField::aimAt(Vec2 goal)
{
    m_goal = goal;
    m_hasGoal = true;
    const int raw = m_occupancy->slotAt(goal);
    if (raw == m_rawGoalSlot)
        return false;
    m_rawGoalSlot = raw;
    const int target = m_occupancy->snapGoal(raw);
    // Two blocked cells snapping to the same free cell lead to the same field.
    if (target == m_goalSlot)
        return false;
    aim(goal, raw, target);
    return true;
}

void FlowField::aim(Vec2 goal, int rawSlot, int target)
{
    m_goal = goal;
    m_hasGoal = true;
    m_rawGoalSlot = rawSlot;
    m_goalSlot = target;
    m_routedGoal = target >= 0 ? m_occupancy->slotCentre(target) : goal;
    m_aimed = true;
    abandonFlight();
    // What was wanted of the last goal is no concern of this one's.
    m_widen = false;
    m_wanted.clear();
    m_wantedCost = 0.0f;
}

void FlowField::clearGoal()
{
    abandonFlight();
    m_aimed = false;
    m_landed = false;
    m_queueOrder = 0;
    m_hasGoal = false;
    m_rawGoalSlot = -1;
    m_goalSlot = -1;
    reset();
}

void FlowField::setOccupancy(std::shared_ptr<const FlowOccupancy> occupancy)
{
    const bool resize = occupancy->m_free.size() != m_occupancy->m_free.size();
    abandonFlight();
    m_landed = false;
    m_queueOrder = 0;
    m_occupancy = std::move(occupancy);
    m_rawGoalSlot = -1;
    m_goalSlot = -1;
    // Nothing of the old free space holds: a goal that finds no free cell in the new one
    // (setGoal then has nothing to compute) leads nowhere.
    if (resize)
        allocate();
    else
        reset();
    if (m_hasGoal)
        setGoal(m_goal);
}

std::shared_ptr<FlowField> FlowOccupancy::fieldFor(int goalSlot) const
{
    for (const std::weak_ptr<FlowField>& weak : m_fields)
        if (std::shared_ptr<FlowField> field = weak.lock())
            if (field->hasGoal() && field->goalSlot() == goalSlot)
                return field;
    return nullptr;
}

void FlowOccupancy::addField(const std::shared_ptr<FlowField>& field) const
{
    m_fields.erase(std::remove_if(m_fields.begin(), m_fields.end(),
                                  [](const std::weak_ptr<FlowField>& f) { return f.expired(); }),
                   m_fields.end());
    m_fields.push_back(field);
}

int FlowOccupancy::snapGoal(int rawSlot) const
{
    const FlowOccupancy& occ = *this;
    if (occ.m_free[rawSlot])
        return rawSlot;
    if (occ.m_escape[rawSlot] != 0)
        return occ.m_escape[rawSlot];
    // Deep inside geometry: the free cell whose centre is nearest this cell's centre, ring
    // by ring (a cell k rings out is at least k cells away), ties to the lower slot. Each ring
    // visits only its cells on the grid, and the search ends once a ring lies wholly off it:
    // on a long thin grid that is linear in the cells, not quadratic in the longer side.
    if (occ.m_freeCount == 0)
        return -1;
    const int cols = occ.m_place.cols;
    const int rows = occ.m_place.rows;
    const int row0 = rawSlot / occ.m_place.stride - 1;
    const int col0 = rawSlot - (row0 + 1) * occ.m_place.stride - 1;
    int best = -1;
    long bestD2 = 0;
    auto consider = [&](int c, int r) {
        const int s = occ.slot(c, r);
        const long d2 =
            static_cast<long>(c - col0) * (c - col0) + static_cast<long>(r - row0) * (r - row0);
        if (occ.m_free[s] && (best < 0 || d2 < bestD2 || (d2 == bestD2 && s < best))) {
            best = s;
            bestD2 = d2;
        }
    };
    for (int k = 1;; ++k) {
        if (best >= 0 && static_cast<long>(k) * k > bestD2)
            break;
        const int left = col0 - k, right = col0 + k, top = row0 - k, bottom = row0 + k;
        if (left < 0 && right >= cols && top < 0 && bottom >= rows)
            break; // this ring and every later one lie off the grid
        const int c0 = std::max(left, 0), c1 = std::min(right, cols - 1);
        if (top >= 0)
            for (int c = c0; c <= c1; ++c)
                consider(c, top);
        if (bottom < rows)
            for (int c = c0; c <= c1; ++c)
                consider(c, bottom);
        const int r0 = std::max(top + 1, 0), r1 = std::min(bottom - 1, rows - 1);
        if (left >= 0)
            for (int r = r0; r <= r1; ++r)
                consider(left, r);
        if (right < cols)
            for (int r = r0; r <= r1; ++r)
                consider(right, r);
    }
    return best;
}

/// The pools of searches in slices: at most kSliceLanes are under way at once, and a level's
/// groups of two radii search over two grids, so twice that many are kept.
using ScratchPool = SearchPool<SearchScratch, 2 * FlowField::kSliceLanes>;
using LayerPool = SearchPool<SearchLayer, 2 * FlowField::kSliceLanes>;

/// The search of one rebuild: what it reads and writes, copied out of the field, its
/// occupancy and the scratch into one value the rebuild keeps in locals. Members would be
/// loaded again after every store of a parent move (a byte store may alias anything), a few
/// times per cell.
struct FlowField::Search
{
    Search(FlowField& field, SearchScratch& scratch, float* distanceOut, std::int32_t* anchorOut)
        : occ(*field.m_occupancy), moves(occ.m_moves.data()), stride(occ.m_place.stride),
          cell(occ.m_cell), cost(scratch.cost.data()), distance(distanceOut), anchor(anchorOut),
          parent(scratch.parent.data()), toAnchor(scratch.toAnchor.data())
    {
        std::copy(std::begin(occ.m_offset), std::end(occ.m_offset), offset);
    }

    const FlowOccupancy& occ;
    const std::uint8_t* moves;
    int stride;
    float cell;
    /// FlowOccupancy's move offsets, wide enough to index with (no extension per use).
    std::ptrdiff_t offset[8];
    float* cost;
    float* distance;
    std::int32_t* anchor;
    std::uint8_t* parent;
    SearchScratch::AnchorOffset* toAnchor;

    /// Whether cell c sees `target` (dx, dy cells away); see settle() for the cheap test.
    SHOAL_FORCE_INLINE bool anchorInSight(std::int32_t c, std::int32_t target, int dx, int dy) const
    {
        // The common case costs two lookups: the cells the ray to the anchor passes between
        // next (one along an axis or a diagonal, else the axis and the diagonal neighbour)
        // head for the same anchor, or are it. Then the ray stays inside the triangle their
        // own rays make with the anchor, which they found clear. Otherwise (at the seam of two
        // anchors' regions, which is where most such neighbours disagree) the ray is marched.
        auto sharesAnchor = [&](int sx, int sy) SHOAL_FORCE_INLINE {
            const std::int32_t q = c + sx + sy * stride;
            return q == target || anchor[q] == target;
        };
        const int sx = (dx > 0) - (dx < 0), sy = (dy > 0) - (dy < 0);
        const int ax = std::abs(dx), ay = std::abs(dy);
        bool shared;
        if (ay == 0)
            shared = sharesAnchor(sx, 0);
        else if (ax == 0)
            shared = sharesAnchor(0, sy);
        else if (ax == ay)
            shared = (moves[c] >> moveIndex(sx, sy) & 1u) && sharesAnchor(sx, sy);
        else
            shared = (ax > ay ? sharesAnchor(sx, 0) : sharesAnchor(0, sy)) && sharesAnchor(sx, sy);
        return shared || occ.lineOfSight(c, dx, dy);
    }

    /// Cell c (not the goal's) is the cheapest left: it takes its anchor and its distance
    /// through it (its direction is the anchor's, see directionAt).
    SHOAL_FORCE_INLINE void settle(std::int32_t c) const
    {
        auto lengthThrough = [&](std::int32_t x, int dx, int dy) SHOAL_FORCE_INLINE {
            return distanceOf(x) + std::sqrt(static_cast<float>(dx * dx + dy * dy)) * cell;
        };
        // The parent settled first, so its anchor is known: keep it if this cell sees it too
        // (a straight run to the goal or to the corner it rounds), the common case. The
        // anchor lies the move to the parent plus the parent's own way to it from here.
        const int move = parent[c];
        const auto from = static_cast<std::int32_t>(c + offset[move]);
        std::int32_t to = anchor[from];
        int dx = kMoveX[move] + toAnchor[from].x, dy = kMoveY[move] + toAnchor[from].y;
        if (to != from && !anchorInSight(c, to, dx, dy)) {
            // At the edge of a shadow: the shortest run in sight through a settled
            // neighbour's anchor, or through the neighbour itself (the parent always
            // qualifies). Taking the parent alone would leave a chain of one-cell kinks along
            // the shadow's edge.
            to = from;
            dx = kMoveX[move];
            dy = kMoveY[move];
            float best = lengthThrough(from, dx, dy);
            const unsigned legal = moves[c];
            for (int k = 0; k < 8; ++k) {
                const auto n = static_cast<std::int32_t>(c + offset[k]);
                if (!(legal >> k & 1u) || anchor[n] < 0)
                    continue;
                const float viaNeighbour = lengthThrough(n, kMoveX[k], kMoveY[k]);
                if (viaNeighbour < best) {
                    best = viaNeighbour;
                    to = n;
                    dx = kMoveX[k];
                    dy = kMoveY[k];
                }
                const std::int32_t far = anchor[n];
                if (far == n)
                    continue;
                const int ax = kMoveX[k] + toAnchor[n].x, ay = kMoveY[k] + toAnchor[n].y;
                // The length first: only a shorter run is worth a line of sight.
                const float viaAnchor = lengthThrough(far, ax, ay);
                if (viaAnchor < best && anchorInSight(c, far, ax, ay)) {
                    best = viaAnchor;
                    to = far;
                    dx = ax;
                    dy = ay;
                }
            }
        }
        anchor[c] = to;
        toAnchor[c] = {dx, dy};
        // Only an anchor's distance is kept (what distanceAt reads); the others' follow from
        // it when asked. A cell becomes one here, when it is first headed for.
        if (to == from || to != anchor[from])
            distance[to] = distanceOf(to);
    }

    /// The distance of settled cell x: its anchor's plus the straight run to it, the same
    /// operations FlowField::cellDistance makes.
    SHOAL_FORCE_INLINE float distanceOf(std::int32_t x) const
    {
        const std::int32_t a = anchor[x];
        if (a == x)
            return distance[x]; // the goal
        const int dx = toAnchor[x].x, dy = toAnchor[x].y;
        return distance[a] + std::sqrt(static_cast<float>(dx * dx + dy * dy)) * cell;
    }
};

/// Where a search stopped: its scratch, its queues' heads and tails, the span of the slots it
/// settled, how it climbs the ladder and how many cells it settled (the goal's not counted).
struct FlowField::Progress
{
    SearchScratch* scratch = nullptr;
    std::size_t axisHead = 0, axisTail = 0, diagonalHead = 0, diagonalTail = 0;
    std::int32_t lowest = 0, highest = 0;
    float start = 0.0f;
    bool grow = false;
    bool begun = false; ///< the goal is settled
    std::uint64_t settled = 0;
    float limit = 0.0f; ///< the horizon the ladder stopped at (kUnreachable: dry)
};

/// A search in slices between steps: where it stopped, its scratch, and the anchors and
/// distances it has written so far (the field's own still hold the last goal's).
struct FlowField::Flight
{
    Progress progress;
    std::unique_ptr<SearchScratch> scratch;
    std::unique_ptr<SearchLayer> layer;
};

FlowField::~FlowField()
{
    abandonFlight();
}

void FlowField::rebuild(bool fresh, float start, bool grow)
{
    abandonFlight();
    ++(fresh ? m_rebuilds : m_widenings);
    m_aimed = false;
    m_widen = false;
    m_readBeyond.store(false, std::memory_order_relaxed);
    clearSearched();
    m_landed = true;
    m_landedGoal = m_goal;
    if (m_goalSlot < 0) {
        // Nowhere to go: every cell unreachable, and nothing beyond to search.
        m_horizon = kUnreachable;
        m_wanted.clear();
        m_wantedCost = 0.0f;
        return;
    }
    // What the search reads before it writes: every cost unknown (the scratch keeps them
    // so), no cell settled (clearSearched). The distances are written only for the anchors
    // (see Search::settle), and read only through them: none is cleared.
    Progress progress;
    progress.scratch = &SearchScratch::forSlots(m_anchor.size());
    progress.start = start;
    progress.grow = grow;
    climb(progress, m_distance.data(), m_anchor.data(), kNoBudget);
    finishSearch(progress);
}

FlowField::Stop FlowField::searchTo(Progress& progress, float* distanceOut, std::int32_t* anchorOut,
                                    float limit, std::uint64_t budgetEnd)
{
    SearchScratch& scratch = *progress.scratch;
    Search search(*this, scratch, distanceOut, anchorOut);
    const std::uint8_t* moves = search.moves;
    const std::ptrdiff_t* offset = search.offset;
    const std::ptrdiff_t rowStride = search.stride;
    constexpr std::size_t kAskFar = 8, kAskNear = 3; // queue entries ahead
    float* cost = search.cost;
    std::uint8_t* parent = search.parent;
    const std::int32_t* anchor = search.anchor;
    std::int32_t* axisQueue = scratch.axisQueue.data();
    std::int32_t* diagonalQueue = scratch.diagonalQueue.data();
    // In locals while the search runs (a byte store may alias a member), back in `progress`
    // when it stops.
    std::size_t axisHead = progress.axisHead, axisTail = progress.axisTail;
    std::size_t diagonalHead = progress.diagonalHead, diagonalTail = progress.diagonalTail;
    std::int32_t lowest = progress.lowest, highest = progress.highest;
    std::uint64_t settled = progress.settled;
    auto stopWith = [&](Stop stop) {
        progress.axisHead = axisHead;
        progress.axisTail = axisTail;
        progress.diagonalHead = diagonalHead;
        progress.diagonalTail = diagonalTail;
        progress.lowest = lowest;
        progress.highest = highest;
        progress.settled = settled;
        return stop;
    };

    // Dijkstra with two FIFO queues. Cells are settled in increasing cost, so the costs
    // pushed onto each queue (settled cost + 1, or + sqrt 2) never decrease: the cheaper of
    // the two heads is the cheapest cell left. A queued cell whose cost later dropped keeps
    // its old entry; heads already settled are skipped, and comparing heads by their current
    // cost still picks the cheapest cell.
    // `all`: every move from c is legal (most cells, away from walls), which spares a bit
    // test per neighbour.
    auto relaxWith = [&](std::int32_t c, unsigned legal, auto all) SHOAL_FORCE_INLINE {
        const float here = cost[c];
        const float* around = cost + c;
        for (int k = 0; k < 4; ++k) {
            const float via = here + 1.0f;
            if ((all || (legal >> k & 1u)) && via < around[offset[k]]) {
                const auto n = static_cast<std::int32_t>(c + offset[k]);
                cost[n] = via;
                parent[n] = static_cast<std::uint8_t>(k ^ 2);
                axisQueue[axisTail++] = n;
            }
        }
        for (int k = 4; k < 8; ++k) {
            const float via = here + kSqrt2;
            if ((all || (legal >> k & 1u)) && via < around[offset[k]]) {
                const auto n = static_cast<std::int32_t>(c + offset[k]);
                cost[n] = via;
                parent[n] = static_cast<std::uint8_t>(k ^ 2);
                diagonalQueue[diagonalTail++] = n;
            }
        }
    };
    auto relax = [&](std::int32_t c) SHOAL_FORCE_INLINE {
        const unsigned legal = moves[c];
        if (legal == 0xffu)
            relaxWith(c, legal, std::true_type{});
        else
            relaxWith(c, legal, std::false_type{});
    };
    if (!progress.begun) {
        // The goal settles first, heading for itself (its direction stays zero: the goal is
        // in this cell); nothing is cheaper than it, so no later cell is the goal's.
        progress.begun = true;
        cost[m_goalSlot] = 0.0f;
        search.anchor[m_goalSlot] = m_goalSlot;
        search.distance[m_goalSlot] = 0.0f;
        search.toAnchor[m_goalSlot] = {0, 0};
        lowest = highest = m_goalSlot;
        relax(m_goalSlot);
    }
    // The heads stay on cells not settled yet: a queue taken from skips the settled entries
    // after its head, and the other one its head when that is the cell just settled (a cell
    // settles only when taken, so no other head can have settled meanwhile).
    auto skipSettled = [&](const std::int32_t* queue, std::size_t& head, std::size_t tail)
                           SHOAL_FORCE_INLINE {
                               while (head < tail && anchor[queue[head]] >= 0)
                                   ++head;
                           };
    // A queue is first in, first out: the cells it settles next are known. Their lines are
    // asked for ahead (far ahead what the cell's own arrays and the rows round it hold, nearer
    // its parent's anchor), or a search over a big level waits on memory at every cell.
    auto askAhead = [&](const std::int32_t* queue, std::size_t head, std::size_t tail)
                        SHOAL_FORCE_INLINE {
                            if (head + kAskFar < tail) {
                                const std::int32_t q = queue[head + kAskFar];
                                prefetchLine(parent + q);
                                prefetchLine(anchor + q);
                                prefetchLine(cost + q - rowStride);
                                prefetchLine(cost + q + rowStride);
                            }
                            if (head + kAskNear < tail) {
                                const std::int32_t q = queue[head + kAskNear];
                                const std::ptrdiff_t from = q + offset[parent[q] & 7u];
                                prefetchLine(anchor + from);
                                prefetchLine(search.toAnchor + from);
                            }
                        };
    // Settles every cell of cost at most `limit`, going on from where the last call stopped
    // (the same cells in the same order as one call with the last limit), unless the budget
    // ends first.
    for (;;) {
        const bool axisLeft = axisHead < axisTail, diagonalLeft = diagonalHead < diagonalTail;
        std::int32_t c;
        if (axisLeft &&
            (!diagonalLeft || cost[axisQueue[axisHead]] <= cost[diagonalQueue[diagonalHead]])) {
            c = axisQueue[axisHead];
            if (cost[c] > limit)
                return stopWith(Stop::Limit);
            if (settled == budgetEnd)
                return stopWith(Stop::Budget);
            ++axisHead;
            askAhead(axisQueue, axisHead, axisTail);
            search.settle(c);
            skipSettled(axisQueue, axisHead, axisTail);
            if (diagonalLeft && diagonalQueue[diagonalHead] == c)
                skipSettled(diagonalQueue, diagonalHead, diagonalTail);
        } else if (diagonalLeft) {
            c = diagonalQueue[diagonalHead];
            if (cost[c] > limit)
                return stopWith(Stop::Limit);
            if (settled == budgetEnd)
                return stopWith(Stop::Budget);
            ++diagonalHead;
            askAhead(diagonalQueue, diagonalHead, diagonalTail);
            search.settle(c);
            skipSettled(diagonalQueue, diagonalHead, diagonalTail);
            if (axisLeft && axisQueue[axisHead] == c)
                skipSettled(axisQueue, axisHead, axisTail);
        } else {
            return stopWith(Stop::Dry);
        }
        ++settled;
        lowest = std::min(lowest, c);
        highest = std::max(highest, c);
        relax(c);
    }
}

FlowField::Stop FlowField::climb(Progress& progress, float* distanceOut, std::int32_t* anchorOut,
                                 std::uint64_t budgetEnd)
{
    float limit = progress.start;
    Stop stop = searchTo(progress, distanceOut, anchorOut, limit, budgetEnd);
    bool dry = stop == Stop::Dry;
    if (progress.grow && !dry && stop != Stop::Budget) {
        // Up the ladder until every wanted cell is settled, then a margin past the farthest
        // (or as far as wantReach asked): a function of the wanted cells' costs alone.
        for (std::size_t w = 0; w < m_wanted.size() && !dry;) {
            if (anchorOut[m_wanted[w]] >= 0) {
                ++w;
                continue;
            }
            limit = horizonAtLeast(std::nextafter(limit, kUnreachable));
            stop = searchTo(progress, distanceOut, anchorOut, limit, budgetEnd);
            if (stop == Stop::Budget)
                return stop;
            dry = stop == Stop::Dry;
        }
        if (!dry) {
            const float* cost = progress.scratch->cost.data();
            float farthest = 0.0f;
            for (const std::int32_t w : m_wanted)
                farthest = std::max(farthest, cost[w]);
            const float wanted = horizonAtLeast(
                std::max(m_wantedCost, m_wanted.empty() ? 0.0f : farthest + kHorizonMargin));
            if (wanted > limit) {
                stop = searchTo(progress, distanceOut, anchorOut, limit = wanted, budgetEnd);
                dry = stop == Stop::Dry;
            }
        }
    }
    if (stop == Stop::Budget)
        return stop;
    progress.limit = dry ? kUnreachable : limit;
    return stop;
}

void FlowField::finishSearch(const Progress& progress)
{
    m_horizon = progress.limit;
    m_wanted.clear();
    m_wantedCost = 0.0f;

    // What the next search clears: the settled span here, the costs the search wrote (a cell
    // beside a settled one) in the scratch, and the bits of every slot that may escape to a
    // settled cell (an escape is a few cells away: FlowOccupancy::buildEscapes).
    const FlowOccupancy& occ = *m_occupancy;
    const std::size_t slots = m_anchor.size();
    const auto stride = static_cast<std::size_t>(occ.m_place.stride);
    const auto low = static_cast<std::size_t>(progress.lowest);
    const auto high = static_cast<std::size_t>(progress.highest);
    m_settledFrom = low;
    m_settledTo = high + 1;
    progress.scratch->dirtied(progress.lowest, progress.highest, occ.m_place.stride);
    const auto escapes =
        static_cast<std::size_t>(std::ceil(occ.m_inflation * occ.m_place.invCell)) + 2;
    const std::size_t reach = escapes * (stride + 1);
    markBends(low > reach ? low - reach : 0, std::min(slots, high + reach + 1));
}

void FlowField::takeOff(bool fresh)
{
    ++(fresh ? m_rebuilds : m_widenings);
    const std::size_t slots = m_anchor.size();
    m_flight = std::make_unique<Flight>();
    Flight& flight = *m_flight;
    flight.scratch = ScratchPool::take(slots);
    flight.progress.scratch = flight.scratch.get();
    flight.layer = LayerPool::take(slots);
    // As computeAimed() starts a search at once: a widening climbs on from the horizon.
    const bool bounded = !m_wanted.empty() || m_wantedCost > 0.0f;
    flight.progress.start = fresh ? (bounded ? 0.0f : kUnreachable) : m_horizon;
    flight.progress.grow = fresh ? bounded : true;
}

std::uint64_t FlowField::computeSlice(std::uint64_t budget)
{
    m_enqueued = false;
    if (!(m_aimed || m_widen || m_flight) || m_goalSlot < 0 || !sliced()) {
        // Nothing asked, a goal with no free cell or a small field: at once.
        computeAimed();
        return 0;
    }
    if (!m_flight)
        takeOff(m_aimed);
    Flight& flight = *m_flight;
    const std::uint64_t before = flight.progress.settled;
    const std::uint64_t end = budget == kNoBudget ? kNoBudget : before + budget;
    if (climb(flight.progress, flight.layer->distance.data(), flight.layer->anchor.data(), end) ==
        Stop::Budget)
        return budget;
    const std::uint64_t used = flight.progress.settled - before;
    land();
    return used;
}

void FlowField::land()
{
    Flight& flight = *m_flight;
    // The last goal's bits are cleared as a new search clears them; its anchors and
    // distances go with the flight's buffers.
    std::fill(m_bends.begin() + static_cast<std::ptrdiff_t>(m_bitsFrom),
              m_bends.begin() + static_cast<std::ptrdiff_t>(m_bitsTo), 0);
    std::fill(m_reached.begin() + static_cast<std::ptrdiff_t>(m_bitsFrom),
              m_reached.begin() + static_cast<std::ptrdiff_t>(m_bitsTo), 0);
    m_bitsFrom = m_bitsTo = 0;
    SearchLayer& layer = *flight.layer;
    m_distance.swap(layer.distance);
    m_anchor.swap(layer.anchor);
    layer.dirtyFrom = m_settledFrom;
    layer.dirtyTo = m_settledTo;
    m_aimed = false;
    m_widen = false;
    m_readBeyond.store(false, std::memory_order_relaxed);
    finishSearch(flight.progress);
    m_landed = true;
    m_landedGoal = m_goal;
    m_queueOrder = 0;
    ScratchPool::give(std::move(flight.scratch));
    LayerPool::give(std::move(flight.layer));
    m_flight.reset();
}

void FlowField::abandonFlight()
{
    if (!m_flight)
        return;
    Flight& flight = *m_flight;
    if (flight.progress.begun) {
        flight.scratch->dirtied(flight.progress.lowest, flight.progress.highest,
                                m_occupancy->m_place.stride);
        flight.layer->dirtyFrom = static_cast<std::size_t>(flight.progress.lowest);
        flight.layer->dirtyTo = static_cast<std::size_t>(flight.progress.highest) + 1;
    }
    ScratchPool::give(std::move(flight.scratch));
    LayerPool::give(std::move(flight.layer));
    m_flight.reset();
}

bool FlowField::leadsNear(Vec2 goal, float metres) const
{
    if (m_goalSlot < 0 || m_aimed)
        return false;
    const FlowOccupancy& occ = *m_occupancy;
    const int target = occ.goalSlotFor(goal);
    if (target == m_goalSlot)
        return true;
    if (target < 0 || !(shoal::distance(occ.slotCentre(target), m_routedGoal) <= metres))
        return false;
    int dx, dy;
    occ.offsetBetween(m_goalSlot, target, dx, dy);
    return occ.lineOfSight(m_goalSlot, dx, dy);
}

FlowField::QueuedSearch FlowField::queuedSearch() const
{
    QueuedSearch search;
    search.widening = !m_aimed;
    search.goal = m_goal;
    search.wanted = m_wanted;
    search.wantedCost = m_wantedCost;
    search.order = m_queueOrder;
    if (m_flight) {
        search.start = m_flight->progress.start;
        search.grow = m_flight->progress.grow;
        search.settled = m_flight->progress.settled;
    }
    return search;
}

void FlowField::restoreSearch(const QueuedSearch& search)
{
    abandonFlight();
    if (search.widening) {
        // Of the goal the field was just built for.
        m_widen = true;
    } else {
        // Aimed even where aimAt() would see no new cell (a goal with no free cell).
        const int raw = m_occupancy->slotAt(search.goal);
        aim(search.goal, raw, m_occupancy->snapGoal(raw));
    }
    m_wanted = search.wanted;
    m_wantedCost = search.wantedCost;
    m_queueOrder = search.order;
    if (search.settled == 0 || m_goalSlot < 0 || !sliced())
        return;
    takeOff(!search.widening);
    Flight& flight = *m_flight;
    flight.progress.start = search.start;
    flight.progress.grow = search.grow;
    climb(flight.progress, flight.layer->distance.data(), flight.layer->anchor.data(),
          search.settled);
}

void FlowField::markBends(std::size_t from, std::size_t to)
{
    // Per slot as looked up: whether its cell is settled and whether the route bends. A slot
    // the search did not settle (blocked, out of reach, beyond the horizon) heads nowhere
    // unless it escapes to a settled one (directionAt follows the escape). Whole words, so
    // the next search clears words.
    m_bitsFrom = from >> 6;
    m_bitsTo = (to + 63) >> 6;
    const std::int32_t* escape = m_occupancy->m_escape.data();
    const std::size_t end = std::min(m_anchor.size(), m_bitsTo << 6);
    for (std::size_t s = m_bitsFrom << 6; s < end; ++s) {
        const auto e = static_cast<std::size_t>(escape[s]);
        const std::int32_t anchor = m_anchor[e];
        if (anchor < 0)
            continue;
        m_reached[s >> 6] |= std::uint64_t(1) << (s & 63);
        if (anchor != m_goalSlot)
            m_bends[s >> 6] |= std::uint64_t(1) << (s & 63);
    }
}

std::size_t FlowField::memoryBytes() const
{
    std::size_t flight = 0;
    if (m_flight) {
        const SearchScratch& scratch = *m_flight->scratch;
        const SearchLayer& layer = *m_flight->layer;
        flight = sizeof(Flight) + sizeof(SearchScratch) + sizeof(SearchLayer) +
                 layer.distance.capacity() * sizeof(float) +
                 layer.anchor.capacity() * sizeof(std::int32_t) +
                 scratch.cost.capacity() * sizeof(float) + scratch.parent.capacity() +
                 scratch.toAnchor.capacity() * sizeof(SearchScratch::AnchorOffset) +
                 (scratch.axisQueue.capacity() + scratch.diagonalQueue.capacity()) *
                     sizeof(std::int32_t);
    }
    return sizeof(*this) + m_distance.capacity() * sizeof(float) +
           m_anchor.capacity() * sizeof(std::int32_t) +
           (m_bends.capacity() + m_reached.capacity()) * sizeof(std::uint64_t) +
           m_wanted.capacity() * sizeof(std::int32_t) + flight;
}

} // namespace shoal
