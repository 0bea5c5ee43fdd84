#include <shoal/problems.h>

#include <shoal/world.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal {

namespace {

constexpr float kPi = 3.14159265358979f;
/// A turn slower than this is steering, not a reversal worth counting (rad/s): a swarm's
/// scatter wobbles headings by a degree a step, which nobody sees.
constexpr float kReversalTurnRate = 120.0f * kPi / 180.0f;
/// The progress that counts as coming closer to the goal (mean distance, m).
constexpr float kProgressStep = 0.5f;

std::int8_t signOf(float value, float threshold)
{
    return value > threshold ? 1 : (value < -threshold ? -1 : 0);
}

std::uint64_t problemKey(ProblemKind kind, int group, int agent)
{
    return (std::uint64_t(kind) << 56) | (std::uint64_t(std::uint32_t(group)) << 32) |
           std::uint64_t(std::uint32_t(agent + 1));
}

/// Whether a body of group `a` and one of group `b` are kept apart (either pushes the other).
bool collide(const World& world, int a, int b)
{
    const CollisionDesc& ca = world.collision(a);
    const CollisionDesc& cb = world.collision(b);
    return (ca.mask & cb.layers) != 0 || (cb.mask & ca.layers) != 0;
}

} // namespace

void ProblemWatch::reset()
{
    m_motion.clear();
    m_progress.clear();
    m_windowStart = 0.0;
    m_lastStep = ~std::uint64_t(0);
    m_problems.clear();
    m_began.clear();
}

void ProblemWatch::observe(const World& world)
{
    const std::uint64_t step = world.stepCount();
    if (step == m_lastStep)
        return;
    if (m_lastStep != ~std::uint64_t(0) && step < m_lastStep)
        reset(); // the world restarted
    m_lastStep = step;
    const double now = world.time();
    if (now - m_windowStart >= 1.0) {
        for (auto& group : m_motion)
            for (Motion& motion : group) {
                motion.lastSecond = motion.reversals;
                motion.reversals = 0;
            }
        m_windowStart = now;
    }
    const float dt = world.dt();
    m_motion.resize(std::size_t(world.groupCount()));
    m_progress.resize(std::size_t(world.groupCount()));
    for (int g = 0; g < world.groupCount(); ++g) {
        const GroupState& group = world.group(g);
        const AgentArrays& a = group.agents;
        std::vector<Motion>& motions = m_motion[std::size_t(g)];
        // Going nowhere: within a body's width (at least a metre) of where it was.
        const float reach = std::max(2.0f * world.bodyRadius(g), 1.0f);
        double goalSum = 0.0;
        bool atGoal = false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::uint32_t id = a.id[i];
            if (id >= motions.size())
                motions.resize(id + 1);
            Motion& m = motions[id];
            if (m.seen) {
                const std::int8_t turn =
                    signOf(wrapAngle(a.heading[i] - m.heading), kReversalTurnRate * dt);
                if (turn != 0) {
                    m.reversals += std::uint16_t(m.turnSign != 0 && turn != m.turnSign);
                    m.turnSign = turn;
                }
                // Forward against backward (a tank shuffling); easing the speed up and down
                // is not a reversal.
                const std::int8_t way = signOf(a.speed[i], kStuckSpeed);
                if (way != 0) {
                    m.reversals += std::uint16_t(m.speedSign != 0 && way != m.speedSign);
                    m.speedSign = way;
                }
            }
            const bool here = a.flags[i] & kAgentAtGoal;
            if (!m.seen || here || std::hypot(a.px[i] - m.anchor.x, a.py[i] - m.anchor.y) > reach) {
                m.anchor = {a.px[i], a.py[i]};
                m.anchoredAt = now;
            }
            m.heading = a.heading[i];
            m.seen = true;
            goalSum += a.goalDistance[i];
            atGoal = atGoal || (a.flags[i] & kAgentAtGoal);
        }

        Progress& progress = m_progress[std::size_t(g)];
        if (!world.goal(g) || a.size() == 0) {
            progress.started = false;
            continue;
        }
        const float mean = float(goalSum / double(a.size()));
        if (!progress.started || atGoal || group.targetVersion != progress.targetVersion ||
            mean < progress.best - kProgressStep) {
            progress.best = mean;
            progress.since = now;
            progress.targetVersion = group.targetVersion;
            progress.started = true;
        }
    }
}

void ProblemWatch::add(ProblemKind kind, int group, int agent, Vec2 at, float value, double now,
                       double since)
{
    const std::uint64_t key = problemKey(kind, group, agent);
    if (since < 0.0) {
        const auto it = std::lower_bound(m_began.begin(), m_began.end(), key,
                                         [](const Began& b, std::uint64_t k) { return b.key < k; });
        since = (it != m_began.end() && it->key == key) ? it->since : now;
    }
    m_problems.push_back({kind, group, agent, at, value, since});
    m_nextBegan.push_back({key, since});
}

const std::vector<Problem>& ProblemWatch::problems(const World& world)
{
    m_problems.clear();
    m_nextBegan.clear();
    const double now = world.time();
    for (int g = 0; g < world.groupCount(); ++g) {
        const AgentArrays& a = world.group(g).agents;
        const float radius = world.bodyRadius(g);
        const std::vector<Motion>* motions =
            std::size_t(g) < m_motion.size() ? &m_motion[std::size_t(g)] : nullptr;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const int id = int(a.id[i]);
            const Vec2 at{a.px[i], a.py[i]};
            const Motion* m = motions && std::size_t(id) < motions->size()
                                  ? &(*motions)[std::size_t(id)]
                                  : nullptr;
            // Still (the runtime's own count) or going nowhere (pinned, or jittering on the
            // spot), away from its goal.
            const float stuckFor = std::max(a.stuckTime[i], m ? float(now - m->anchoredAt) : 0.0f);
            if (stuckFor >= m_thresholds.stuckSeconds)
                add(ProblemKind::Stuck, g, id, at, stuckFor, now, now - stuckFor);
            if (m) {
                const float reversals = float(std::max(m->reversals, m->lastSecond));
                if (reversals >= m_thresholds.reversalsPerSecond)
                    add(ProblemKind::Oscillating, g, id, at, reversals, now);
            }
            const float wall = world.bodyWallOverlap(at, radius);
            if (wall > m_thresholds.wallDepth)
                add(ProblemKind::InWall, g, id, at, wall, now);
        }
        if (std::size_t(g) < m_progress.size()) {
            const Progress& progress = m_progress[std::size_t(g)];
            if (progress.started && now - progress.since >= m_thresholds.goalSeconds)
                if (const std::optional<Vec2> goal = world.goal(g))
                    add(ProblemKind::GoalNotReached, g, -1, *goal, float(now - progress.since), now,
                        progress.since);
        }
    }
    findOverlaps(world, now);

    std::sort(m_problems.begin(), m_problems.end(), [](const Problem& x, const Problem& y) {
        if (x.group != y.group)
            return x.group < y.group;
        if (x.agent != y.agent)
            return x.agent < y.agent;
        return x.kind < y.kind;
    });
    std::sort(m_nextBegan.begin(), m_nextBegan.end(),
              [](const Began& x, const Began& y) { return x.key < y.key; });
    m_began.swap(m_nextBegan);
    return m_problems;
}

void ProblemWatch::findOverlaps(const World& world, double now)
{
    // Every disc body of the world in one list (worms' bodies are chains: the runtime's own
    // metrics measure them), sorted by cell so a body's neighbours are a few runs away.
    std::vector<Body>& bodies = m_bodies;
    bodies.clear();
    float largest = 0.0f;
    for (int g = 0; g < world.groupCount(); ++g) {
        if (world.bodies(g))
            continue;
        const AgentArrays& a = world.group(g).agents;
        const float r = world.bodyRadius(g);
        largest = std::max(largest, r);
        for (std::size_t i = 0; i < a.size(); ++i)
            bodies.push_back({a.px[i], a.py[i], r, g, int(a.id[i])});
    }
    if (bodies.size() < 2)
        return;
    const float cell = std::max(2.0f * largest, 0.25f);
    const auto cellKey = [cell](float x, float y, int dx, int dy) {
        const auto cx = std::uint32_t(std::int32_t(std::floor(x / cell)) + dx);
        const auto cy = std::uint32_t(std::int32_t(std::floor(y / cell)) + dy);
        return (std::uint64_t(cx) << 32) | cy;
    };
    m_order.resize(bodies.size());
    m_cellOf.resize(bodies.size());
    for (std::uint32_t b = 0; b < bodies.size(); ++b) {
        m_order[b] = b;
        m_cellOf[b] = cellKey(bodies[b].x, bodies[b].y, 0, 0);
    }
    std::sort(m_order.begin(), m_order.end(), [&](std::uint32_t x, std::uint32_t y) {
        return m_cellOf[x] != m_cellOf[y] ? m_cellOf[x] < m_cellOf[y] : x < y;
    });
    std::vector<std::uint64_t>& sortedKeys = m_sortedKeys;
    sortedKeys.resize(bodies.size());
    for (std::size_t k = 0; k < m_order.size(); ++k)
        sortedKeys[k] = m_cellOf[m_order[k]];

    for (std::uint32_t b = 0; b < bodies.size(); ++b) {
        const Body& body = bodies[b];
        float deepest = -std::numeric_limits<float>::infinity();
        for (int dx = -1; dx <= 1; ++dx)
            for (int dy = -1; dy <= 1; ++dy) {
                const std::uint64_t key = cellKey(body.x, body.y, dx, dy);
                auto it = std::lower_bound(sortedKeys.begin(), sortedKeys.end(), key);
                for (; it != sortedKeys.end() && *it == key; ++it) {
                    const Body& other = bodies[m_order[std::size_t(it - sortedKeys.begin())]];
                    if (&other == &body)
                        continue;
                    const float depth =
                        body.r + other.r - std::hypot(other.x - body.x, other.y - body.y);
                    if (depth > deepest && collide(world, body.group, other.group))
                        deepest = depth;
                }
            }
        if (deepest > m_thresholds.overlapDepth)
            add(ProblemKind::Overlap, body.group, body.id, {body.x, body.y}, deepest, now);
    }
}

} // namespace shoal
