// bodiesNear(): the bodies of other groups one body must not run into, one by one, for a
// family that steers a body round each of them (the worm's head) rather than summing them.

#include "world/bodypass.h"

#include <algorithm>
#include <cmath>

namespace shoal {

namespace {

/// Keeps `out` (count of capacity) the nearest bodies, by gap, then by place: the list does
/// not depend on the order the bodies are visited in.
void keepNearest(NearBody* out, int& count, int capacity, const NearBody& body)
{
    auto before = [](const NearBody& a, const NearBody& b) {
        if (a.gap != b.gap)
            return a.gap < b.gap;
        if (a.at.x != b.at.x)
            return a.at.x < b.at.x;
        return a.at.y < b.at.y;
    };
    if (count == capacity && !before(body, out[count - 1]))
        return;
    int k = count < capacity ? count++ : count - 1;
    for (; k > 0 && before(body, out[k - 1]); --k)
        out[k] = out[k - 1];
    out[k] = body;
}

} // namespace

int bodiesNear(const StepContext& ctx, const Group& group, std::size_t self, Vec2 p, float radius,
               float reach, NearBody* out, int capacity)
{
    if (capacity <= 0)
        return 0;
    int count =
        ctx.bodies ? ctx.bodies->bodiesNear(group.index, p, radius, reach, out, capacity) : 0;
    if (group.collision.mask & group.collision.layers) {
        // Solid to itself: its own agents too, from its grid (where the step began).
        const float rq = group.behaviour->bodyRadius();
        group.forEachNeighbour(ctx, p, radius + rq + reach,
                               [&](std::uint32_t j, float dx, float dy, float d2) {
                                   if (j == self)
                                       return;
                                   keepNearest(out, count, capacity,
                                               {p - Vec2(dx, dy), rq, std::sqrt(d2) - radius - rq});
                               });
    }
    return count;
}

int BodyPass::bodiesNear(int group, Vec2 p, float radius, float reach, NearBody* out,
                         int capacity) const
{
    int count = 0;
    const std::size_t g = static_cast<std::size_t>(group);
    auto see = [&](Vec2 q, float rq) {
        const float gap = distance(p, q) - radius - rq;
        if (gap < reach)
            keepNearest(out, count, capacity, {q, rq, gap});
    };
    if (!m_indexed) {
        // A world of one group: the lone player is the only other body (on layer 1, masking
        // nobody).
        const float span = radius + m_playerRadius + reach;
        if (m_lonePlayer && (rules[g].collision.mask & 1u) &&
            distanceSquared(p, m_playerAt) < span * span)
            see(m_playerAt, m_playerRadius);
        return count;
    }
    const float span = radius + m_indexRadius + reach;
    if (!othersInBlocks(group, p, span))
        return 0;
    const std::uint32_t mask = m_mask[g], layers = m_layers[g];
    const float* xs = m_grid.slotX();
    const float* ys = m_grid.slotY();
    m_grid.forEachCellWithin(p, span, [&](int c) {
        for (std::uint32_t k = m_grid.cellBegin(c); k < m_grid.cellEnd(c); ++k) {
            const std::uint32_t j = m_grid.sortedIndex(k);
            const std::uint16_t rule = m_rule[j];
            if (rule == group || (!(mask & m_layers[rule]) && !(m_mask[rule] & layers)))
                continue;
            see({xs[k], ys[k]}, radiusOf(j));
        }
    });
    return count;
}

} // namespace shoal
