// What the body pass asks of the walls (is one between two bodies, is a body held by one,
// where a pushed body may go), answered first from the clearances every plan looked up where
// the step began. The level's clearance grid is a lower bound of the distance to the walls;
// so is a plan's clearance less how far the body has moved since (the distance to a wall
// changes no faster than the body moves). Where that bound already answers, the exact test
// would answer the same, and the grid is not looked up again: at 100,000 bodies it is many
// megabytes, and each look-up of a pair or a round missed the cache.

#include "geometry/staticgeometry.h"
#include "kernels/lanes.h"
#include "world/bodypass.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {
/// Kept off the bound for rounding (of the moves and of where the plans put the bodies), m:
/// far above float error at level scale, far below the grid's own slack (half a cell's
/// diagonal), so a bound this much short of it decides nothing the exact test would not.
constexpr float kRoundingSlack = 1e-3f;
} // namespace

void BodyPass::noteStartClearances(std::size_t g, const Group& group, std::size_t begin,
                                   std::size_t end)
{
    // Each body's bound where the pass gathers it (its plan), worked out as the gather
    // visits its group, four bodies at a time over the arrays it has just read: the contact
    // search then reads one array in the order it visits the bodies, not three of the
    // body's group.
    const AgentArrays& a = group.agents;
    const std::size_t n = end - begin;
    float* low = m_clearLow.data() + m_groupStart[g] + begin;
    if (!m_stepping || !group.startClearanceKnown || group.startClearance.size() != a.size()) {
        // Settling a new world (no plan ran), or a plan that did not tell.
        std::fill(low, low + n, -1.0f);
        return;
    }
    if (begin == 0) // (one span of the group says it)
        m_starts[g] = {a.px.data(), a.py.data(), group.startClearance.data()};
    using V = Float4;
    const V slack(kRoundingSlack);
    const float* px = a.px.data() + begin;
    const float* py = a.py.data() + begin;
    const float* nx = a.nx.data() + begin;
    const float* ny = a.ny.data() + begin;
    const float* clear = group.startClearance.data() + begin;
    std::size_t i = 0;
    for (; i + V::kWidth <= n; i += V::kWidth) {
        const V dx = V::load(nx + i) - V::load(px + i);
        const V dy = V::load(ny + i) - V::load(py + i);
        (V::load(clear + i) - sqrt(dx * dx + dy * dy) - slack).store(low + i);
    }
    for (; i < n; ++i) {
        const float dx = nx[i] - px[i], dy = ny[i] - py[i];
        low[i] = clear[i] - std::sqrt(dx * dx + dy * dy) - kRoundingSlack;
    }
}

float BodyPass::clearLow(std::uint32_t b) const
{
    // Where the rounds have moved a body, its bound falls by as much (m_roundX: where it
    // began them); before them every body is where it was gathered.
    if (!m_roundsBegun || !m_mark[b])
        return m_clearLow[b];
    const float dx = m_x[b] - m_roundX[b], dy = m_y[b] - m_roundY[b];
    return m_clearLow[b] - std::sqrt(dx * dx + dy * dy);
}

bool BodyPass::pushStaysClear(std::uint32_t b, Vec2 pushed) const
{
    // The bound where it is pushed to, against its radius with the slack kept: then every
    // point of the way from where it began the step is further from every surface than the
    // radius (the bound's own argument), and keepClear would hand `pushed` back unchanged.
    const float dx = pushed.x - m_roundX[b], dy = pushed.y - m_roundY[b];
    return m_clearLow[b] - std::sqrt(dx * dx + dy * dy) > radiusOf(b) + kRoundingSlack;
}

float BodyPass::clearanceFrom(std::uint32_t b, Vec2 from) const
{
    const std::size_t g = m_rule[b];
    if (g < m_starts.size() && m_starts[g].clearance)
        return m_starts[g].clearance[b - m_groupStart[g]]; // the plan's clearance(from)
    return m_geometry->clearance(from);
}

bool BodyPass::wallBetweenBodies(std::uint32_t i, std::uint32_t j) const
{
    // A wall point between them would be nearer to one of the two than its bound, as in
    // wallBetween (whose grid look-ups then say the same, or its ray finds nothing).
    const Vec2 a{m_x[i], m_y[i]}, b{m_x[j], m_y[j]};
    if (clearLow(i) + clearLow(j) > distance(a, b))
        return false;
    return wallBetween(*m_geometry, a, b);
}

bool BodyPass::heldByWall(std::uint32_t b) const
{
    const float reach = radiusOf(b) + kTouching;
    if (clearLow(b) >= reach)
        return false; // every surface is further than that: bodyOverlap would be 0
    return m_geometry->bodyOverlap({m_x[b], m_y[b]}, reach) > 0.0f;
}

} // namespace shoal
