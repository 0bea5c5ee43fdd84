// What the body pass asks of the walls (is one between two bodies, is a body held by one,
// where a pushed body may go), answered first from the clearances every plan looked up where
// the step began. The level's clearance grid is a lower bound of the distance to the walls;
// so is a plan's clearance less how far the body has moved since (the distance to a wall
// changes no faster than the body moves). Where that bound already answers, the exact test
// would answer the same, and the grid is not looked up again: at 100,000 bodies it is many
// megabytes, and each look-up of a pair or a round missed the cache.

#include "geometry/staticgeometry.h"
#include "world/bodypass.h"

#include <cmath>

namespace shoal {

namespace {
/// Kept off the bound for rounding (of the moves and of where the plans put the bodies), m:
/// far above float error at level scale, far below the grid's own slack (half a cell's
/// diagonal), so a bound this much short of it decides nothing the exact test would not.
constexpr float kRoundingSlack = 1e-3f;
} // namespace

void BodyPass::noteStartClearances()
{
    const std::vector<std::unique_ptr<Group>>& groups = *m_groups;
    m_starts.assign(groups.size(), StartPlaces{});
    if (!m_stepping)
        return; // settling a new world: no plan ran
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group& group = *groups[g];
        const AgentArrays& a = group.agents;
        if (group.startClearanceKnown && group.startClearance.size() == a.size())
            m_starts[g] = {a.px.data(), a.py.data(), group.startClearance.data()};
    }
}

float BodyPass::clearLow(std::uint32_t b) const
{
    const std::size_t g = m_rule[b];
    if (g >= m_starts.size() || !m_starts[g].clearance)
        return -1.0f; // the lone player, or a group whose plan did not tell
    const StartPlaces& s = m_starts[g];
    const std::size_t i = b - m_groupStart[g];
    const float dx = m_x[b] - s.x[i], dy = m_y[b] - s.y[i];
    return s.clearance[i] - std::sqrt(dx * dx + dy * dy) - kRoundingSlack;
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
