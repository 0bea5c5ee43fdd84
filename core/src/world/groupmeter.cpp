#include "world/groupmeter.h"

#include "math/fastmath.h"

#include <algorithm>
#include <cmath>

namespace shoal {

void GroupMeter::measure(Group& group)
{
    const AgentArrays& a = group.agents;
    const Behaviour& behaviour = *group.behaviour;
    const std::size_t n = a.size();
    GroupMetrics& m = group.metrics;
    // The commit counts the crossings; everything else starts afresh.
    GroupMetrics fresh;
    fresh.wallCrossings = m.wallCrossings;
    fresh.totalWallCrossings = m.totalWallCrossings;
    fresh.crossingAgent = m.crossingAgent;
    fresh.crossingFrom = m.crossingFrom;
    fresh.crossingTo = m.crossingTo;
    m = fresh;
    m.agents = static_cast<int>(n);

    m_active.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        m_active[i] = behaviour.isActive(group, i) ? 1 : 0;

    const float radius = behaviour.bodyRadius();
    const Reach reach{std::max(behaviour.queryRadius(), 2.0f * radius), behaviour.keepDistance(),
                      behaviour.bandOuterDistance()};
    m_nearest.clear();
    Sums sums;
    for (std::size_t i = 0; i < n; ++i) {
        if (a.flags[i] & kAgentBlocked)
            ++m.blocked;
        if (a.flags[i] & kAgentStuck)
            ++m.stuck;
        if (!m_active[i])
            continue;
        tallyAgent(group, i, m, sums);
        nearestNeighbour(group, reach, i, m);
    }
    if (m.active > 0) {
        m.polarization = static_cast<float>(
            std::sqrt(sums.headingX * sums.headingX + sums.headingY * sums.headingY) / m.active);
        m.meanSpeed = static_cast<float>(sums.speed / m.active);
        m.goalDistanceMean = static_cast<float>(sums.goal / m.active);
    }
    summarizeNearest(m);
}

void GroupMeter::tallyAgent(const Group& group, std::size_t i, GroupMetrics& m, Sums& sums) const
{
    const AgentArrays& a = group.agents;
    ++m.active;
    float hs, hc;
    sinCos(a.heading[i], hs, hc);
    sums.headingX += hc;
    sums.headingY += hs;
    const float speed = std::sqrt(a.vx[i] * a.vx[i] + a.vy[i] * a.vy[i]);
    sums.speed += speed;
    m.maxSpeed = std::max(m.maxSpeed, speed);
    sums.goal += a.goalDistance[i];
    m.goalDistanceMax = std::max(m.goalDistanceMax, a.goalDistance[i]);
    if (a.flags[i] & kAgentAtGoal)
        ++m.atGoal;
}

void GroupMeter::nearestNeighbour(const Group& group, const Reach& reach, std::size_t i,
                                  GroupMetrics& m)
{
    const AgentArrays& a = group.agents;
    const float queryRadius = reach.query;
    const float outer = reach.bandOuter;
    float nearest2 = queryRadius * queryRadius * 4.0f;
    bool found = false;
    auto see = [&](std::uint32_t j, float, float, float d2) {
        if (j == i || !m_active[j])
            return;
        found = true;
        nearest2 = std::min(nearest2, d2);
    };
    // A group whose plan needs no grid has none (Behaviour::searchesGrid): it is small, and
    // every member is looked at.
    if (group.grid.size() == a.size())
        group.grid.forEachWithin({a.px[i], a.py[i]}, queryRadius, see);
    else
        group.bruteForce.forEachWithin({a.px[i], a.py[i]}, queryRadius, see);
    if (found) {
        const float d = std::sqrt(nearest2);
        m_nearest.push_back(d);
        if (d < reach.keep)
            ++m.insideKeep;
        if (outer > 0.0f && d > outer)
            ++m.outsideBand;
    } else if (outer > 0.0f && m.agents > 1) {
        ++m.outsideBand; // nobody even within the neighbour radius
    }
}

void GroupMeter::summarizeNearest(GroupMetrics& m)
{
    m.withNeighbour = static_cast<int>(m_nearest.size());
    if (m_nearest.empty())
        return;
    double sum = 0;
    float lo = m_nearest[0];
    for (float d : m_nearest) {
        sum += d;
        lo = std::min(lo, d);
    }
    m.nearestMin = lo;
    m.nearestMean = static_cast<float>(sum / static_cast<double>(m_nearest.size()));
    auto mid = m_nearest.begin() + static_cast<std::ptrdiff_t>(m_nearest.size() / 2);
    std::nth_element(m_nearest.begin(), mid, m_nearest.end());
    m.nearestMedian = *mid;
}

std::size_t GroupMeter::memoryBytes() const
{
    return m_nearest.capacity() * sizeof(float) + m_active.capacity();
}

} // namespace shoal
