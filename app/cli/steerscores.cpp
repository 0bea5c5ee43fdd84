// SteerBench-style scores of a run (steerscores.h).

#include "steerscores.h"

#include <shoal/agentarrays.h>
#include <shoal/metrics.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace shoal::cli {

namespace {

/// One body as the collision pass sees it.
struct Body
{
    std::uint64_t cell = 0; ///< the grid cell, x and y packed
    std::uint64_t key = 0;  ///< group << 32 | agent id
    float x = 0.0f, y = 0.0f, radius = 0.0f;
    int group = 0;
};

std::uint64_t cellKey(std::int64_t cx, std::int64_t cy)
{
    return (static_cast<std::uint64_t>(cx) << 32) ^ (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu);
}

/// Whether bodies of groups a and b push each other (CollisionDesc): either one's mask
/// holds the other's layers.
bool meet(const CollisionDesc& a, const CollisionDesc& b)
{
    return (a.mask & b.layers) != 0 || (b.mask & a.layers) != 0;
}

} // namespace

SteerScores::SteerScores(const SceneDesc& scene) : m_dt(scene.simulation.dt)
{
    for (const GroupDesc& group : scene.groups)
        m_collision.push_back(group.collision);
    m_tracks.resize(scene.groups.size());
    m_collisions.assign(scene.groups.size(), 0);
}

void SteerScores::observe(const World& world)
{
    observeMotion(world);
    observeCollisions(world);
    m_first = false;
}

void SteerScores::observeMotion(const World& world)
{
    const double dt = m_dt;
    const double now = static_cast<double>(world.stepCount()) * dt;
    for (int g = 0; g < world.groupCount() && g < static_cast<int>(m_tracks.size()); ++g) {
        const AgentArrays& a = world.group(g).agents;
        std::vector<Track>& tracks = m_tracks[static_cast<std::size_t>(g)];
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::uint32_t id = a.id[i];
            if (id >= tracks.size())
                tracks.resize(static_cast<std::size_t>(id) + 1);
            Track& t = tracks[id];
            if (t.seen && !m_first) {
                const double dx = static_cast<double>(a.px[i]) - t.x;
                const double dy = static_cast<double>(a.py[i]) - t.y;
                const double moved = std::sqrt(dx * dx + dy * dy);
                t.pathLength += moved;
                // 1/2 |v|^2 dt with v = moved / dt.
                t.energy += 0.5 * moved * moved / dt;
            }
            t.x = a.px[i];
            t.y = a.py[i];
            t.seen = true;
            if (t.reachedAt < 0.0 && (a.flags[i] & kAgentAtGoal))
                t.reachedAt = now;
        }
    }
}

void SteerScores::observeCollisions(const World& world)
{
    std::vector<Body> bodies;
    float largest = 0.0f;
    for (int g = 0; g < world.groupCount() && g < static_cast<int>(m_collision.size()); ++g) {
        const float radius = world.bodyRadius(g);
        largest = std::max(largest, radius);
        const AgentArrays& a = world.group(g).agents;
        for (std::size_t i = 0; i < a.size(); ++i)
            bodies.push_back(
                {0, (static_cast<std::uint64_t>(g) << 32) | a.id[i], a.px[i], a.py[i], radius, g});
    }
    // A grid of cells as wide as the largest body: overlapping bodies are in neighbouring
    // cells, so each body looks at nine cells only.
    const float cell = std::max(2.0f * largest, 1e-3f);
    for (Body& b : bodies)
        b.cell = cellKey(static_cast<std::int64_t>(std::floor(b.x / cell)),
                         static_cast<std::int64_t>(std::floor(b.y / cell)));
    std::sort(bodies.begin(), bodies.end(),
              [](const Body& l, const Body& r) { return l.cell < r.cell; });

    m_current.clear();
    for (const Body& b : bodies) {
        const auto cx = static_cast<std::int64_t>(std::floor(b.x / cell));
        const auto cy = static_cast<std::int64_t>(std::floor(b.y / cell));
        for (std::int64_t dx = -1; dx <= 1; ++dx)
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                const std::uint64_t key = cellKey(cx + dx, cy + dy);
                auto it =
                    std::lower_bound(bodies.begin(), bodies.end(), key,
                                     [](const Body& l, std::uint64_t k) { return l.cell < k; });
                for (; it != bodies.end() && it->cell == key; ++it) {
                    const Body& o = *it;
                    if (o.key <= b.key) // each pair once, and never a body with itself
                        continue;
                    if (!meet(m_collision[static_cast<std::size_t>(b.group)],
                              m_collision[static_cast<std::size_t>(o.group)]))
                        continue;
                    const float ddx = o.x - b.x;
                    const float ddy = o.y - b.y;
                    const float reach = b.radius + o.radius - kPenetrationTolerance;
                    if (reach > 0.0f && ddx * ddx + ddy * ddy < reach * reach)
                        m_current.emplace_back(b.key, o.key);
                }
            }
    }
    std::sort(m_current.begin(), m_current.end());
    // A pair overlapping now that did not after the last step is a new collision event.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> started;
    std::set_difference(m_current.begin(), m_current.end(), m_overlapping.begin(),
                        m_overlapping.end(), std::back_inserter(started));
    for (const auto& [first, second] : started) {
        ++m_collisions[static_cast<std::size_t>(first >> 32)];
        ++m_collisions[static_cast<std::size_t>(second >> 32)];
    }
    m_overlapping.swap(m_current);
}

std::vector<GroupScores> SteerScores::scores() const
{
    std::vector<GroupScores> out(m_tracks.size());
    for (std::size_t g = 0; g < m_tracks.size(); ++g) {
        GroupScores& s = out[g];
        s.collisions = m_collisions[g];
        std::size_t agents = 0, reached = 0;
        double reachedSum = 0.0;
        for (const Track& t : m_tracks[g]) {
            if (!t.seen)
                continue;
            ++agents;
            s.pathLength += t.pathLength;
            s.energy += t.energy;
            if (t.reachedAt >= 0.0) {
                ++reached;
                reachedSum += t.reachedAt;
            }
        }
        if (agents > 0) {
            s.pathLength /= static_cast<double>(agents);
            s.energy /= static_cast<double>(agents);
            if (reached == agents)
                s.timeToGoal = reachedSum / static_cast<double>(agents);
        }
    }
    return out;
}

} // namespace shoal::cli
