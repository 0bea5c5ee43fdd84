// SteerBench-style scores of a run (steerscores.h).

#include "steerscores.h"

#include <shoal/agentarrays.h>
#include <shoal/metrics.h>

#include <algorithm>
#include <cmath>

namespace shoal::cli {

namespace {

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
    std::vector<Body>& bodies = m_bodies;
    bodies.clear();
    float largest = 0.0f;
    float minX = 0.0f, minY = 0.0f, maxX = 0.0f, maxY = 0.0f;
    for (int g = 0; g < world.groupCount() && g < static_cast<int>(m_collision.size()); ++g) {
        const float radius = world.bodyRadius(g);
        largest = std::max(largest, radius);
        const AgentArrays& a = world.group(g).agents;
        for (std::size_t i = 0; i < a.size(); ++i) {
            Body b;
            b.key = (static_cast<std::uint64_t>(g) << 32) | a.id[i];
            b.x = a.px[i];
            b.y = a.py[i];
            b.radius = radius;
            b.group = g;
            if (bodies.empty()) {
                minX = maxX = b.x;
                minY = maxY = b.y;
            }
            minX = std::min(minX, b.x);
            maxX = std::max(maxX, b.x);
            minY = std::min(minY, b.y);
            maxY = std::max(maxY, b.y);
            bodies.push_back(b);
        }
    }
    m_current.clear();
    if (!bodies.empty()) {
        // A grid over the bodies, cells at least as wide as the largest body, so overlapping
        // bodies are in neighbouring cells; widened where the bodies are sparse, so it has
        // no more than a few cells a body. Bodies sorted into it by counting: no search.
        const std::size_t most = 4 * bodies.size() + 1024;
        double cell = std::max(2.0 * static_cast<double>(largest), 1e-3);
        double columns = std::floor((double(maxX) - minX) / cell) + 1.0;
        double rows = std::floor((double(maxY) - minY) / cell) + 1.0;
        if (columns * rows > double(most)) {
            cell *= std::sqrt(columns * rows / double(most)) * 1.01;
            columns = std::floor((double(maxX) - minX) / cell) + 1.0;
            rows = std::floor((double(maxY) - minY) / cell) + 1.0;
        }
        const auto width = static_cast<std::size_t>(columns);
        const auto height = static_cast<std::size_t>(rows);
        const auto cellOf = [&](double v, float low, std::size_t count) {
            const auto c = static_cast<std::size_t>(std::max(0.0, std::floor((v - low) / cell)));
            return std::min(c, count - 1);
        };
        m_cellStart.assign(width * height + 1, 0);
        for (Body& b : bodies) {
            b.cx = static_cast<std::int64_t>(cellOf(b.x, minX, width));
            b.cy = static_cast<std::int64_t>(cellOf(b.y, minY, height));
            ++m_cellStart[static_cast<std::size_t>(b.cy) * width + std::size_t(b.cx) + 1];
        }
        for (std::size_t c = 1; c < m_cellStart.size(); ++c)
            m_cellStart[c] += m_cellStart[c - 1];
        m_order.resize(bodies.size());
        m_fill.assign(m_cellStart.begin(), m_cellStart.end() - 1);
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const Body& b = bodies[i];
            m_order[m_fill[static_cast<std::size_t>(b.cy) * width + std::size_t(b.cx)]++] =
                static_cast<std::uint32_t>(i);
        }
        // Each pair once: a body meets those after it in its own cell, those of the cell to
        // its right, and those of the three cells of the row above.
        const auto meetRange = [&](const Body& b, std::uint32_t from, std::uint32_t to) {
            for (std::uint32_t k = from; k < to; ++k) {
                const Body& o = bodies[m_order[k]];
                if (!meet(m_collision[static_cast<std::size_t>(b.group)],
                          m_collision[static_cast<std::size_t>(o.group)]))
                    continue;
                const float ddx = o.x - b.x;
                const float ddy = o.y - b.y;
                const float reach = b.radius + o.radius - kPenetrationTolerance;
                if (reach > 0.0f && ddx * ddx + ddy * ddy < reach * reach)
                    m_current.emplace_back(std::min(b.key, o.key), std::max(b.key, o.key));
            }
        };
        for (std::uint32_t p = 0; p < m_order.size(); ++p) {
            const Body& b = bodies[m_order[p]];
            const auto cx = static_cast<std::size_t>(b.cx);
            const auto cy = static_cast<std::size_t>(b.cy);
            const std::size_t here = cy * width + cx;
            meetRange(b, p + 1, m_cellStart[here + 1]);
            if (cx + 1 < width)
                meetRange(b, m_cellStart[here + 1], m_cellStart[here + 2]);
            if (cy + 1 < height) {
                const std::size_t row = (cy + 1) * width;
                const std::size_t x0 = cx > 0 ? cx - 1 : 0;
                const std::size_t x1 = std::min(cx + 1, width - 1);
                meetRange(b, m_cellStart[row + x0], m_cellStart[row + x1 + 1]);
            }
        }
    }
    std::sort(m_current.begin(), m_current.end());
    // A pair overlapping now that did not after the last step is a new collision event
    // (both lists sorted: one walk).
    auto before = m_overlapping.begin();
    for (const auto& pair : m_current) {
        while (before != m_overlapping.end() && *before < pair)
            ++before;
        if (before != m_overlapping.end() && *before == pair)
            continue;
        ++m_collisions[static_cast<std::size_t>(pair.first >> 32)];
        ++m_collisions[static_cast<std::size_t>(pair.second >> 32)];
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
