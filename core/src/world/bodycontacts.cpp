// BodyPass::addLateContacts: the pairs of bodies the rounds' pushes bring together after the
// contacts were listed. The list covers what a round's pushes close within the contact
// margin, not a shove carried through many rounds (a crowd parted from a wall moves a row a
// round): each body the pushes carry away from where its contacts were last looked for is
// looked at again after that round, before it reaches a body it was never listed with.

#include "geometry/staticgeometry.h"
#include "world/bodypass.h"

#include <algorithm>
#include <cmath>

namespace shoal {

bool BodyPass::listedAtStart(std::uint32_t i, std::uint32_t j, std::size_t covered) const
{
    // findContacts' own test, from where the rounds began (the uninvolved never moved): a
    // pair of the grid's bodies with the margin of the first by index, a body outside the
    // grid with its own.
    const float xi = m_mark[i] ? m_roundX[i] : m_x[i], yi = m_mark[i] ? m_roundY[i] : m_y[i];
    const float xj = m_mark[j] ? m_roundX[j] : m_x[j], yj = m_mark[j] ? m_roundY[j] : m_y[j];
    const float dx = xi - xj, dy = yi - yj;
    const std::uint32_t first = i >= covered ? i : j >= covered ? j : std::min(i, j);
    const float reach = radiusOf(i) + radiusOf(j) + kContactMargin * radiusOf(first);
    return dx * dx + dy * dy < reach * reach;
}

bool BodyPass::listedLate(std::uint32_t i, std::uint32_t j) const
{
    if (!(m_mark[i] & kMarkLate) || !(m_mark[j] & kMarkLate))
        return false; // one of the two is in no pair added late
    for (std::size_t k = m_lateBegin; k < m_contacts.size(); ++k) {
        const Contact& c = m_contacts[k];
        if ((c.a == i && c.b == j) || (c.a == j && c.b == i))
            return true;
    }
    return false;
}

void BodyPass::noteShoved(std::uint32_t b, std::vector<std::uint32_t>& shoved, float& furthest2)
{
    // Whether b has gone further from where its contacts were last looked for than half the
    // margin every pair keeps (m_shoveSlack), and how far any body has gone in the rounds.
    const float dx = m_x[b] - m_searchX[b], dy = m_y[b] - m_searchY[b];
    if (!(m_mark[b] & kMarkShoved) && dx * dx + dy * dy > m_shoveSlack * m_shoveSlack) {
        m_mark[b] |= kMarkShoved;
        shoved.push_back(b);
    }
    const float rx = m_x[b] - m_roundX[b], ry = m_y[b] - m_roundY[b];
    furthest2 = std::max(furthest2, rx * rx + ry * ry);
}

bool BodyPass::addLateContacts(const UniformGrid& grid, std::size_t covered, float maxMove)
{
    // Every pair not listed is at least touching plus twice m_shoveSlack apart between where
    // its two bodies' contacts were last looked for (m_searchX; the uninvolved never moved;
    // findContacts' margin is at least that), and a body that goes further than m_shoveSlack
    // from there looks again after that round, from where it is now, listing every pair
    // nearer than that. So a pair not listed overlaps only by what one round carried its
    // bodies past the slack, and the rounds after part it (before, a shove carried through
    // dozens of rounds took bodies 30 cm into each other before the pair was listed).
    if (m_shoved.empty())
        return false;
    for (const std::uint32_t b : m_shoved) {
        m_searchX[b] = m_x[b];
        m_searchY[b] = m_y[b];
    }
    const float furthest = std::sqrt(m_furthest2);
    const float maxRadius = m_contactMaxRadius;
    const float keep = 2.0f * m_shoveSlack;
    bool added = false;
    auto consider = [&](std::uint32_t i, std::uint32_t j) {
        if (j == i || ((m_mark[j] & kMarkShoved) && j < i))
            return; // itself, or a pair of two shoved bodies, looked at from the lower
        const float xj = m_mark[j] ? m_searchX[j] : m_x[j];
        const float yj = m_mark[j] ? m_searchY[j] : m_y[j];
        const float reach = radiusOf(i) + radiusOf(j) + keep;
        if (distanceSquared({m_x[i], m_y[i]}, {xj, yj}) >= reach * reach ||
            listedAtStart(i, j, covered) || listedLate(i, j))
            return;
        if (m_geometry && wallBetweenBodies(i, j))
            return;
        added = true;
        if (!m_mark[j]) {
            // Its round state starts as a body's before the first round.
            involve(j);
            m_roundX[j] = m_searchX[j] = m_x[j];
            m_roundY[j] = m_searchY[j] = m_y[j];
            m_pinned[j] = !m_fixed[j] && m_geometry && heldByWall(j);
            m_level[j] = startLevel(j);
        }
        m_contacts.push_back({i, j, m_roundSlot[i], m_roundSlot[j]});
        m_mark[i] |= kMarkLate;
        m_mark[j] |= kMarkLate;
    };
    const std::size_t n = m_x.size();
    for (const std::uint32_t i : m_shoved) {
        // Centred where the grid has it (where the step began, or its plan), far enough for
        // how far it and the others may have gone since.
        const Vec2 centre = maxMove > 0.0f ? fromOf(i) : Vec2{m_roundX[i], m_roundY[i]};
        const float moved = distance({m_x[i], m_y[i]}, {m_roundX[i], m_roundY[i]});
        const float radius =
            radiusOf(i) + maxRadius + keep + 2.0f * maxMove + moved + furthest + 1e-3f;
        grid.forEachRange(centre, radius, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t slot = begin; slot < end; ++slot)
                consider(i, grid.sortedIndex(slot));
        });
        for (std::size_t b = covered; b < n; ++b) // bodies the grid does not hold
            consider(i, static_cast<std::uint32_t>(b));
    }
    for (const std::uint32_t b : m_shoved)
        m_mark[b] &= static_cast<std::uint8_t>(~kMarkShoved);
    m_shoved.clear();
    return added;
}

} // namespace shoal
