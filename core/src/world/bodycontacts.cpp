// BodyPass::addLateContacts: the pairs of bodies the rounds' pushes brought together after
// the contacts were listed (the list covers what one round's pushes can close, not a shove
// carried through many rounds).

#include "geometry/staticgeometry.h"
#include "world/bodypass.h"

#include <algorithm>
#include <cmath>

namespace shoal {

bool BodyPass::addLateContacts(const UniformGrid& grid, std::size_t covered, float maxMove)
{
    // A pair left out was at least touching plus the larger one's margin apart where the
    // rounds began; to meet now, one of the two moved at least half that margin in them.
    auto shoved = [&](std::uint32_t b) {
        const float half = 0.5f * kContactMargin * radiusOf(b);
        return m_mark[b] &&
               distanceSquared({m_x[b], m_y[b]}, {m_roundX[b], m_roundY[b]}) > half * half;
    };
    const std::size_t involved = m_involved.size();
    float furthest = 0.0f;
    bool any = false;
    for (std::size_t k = 0; k < involved; ++k) {
        const std::uint32_t b = m_involved[k];
        furthest =
            std::max(furthest, distanceSquared({m_x[b], m_y[b]}, {m_roundX[b], m_roundY[b]}));
        any = any || shoved(b);
    }
    if (!any)
        return false;
    furthest = std::sqrt(furthest);
    const float maxRadius = this->maxRadius();
    // Whether findContacts listed the pair, from where the rounds began (the uninvolved
    // never moved): the same test, from either side.
    auto listed = [&](std::uint32_t i, std::uint32_t j) {
        const float xi = m_mark[i] ? m_roundX[i] : m_x[i], yi = m_mark[i] ? m_roundY[i] : m_y[i];
        const float xj = m_mark[j] ? m_roundX[j] : m_x[j], yj = m_mark[j] ? m_roundY[j] : m_y[j];
        const float dx = xi - xj, dy = yi - yj;
        const float d2 = dx * dx + dy * dy;
        const float ri = radiusOf(i), rj = radiusOf(j);
        const float fromI = ri + kContactMargin * ri + rj, fromJ = rj + kContactMargin * rj + ri;
        return d2 < fromI * fromI || d2 < fromJ * fromJ;
    };
    bool added = false;
    auto consider = [&](std::uint32_t i, std::uint32_t j) {
        if (j == i || (shoved(j) && j < i))
            return; // itself, or a pair of two shoved bodies, looked at from the lower
        const float reach = radiusOf(i) + radiusOf(j) + kContactMargin * radiusOf(i);
        if (distanceSquared({m_x[i], m_y[i]}, {m_x[j], m_y[j]}) >= reach * reach || listed(i, j))
            return;
        if (m_geometry && wallBetweenBodies(i, j))
            return;
        m_contacts.push_back({i, j});
        added = true;
        if (!m_mark[j]) {
            m_mark[j] = 1;
            m_involved.push_back(j);
            m_roundX[j] = m_x[j];
            m_roundY[j] = m_y[j];
            m_pinned[j] = !m_fixed[j] && m_geometry && heldByWall(j);
            m_level[j] = startLevel(j);
        }
    };
    const std::size_t n = m_x.size();
    for (std::size_t k = 0; k < involved; ++k) {
        const std::uint32_t i = m_involved[k];
        if (!shoved(i))
            continue;
        // Centred where the grid has it (where the step began, or its plan), far enough for
        // how far it and the others may have gone since.
        const Vec2 centre = maxMove > 0.0f ? fromOf(i) : Vec2{m_roundX[i], m_roundY[i]};
        const float moved = distance({m_x[i], m_y[i]}, {m_roundX[i], m_roundY[i]});
        const float radius = radiusOf(i) + maxRadius + kContactMargin * radiusOf(i) +
                             2.0f * maxMove + moved + furthest;
        grid.forEachRange(centre, radius, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t slot = begin; slot < end; ++slot)
                consider(i, grid.sortedIndex(slot));
        });
        for (std::size_t b = covered; b < n; ++b) // bodies the grid does not hold
            consider(i, static_cast<std::uint32_t>(b));
    }
    return added;
}

} // namespace shoal
