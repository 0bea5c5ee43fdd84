// World's viewer-facing side (<shoal/sketch.h>): each call hands the question to the group's
// family, or answers it from the runtime's own data (feeler rays, the neighbour grid), so an
// editor draws every family without knowing one.

#include <shoal/world.h>

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"
#include "world/behaviour.h"

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

GridSketch World::gridSketch(int group) const
{
    const UniformGrid& grid = m_groups[static_cast<std::size_t>(group)]->grid;
    if (grid.size() == 0 || grid.columns() <= 0 || grid.rows() <= 0)
        return {};
    const GridCellShape shape = grid.cellShape();
    return {grid.origin(), shape.columnWidth, shape.rowHeight, grid.columns(), grid.rows()};
}

std::uint32_t World::gridCellCount(int group, int cell) const
{
    const UniformGrid& grid = m_groups[static_cast<std::size_t>(group)]->grid;
    return grid.cellEnd(cell) - grid.cellBegin(cell);
}

} // namespace shoal
