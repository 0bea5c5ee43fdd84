// World::agentsWithin(), nearestAgent() and rayCast(): what a game asks of the world between
// steps (who is near the explosion, which enemy is closest, can the turret see the player).

#include <shoal/world.h>

#include "geometry/staticgeometry.h"
#include "world/behaviour.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

/// Runs f(i, d2) for every agent of `group` within `radius` of p: through the group's grid
/// when it holds the agents as they are, else over every agent.
template <class F> void forEachAgentWithin(const Group& group, Vec2 p, float radius, F&& f)
{
    const AgentArrays& a = group.agents;
    if (group.grid.size() == a.size() && std::isfinite(radius)) {
        group.grid.forEachWithin(p, radius, [&](std::uint32_t i, float, float, float d2) {
            f(static_cast<std::size_t>(i), d2);
        });
        return;
    }
    const float r2 = radius * radius;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const float dx = p.x - a.px[i], dy = p.y - a.py[i];
        const float d2 = dx * dx + dy * dy;
        if (d2 <= r2)
            f(i, d2);
    }
}

} // namespace

std::size_t World::agentsWithin(Vec2 centre, float radius, std::uint32_t layerMask,
                                std::vector<AgentHit>& out) const
{
    const std::size_t first = out.size();
    if (!(radius >= 0.0f))
        return 0;
    for (const auto& group : m_groups) {
        if (!(group->collision.layers & layerMask))
            continue;
        const std::size_t from = out.size();
        forEachAgentWithin(*group, centre, radius, [&](std::size_t i, float d2) {
            out.push_back({group->index, group->agents.id[i], i, std::sqrt(d2)});
        });
        // The grid walks its cells: in index order, as the call promises.
        std::sort(out.begin() + static_cast<std::ptrdiff_t>(from), out.end(),
                  [](const AgentHit& x, const AgentHit& y) { return x.index < y.index; });
    }
    return out.size() - first;
}

std::optional<AgentHit> World::nearestAgent(Vec2 point, std::uint32_t layerMask,
                                            float maxDistance) const
{
    std::optional<AgentHit> best;
    float best2 = 0.0f;
    if (!(maxDistance >= 0.0f))
        return best;
    for (const auto& group : m_groups) {
        if (!(group->collision.layers & layerMask))
            continue;
        // The grid looks no further than it must once something is found (a hair further:
        // the square of a rounded root may fall short of what it was taken of).
        const float reach = best ? std::sqrt(best2) * 1.0001f + 1e-6f : maxDistance;
        forEachAgentWithin(*group, point, reach, [&](std::size_t i, float d2) {
            const std::uint32_t id = group->agents.id[i];
            if (!best || d2 < best2 ||
                (d2 == best2 && group->index == best->group && id < best->id)) {
                best = AgentHit{group->index, id, i, 0.0f};
                best2 = d2;
            }
        });
    }
    if (best)
        best->distance = std::sqrt(best2);
    return best;
}

LevelHit World::rayCast(Vec2 from, Vec2 to) const
{
    const RayHit hit = m_geometry->rayCast(from, to);
    LevelHit out;
    out.hit = hit.hit;
    if (hit.hit) {
        out.point = hit.point;
        out.normal = hit.normal;
        out.fraction = hit.fraction;
    } else {
        out.point = to;
    }
    return out;
}

} // namespace shoal
