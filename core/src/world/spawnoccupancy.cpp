#include "world/spawnoccupancy.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace shoal {

int SpawnOccupancy::radiusClass(float radius)
{
    int c = 0;
    for (float largest = 1.0f; c < kClasses - 1 && radius > largest; largest *= 2.0f)
        ++c;
    return c;
}

std::int64_t SpawnOccupancy::cellOf(float v, float cell)
{
    return static_cast<std::int64_t>(std::floor(v / cell));
}

std::uint64_t SpawnOccupancy::key(std::int64_t cx, std::int64_t cy)
{
    return (static_cast<std::uint64_t>(cx) << 32) ^ (static_cast<std::uint64_t>(cy) & 0xFFFFFFFFu);
}

template <class F> void SpawnOccupancy::forEachNear(Vec2 p, float radius, F&& f) const
{
    // A body of the class that touches one of `radius` at p (touches(), in float) lies less
    // than its radius and this one's from p on either axis, so no further than `reach`: not
    // past p.x - reach rounded (no float lies between a value and its rounding), nor the
    // others, and its cell is among these.
    for (const RadiusClass& c : m_classes) {
        if (c.cells.empty())
            continue;
        const float reach = radius + c.maxRadius;
        const std::int64_t x0 = cellOf(p.x - reach, c.cell), x1 = cellOf(p.x + reach, c.cell);
        const std::int64_t y0 = cellOf(p.y - reach, c.cell), y1 = cellOf(p.y + reach, c.cell);
        for (std::int64_t cy = y0; cy <= y1; ++cy)
            for (std::int64_t cx = x0; cx <= x1; ++cx) {
                const auto cell = c.cells.find(key(cx, cy));
                if (cell == c.cells.end())
                    continue;
                m_looked += cell->second.size();
                for (const std::uint32_t k : cell->second)
                    f(k);
            }
    }
}

bool SpawnOccupancy::namedBefore(std::uint32_t a, std::uint32_t b) const
{
    // Row, then column of the 2 m cell, then the order placed.
    return std::make_tuple(cellOf(m_y[a], kCell), cellOf(m_x[a], kCell), a) <
           std::make_tuple(cellOf(m_y[b], kCell), cellOf(m_x[b], kCell), b);
}

bool SpawnOccupancy::touches(std::uint32_t k, Vec2 p, float radius) const
{
    const float apart = radius + m_radius[k];
    const float dx = p.x - m_x[k], dy = p.y - m_y[k];
    return dx * dx + dy * dy < apart * apart;
}

int SpawnOccupancy::inTheWay(Vec2 p, float radius, int group, std::uint32_t layers,
                             std::uint32_t mask) const
{
    constexpr std::uint32_t kNone = ~std::uint32_t{0};
    std::uint32_t first = kNone;
    forEachNear(p, radius, [&](std::uint32_t k) {
        const bool meets = m_group[k] == group || (mask & m_layers[k]) || (m_mask[k] & layers);
        if (meets && touches(k, p, radius) && (first == kNone || namedBefore(k, first)))
            first = k;
    });
    return first == kNone ? -1 : m_group[first];
}

int SpawnOccupancy::othersOverlapping(Vec2 p, float radius, int group, std::uint32_t layers,
                                      std::uint32_t mask, int limit, int& blocker) const
{
    if (limit < 1)
        return 0;
    // The first `limit` in the order, kept as a heap with the last of them on top: one
    // before it takes its place.
    const auto before = [this](std::uint32_t a, std::uint32_t b) { return namedBefore(a, b); };
    const auto kept = static_cast<std::size_t>(limit);
    m_counted.clear();
    forEachNear(p, radius, [&](std::uint32_t k) {
        const bool meets = m_group[k] != group && ((mask & m_layers[k]) || (m_mask[k] & layers));
        if (!meets || !touches(k, p, radius))
            return;
        if (m_counted.size() == kept) {
            if (!namedBefore(k, m_counted.front()))
                return;
            std::pop_heap(m_counted.begin(), m_counted.end(), before);
            m_counted.pop_back();
        }
        m_counted.push_back(k);
        std::push_heap(m_counted.begin(), m_counted.end(), before);
    });
    if (!m_counted.empty())
        blocker = m_group[m_counted.front()];
    return static_cast<int>(m_counted.size());
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
    const int c = radiusClass(radius);
    RadiusClass& into = m_classes[static_cast<std::size_t>(c)];
    into.cell = std::ldexp(2.0f, c); // twice the largest radius the class takes
    into.maxRadius = std::max(into.maxRadius, radius);
    into.cells[key(cellOf(p.x, into.cell), cellOf(p.y, into.cell))].push_back(k);
}

} // namespace shoal
