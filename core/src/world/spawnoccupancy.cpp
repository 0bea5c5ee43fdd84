#include "world/spawnoccupancy.h"

#include <algorithm>
#include <cmath>

namespace shoal {

std::int64_t SpawnOccupancy::cellOf(float v)
{
    return static_cast<std::int64_t>(std::floor(v / kCell));
}

std::uint64_t SpawnOccupancy::key(std::int64_t cx, std::int64_t cy)
{
    return (static_cast<std::uint64_t>(cx) << 32) ^ (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu);
}

template <class F> bool SpawnOccupancy::anyNear(Vec2 p, float reach, F&& f) const
{
    const std::int64_t x0 = cellOf(p.x - reach), x1 = cellOf(p.x + reach);
    const std::int64_t y0 = cellOf(p.y - reach), y1 = cellOf(p.y + reach);
    for (std::int64_t cy = y0; cy <= y1; ++cy)
        for (std::int64_t cx = x0; cx <= x1; ++cx) {
            const auto cell = m_cells.find(key(cx, cy));
            if (cell == m_cells.end())
                continue;
            for (const std::uint32_t k : cell->second)
                if (f(k))
                    return true;
        }
    return false;
}

int SpawnOccupancy::inTheWay(Vec2 p, float radius, int group, std::uint32_t layers,
                             std::uint32_t mask) const
{
    int blocker = -1;
    if (m_x.empty())
        return blocker;
    anyNear(p, radius + m_maxRadius, [&](std::uint32_t k) {
        const bool meets = m_group[k] == group || (mask & m_layers[k]) || (m_mask[k] & layers);
        const float apart = radius + m_radius[k];
        const float dx = p.x - m_x[k], dy = p.y - m_y[k];
        if (meets && dx * dx + dy * dy < apart * apart)
            blocker = m_group[k];
        return blocker >= 0;
    });
    return blocker;
}

int SpawnOccupancy::othersOverlapping(Vec2 p, float radius, int group, std::uint32_t layers,
                                      std::uint32_t mask, int limit, int& blocker) const
{
    int count = 0;
    if (m_x.empty())
        return count;
    anyNear(p, radius + m_maxRadius, [&](std::uint32_t k) {
        const bool meets = m_group[k] != group && ((mask & m_layers[k]) || (m_mask[k] & layers));
        const float apart = radius + m_radius[k];
        const float dx = p.x - m_x[k], dy = p.y - m_y[k];
        if (meets && dx * dx + dy * dy < apart * apart) {
            blocker = m_group[k];
            ++count;
        }
        return count >= limit;
    });
    return count;
}

void SpawnOccupancy::add(Vec2 p, float radius, int group, std::uint32_t layers, std::uint32_t mask)
{
    const auto k = static_cast<std::uint32_t>(m_x.size());
    m_x.push_back(p.x);
    m_y.push_back(p.y);
    m_radius.push_back(radius);
    m_group.push_back(group);
    m_layers.push_back(layers);
    m_mask.push_back(mask);
    m_maxRadius = std::max(m_maxRadius, radius);
    m_cells[key(cellOf(p.x), cellOf(p.y))].push_back(k);
}

} // namespace shoal
