// World's viewer-facing side (<shoal/sketch.h>): each call hands the question to the group's
// family, or answers it from the runtime's own data (feeler rays, the neighbour grid), so an
// editor draws every family without knowing one.

#include <shoal/world.h>

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"
#include "math/statehash.h"
#include "world/behaviour.h"
#include "world/sketchgrid.h"

namespace shoal {

void World::sketch(int group, const SketchRequest& request, Sketch& out) const
{
    const Group& g = *m_groups[static_cast<std::size_t>(group)];
    g.behaviour->sketch(g, context(), request, out);
}

int World::sketchFeelers(int group, const SketchRequest& request, int budget, Sketch& out) const
{
    const Group& g = *m_groups[static_cast<std::size_t>(group)];
    const Behaviour::FeelerUse use = g.behaviour->feelers();
    if (use.length <= 0.0f || budget <= 0)
        return 0;
    const std::optional<Vec2> target =
        use.towardGoal ? g.behaviour->goal(g, context()) : std::nullopt;
    const AgentArrays& a = g.agents;
    const SketchStyle miss{SketchTone::Cool, SketchStroke::Solid, 1.0f, 110};
    const SketchStyle hitRay{SketchTone::Warm};
    const SketchStyle normal{SketchTone::Goal};
    const SketchStyle hitPoint{SketchTone::Warm, SketchStroke::None, 1.0f, 0, true};
    const float normalLength = request.metres(10.0f);
    int drawn = 0;
    for (std::size_t i = g.playerLed ? 1 : 0; i < a.size() && drawn < budget; ++i) {
        const Vec2 pos{a.px[i], a.py[i]};
        if (!request.visible(pos, use.length))
            continue;
        ++drawn;
        Vec2 forward = fromAngle(a.heading[i]);
        if (target)
            forward = (*target - pos).normalizedOr(forward);
        const StaticGeometry::Feelers rays = StaticGeometry::feelers(forward, use.length);
        for (int k = 0; k < 3; ++k) {
            const Vec2 end = pos + rays.direction[k] * rays.length[k];
            const RayHit hit = m_geometry->rayCast(pos, end);
            if (!hit.hit) {
                out.lines.push_back({pos, end, miss});
                continue;
            }
            out.lines.push_back({pos, hit.point, hitRay});
            out.lines.push_back({hit.point, hit.point + hit.normal * normalLength, normal});
            out.marks.push_back({hit.point, SketchMark::Shape::Dot, 2.5f, hitPoint});
        }
    }
    return drawn;
}

std::optional<Vec2> World::goal(int group) const
{
    const Group& g = *m_groups[static_cast<std::size_t>(group)];
    return g.behaviour->goal(g, context());
}

const char* World::agentState(int group, std::size_t agent) const
{
    const Group& g = *m_groups[static_cast<std::size_t>(group)];
    return agent < g.agents.size() ? g.behaviour->agentState(g, agent) : "";
}

const AgentBodies* World::bodies(int group) const
{
    return m_groups[static_cast<std::size_t>(group)]->behaviour->bodies();
}

const UniformGrid& World::sketchedGrid(int group) const
{
    // A group whose plan needs no grid has none (Behaviour::searchesGrid): the overlay is
    // shown the grid the step would have built, built here from where the agents are.
    const Group& g = *m_groups[static_cast<std::size_t>(group)];
    if (g.grid.size() == g.agents.size())
        return g.grid;
    // Built again only when the group or its agents' places changed: the overlay asks for
    // every cell's count, and such a group is small (a hash of its places is cheap).
    if (!m_sketchGrid)
        m_sketchGrid = std::make_unique<SketchGrid>();
    SketchGrid& sketch = *m_sketchGrid;
    const AgentArrays& a = g.agents;
    std::uint64_t places = kFnvOffset;
    hashBytes(places, a.px.data(), a.size() * sizeof(float));
    hashBytes(places, a.py.data(), a.size() * sizeof(float));
    if (sketch.group != group || sketch.agents != a.size() || sketch.places != places) {
        sketch.grid.build(a.px.data(), a.py.data(), a.size(), g.behaviour->gridCells());
        sketch.group = group;
        sketch.agents = a.size();
        sketch.places = places;
    }
    return sketch.grid;
}

GridSketch World::gridSketch(int group) const
{
    const UniformGrid& grid = sketchedGrid(group);
    if (grid.size() == 0 || grid.columns() <= 0 || grid.rows() <= 0)
        return {};
    const GridCellShape shape = grid.cellShape();
    return {grid.origin(), shape.columnWidth, shape.rowHeight, grid.columns(), grid.rows()};
}

std::uint32_t World::gridCellCount(int group, int cell) const
{
    const UniformGrid& grid = sketchedGrid(group);
    return grid.cellEnd(cell) - grid.cellBegin(cell);
}

} // namespace shoal
