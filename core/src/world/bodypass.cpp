#include "world/bodypass.h"

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"
#include "math/random.h"
#include "world/behaviour.h"
#include <shoal/metrics.h>

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

/// Fixed-point scale of the pushes: 2^24 steps per metre (6e-8 m), so sums of any order
/// are exact and the largest push a level allows fits many times over in 64 bits.
constexpr float kFixedScale = 16777216.0f;
constexpr float kFixedToMetres = 1.0f / kFixedScale;
/// Rounds stop once no overlap is deeper than this, m.
constexpr float kSettled = 2e-3f;
/// A body planned this near a wall (m) counts as held by it.
constexpr float kTouching = 0.02f;

std::int64_t toFixed(float metres)
{
    return static_cast<std::int64_t>(metres * kFixedScale);
}

/// Two bodies exactly on top of each other have no offset to part along: each pair parts
/// along a line of its own (from the pair's keys), the two bodies opposite ways.
Vec2 partingDirection(std::uint64_t self, std::uint64_t other)
{
    const std::uint64_t lo = std::min(self, other), hi = std::max(self, other);
    const std::uint64_t h = mix64(lo ^ mix64(hi));
    const float angle = static_cast<float>(h >> 40) * (2.0f * kPi / 16777216.0f);
    return fromAngle(angle) * (self < other ? 1.0f : -1.0f);
}

} // namespace

void BodyPass::gatherBodies(std::vector<std::unique_ptr<Group>>& groups,
                            const std::vector<BodyGroupRule>& rules, bool hasPlayer, Vec2 player,
                            float playerRadius, Positions positions)
{
    const bool planned = positions == Positions::Planned;
    std::size_t n = hasPlayer ? 1 : 0;
    for (const auto& group : groups)
        n += group->agents.size();
    m_x.resize(n);
    m_y.resize(n);
    m_fromX.resize(n);
    m_fromY.resize(n);
    m_radius.resize(n);
    m_rule.resize(n);
    m_fixed.resize(n);
    m_key.resize(n);
    m_groupStart.resize(groups.size() + 1);
    std::size_t b = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group& group = *groups[g];
        const AgentArrays& a = group.agents;
        const BodyGroupRule& rule = rules[g];
        const bool askEach = group.behaviour->someAgentsHoldPlace();
        m_groupStart[g] = static_cast<std::uint32_t>(b);
        for (std::size_t i = 0; i < a.size(); ++i, ++b) {
            m_x[b] = planned ? a.nx[i] : a.px[i];
            m_y[b] = planned ? a.ny[i] : a.py[i];
            m_fromX[b] = a.px[i];
            m_fromY[b] = a.py[i];
            m_radius[b] = rule.radius;
            m_rule[b] = static_cast<std::uint16_t>(g);
            m_fixed[b] = rule.fixed || (group.playerLed && i == 0) ||
                         (askEach && group.behaviour->agentHoldsPlace(group, i));
            m_key[b] = (static_cast<std::uint64_t>(g) << 32) | a.id[i];
        }
    }
    m_groupStart[groups.size()] = static_cast<std::uint32_t>(b);
    // The per-rule tables, with the player's rule last: on layer 1, pushed by nobody.
    m_layers.resize(rules.size() + 1);
    m_mask.resize(rules.size() + 1);
    m_priority.resize(rules.size() + 1);
    for (std::size_t r = 0; r < rules.size(); ++r) {
        m_layers[r] = rules[r].collision.layers;
        m_mask[r] = rules[r].collision.mask;
        m_priority[r] = rules[r].collision.priority;
    }
    m_layers[rules.size()] = 1u;
    m_mask[rules.size()] = 0u;
    m_priority[rules.size()] = kMaxCollisionPriority + 1;
    if (hasPlayer) {
        m_x[b] = player.x;
        m_y[b] = player.y;
        m_fromX[b] = player.x;
        m_fromY[b] = player.y;
        m_radius[b] = playerRadius;
        m_rule[b] = static_cast<std::uint16_t>(rules.size());
        m_fixed[b] = 1;
        m_key[b] = ~std::uint64_t{0};
    }
}

float BodyPass::maxRadius() const
{
    float r = 0.0f;
    for (float radius : m_radius)
        r = std::max(r, radius);
    return r;
}

bool BodyPass::pushRound(const StaticGeometry& geometry)
{
    const std::size_t n = m_x.size();
    const float maxRadius = this->maxRadius();
    if (n < 2 || maxRadius <= 0.0f)
        return false;
    m_grid.build(m_x.data(), m_y.data(), n, 2.0f * maxRadius);
    m_pushX.assign(n, 0);
    m_pushY.assign(n, 0);
    float deepest = 0.0f;
    // Bodies in cell order: the neighbour reads walk memory coherently.
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t i = m_grid.sortedIndex(static_cast<std::uint32_t>(k));
        if (m_fixed[i])
            continue;
        const float ri = m_radius[i];
        const std::uint16_t ruleI = m_rule[i];
        const std::uint32_t maskI = m_mask[ruleI];
        const std::uint32_t layersI = m_layers[ruleI];
        const int priorityI = m_priority[ruleI];
        const bool pinnedI = m_pinned[i];
        std::int64_t pushX = 0, pushY = 0;
        m_grid.forEachWithin(
            {m_x[i], m_y[i]}, ri + maxRadius, [&](std::uint32_t j, float dx, float dy, float d2) {
                const float contact = ri + m_radius[j];
                if (j == i || d2 >= contact * contact)
                    return;
                const std::uint16_t ruleJ = m_rule[j];
                const int priorityJ = m_priority[ruleJ];
                // A body that cannot move (fixed, or held by a wall while the other is not)
                // holds its ground whatever the priorities.
                const bool jHolds = m_fixed[j] || (m_pinned[j] && !pinnedI);
                const bool iHolds = pinnedI && !m_pinned[j];
                (void)iHolds;
                // i gives way to j when its mask has j's layer and j's priority is not below its
                // own, or j holds; j to i likewise.
                const bool iGives = (maskI & m_layers[ruleJ]) && (priorityJ >= priorityI || jHolds);
                if (!iGives)
                    return;
                const bool jGives = !m_fixed[j] && (m_mask[ruleJ] & layersI) &&
                                    (priorityI >= priorityJ || iHolds) && !jHolds;
                // A body held by a wall still takes its share: the wall takes the part of it
                // that points into the wall, and the rest slides it along, which is what undoes
                // a jam of held bodies.
                const float part = !jGives ? 1.0f : 0.5f;
                const float d = std::sqrt(d2);
                deepest = std::max(deepest, contact - d);
                const float share = (contact - d) * part;
                const Vec2 dir =
                    d > 1e-6f ? Vec2(dx, dy) * (1.0f / d) : partingDirection(m_key[i], m_key[j]);
                pushX += toFixed(dir.x * share);
                pushY += toFixed(dir.y * share);
            });
        m_pushX[i] = pushX;
        m_pushY[i] = pushY;
    }
    // Overlaps this shallow are left to the next step: nobody would see them.
    if (deepest < kSettled)
        return false;
    // Walls win: a pushed body is kept clear of them at once, and one they held is pinned.
    for (std::size_t b = 0; b < n; ++b) {
        if (m_pushX[b] == 0 && m_pushY[b] == 0)
            continue;
        const Vec2 pushed{m_x[b] + static_cast<float>(m_pushX[b]) * kFixedToMetres,
                          m_y[b] + static_cast<float>(m_pushY[b]) * kFixedToMetres};
        bool held = false;
        const Vec2 kept = geometry.keepClear({m_fromX[b], m_fromY[b]}, pushed, m_radius[b], &held);
        m_x[b] = kept.x;
        m_y[b] = kept.y;
        if (held)
            m_pinned[b] = 1;
    }
    return true;
}

std::size_t BodyPass::run(std::vector<std::unique_ptr<Group>>& groups,
                          const std::vector<BodyGroupRule>& rules, bool hasPlayer, Vec2 player,
                          float playerRadius, const StaticGeometry& geometry, float dt, int rounds)
{
    m_indexed = false;
    gatherBodies(groups, rules, hasPlayer, player, playerRadius, Positions::Planned);
    // Bodies planned against a wall start pinned.
    const std::size_t n = m_x.size();
    m_pinned.assign(n, 0);
    for (std::size_t b = 0; b < n; ++b)
        if (!m_fixed[b] && geometry.bodyOverlap({m_x[b], m_y[b]}, m_radius[b] + kTouching) > 0.0f)
            m_pinned[b] = 1;
    bool moved = false;
    for (int round = 0; round < rounds; ++round) {
        if (!pushRound(geometry))
            break;
        moved = true;
    }
    if (!moved)
        return 0;
    // The pushes are motion like any other: the bodies' velocities say so.
    const float inverseDt = 1.0f / dt;
    std::size_t count = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        AgentArrays& a = groups[g]->agents;
        const std::uint32_t start = m_groupStart[g];
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::size_t b = start + i;
            if (m_x[b] != a.nx[i] || m_y[b] != a.ny[i]) {
                a.nvx[i] += (m_x[b] - a.nx[i]) * inverseDt;
                a.nvy[i] += (m_y[b] - a.ny[i]) * inverseDt;
                a.nx[i] = m_x[b];
                a.ny[i] = m_y[b];
                ++count;
            }
        }
    }
    return count;
}

float BodyPass::deepestOverlap(std::uint32_t i, float reach,
                               std::vector<std::unique_ptr<Group>>& groups)
{
    const float ri = m_radius[i];
    const std::uint16_t ruleI = m_rule[i];
    float deepest = 0.0f;
    m_grid.forEachWithin(
        {m_x[i], m_y[i]}, ri + reach, [&](std::uint32_t j, float, float, float d2) {
            const float contact = ri + m_radius[j];
            if (j == i || d2 >= contact * contact)
                return;
            const std::uint16_t ruleJ = m_rule[j];
            if (!(m_mask[ruleI] & m_layers[ruleJ]) && !(m_mask[ruleJ] & m_layers[ruleI]))
                return; // these two were never meant to be solid to each other
            const float depth = contact - std::sqrt(d2);
            deepest = std::max(deepest, depth);
            if (depth <= kPenetrationTolerance || m_key[j] < m_key[i])
                return; // shallow, or the pair is tallied from j
            for (const std::uint16_t rule : {ruleI, ruleJ}) {
                if (rule >= groups.size())
                    continue; // the player has no metrics of its own
                GroupMetrics& m = groups[rule]->metrics;
                if (ruleI == ruleJ) {
                    ++m.penetrations;
                    m.maxPenetration = std::max(m.maxPenetration, depth);
                    break;
                }
                ++m.crossPenetrations;
                m.crossMaxPenetration = std::max(m.crossMaxPenetration, depth);
            }
        });
    return deepest;
}

void BodyPass::index(std::vector<std::unique_ptr<Group>>& groups, bool hasPlayer, Vec2 player,
                     float playerRadius)
{
    gatherBodies(groups, rules, hasPlayer, player, playerRadius, Positions::Committed);
    m_indexRadius = maxRadius();
    m_grid.build(m_x.data(), m_y.data(), m_x.size(), std::max(2.0f * m_indexRadius, 0.1f));
    m_indexed = true;
}

OtherBodies othersNear(const StepContext& ctx, const Group& group, Vec2 p, float radius,
                       Vec2 forward, float look)
{
    if (!ctx.bodies)
        return {{}, look};
    return ctx.bodies->othersNear(group.index, p, radius, forward, look);
}

OtherBodies BodyPass::othersNear(int group, Vec2 p, float radius, Vec2 forward, float look) const
{
    OtherBodies out;
    out.gapAhead = look;
    const std::uint32_t mask = m_mask[static_cast<std::size_t>(group)];
    const int priority = m_priority[static_cast<std::size_t>(group)];
    const float reach = radius + m_indexRadius + std::max(radius, look);
    m_grid.forEachWithin(p, reach, [&](std::uint32_t j, float dx, float dy, float d2) {
        const std::uint16_t rule = m_rule[j];
        if (rule == group || !(mask & m_layers[rule]) ||
            (m_priority[rule] < priority && !m_fixed[j]))
            return;
        const float d = std::sqrt(d2);
        const float gap = d - radius - m_radius[j];
        if (gap < radius && d > 1e-6f)
            out.away += Vec2(dx, dy) * ((1.0f - std::max(gap, 0.0f) / radius) / d);
        // Ahead: within 60 degrees of the heading (dx, dy point from j to p).
        const float along = -(dx * forward.x + dy * forward.y);
        if (along > 0.5f * d)
            out.gapAhead = std::min(out.gapAhead, gap);
    });
    return out;
}

void BodyPass::measure(std::vector<std::unique_ptr<Group>>& groups, const StaticGeometry& geometry,
                       float dt)
{
    const float reach = m_indexRadius;
    m_overlapTime.resize(groups.size());
    for (std::size_t g = 0; g < groups.size(); ++g) {
        Group& group = *groups[g];
        const AgentArrays& a = group.agents;
        GroupMetrics& m = group.metrics;
        std::vector<float>& overlapTime = m_overlapTime[g];
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a.id[i] >= overlapTime.size())
                overlapTime.resize(a.id[i] + 1, 0.0f);
        const float radius = rules[g].radius;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const std::uint32_t b = m_groupStart[g] + static_cast<std::uint32_t>(i);
            const Vec2 at{m_x[b], m_y[b]};
            const int id = static_cast<int>(a.id[i]);
            const float wall = geometry.bodyOverlap(at, radius);
            if (wall > kPenetrationTolerance)
                ++m.wallOverlaps;
            if (wall > m.wallOverlapMax) {
                m.wallOverlapMax = wall;
                m.wallOverlapAgent = id;
                m.wallOverlapAt = at;
            }
            float& seconds = overlapTime[a.id[i]];
            seconds =
                deepestOverlap(b, reach, groups) > kPenetrationTolerance ? seconds + dt : 0.0f;
            if (seconds > m.overlapSeconds) {
                m.overlapSeconds = seconds;
                m.overlapAgent = id;
                m.overlapAt = at;
            }
        }
    }
}

std::size_t BodyPass::memoryBytes() const
{
    return (m_x.capacity() + m_y.capacity() + m_radius.capacity()) * sizeof(float) +
           (m_fromX.capacity() + m_fromY.capacity()) * sizeof(float) +
           m_rule.capacity() * sizeof(std::uint16_t) + m_fixed.capacity() + m_pinned.capacity() +
           m_key.capacity() * sizeof(std::uint64_t) +
           (m_pushX.capacity() + m_pushY.capacity()) * sizeof(std::int64_t) + m_grid.memoryBytes();
}

} // namespace shoal
