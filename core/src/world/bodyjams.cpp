// BodyPass::undoJams: what the rounds could not part stays where it began the step. A crowd
// its family keeps pressing into a pocket (hunters between two stuck worm heads and an
// obstacle, the crowd behind them pressed on a wall) can reach a balance of pushes where
// every round moves each body back where the last one found it, the pair in the middle
// still deep in each other; more rounds do not part it (a thousand were tried). Such a pair
// was not there when the step began: the plans made it, so the plan that made it is undone,
// as a wall stops a body that runs into it.

#include "world/bodypass.h"

#include <cmath>

namespace shoal {

namespace {

/// A body left overlapping another by more than this after the rounds is jammed, m: half
/// the overlap a user is told of (kPenetrationTolerance), so a jam never grows into one.
constexpr float kJammed = 0.025f;

float overlapBetween(float ax, float ay, float bx, float by, float contact)
{
    const float dx = ax - bx, dy = ay - by;
    return contact - std::sqrt(dx * dx + dy * dy);
}

} // namespace

bool BodyPass::mayUndo(std::uint32_t b) const
{
    if (m_fixed[b] != kMoves || m_rule[b] >= m_groups->size())
        return false;
    const Vec2 from = fromOf(b);
    return m_x[b] != from.x || m_y[b] != from.y;
}

std::size_t BodyPass::undoJams()
{
    // Sweeps, each deciding from the positions the last left (so neither the order of the
    // contacts nor of the bodies matters): a body jammed deeper than kJammed whose deepest
    // overlap would be shallower where it began the step, the others where they are, goes
    // back there. Going back can jam a neighbour the rounds had parted from it; the next
    // sweep sends that one back too. A body goes back once, so the sweeps end; where every
    // body went back the world is as the step found it.
    if (!m_stepping)
        return 0;
    std::size_t undone = 0;
    for (bool again = true; again;) {
        again = false;
        m_jamNow.assign(m_involved.size(), 0.0f);
        m_jamBack.assign(m_involved.size(), 0.0f);
        for (const Contact& c : m_contacts) {
            if (giveWay(c.a, c.b) == 0.0f && giveWay(c.b, c.a) == 0.0f)
                continue; // not solid to each other
            const float contact = radiusOf(c.a) + radiusOf(c.b);
            const float now = overlapBetween(m_x[c.a], m_y[c.a], m_x[c.b], m_y[c.b], contact);
            const Vec2 fromA = fromOf(c.a), fromB = fromOf(c.b);
            const float backA = overlapBetween(fromA.x, fromA.y, m_x[c.b], m_y[c.b], contact);
            const float backB = overlapBetween(m_x[c.a], m_y[c.a], fromB.x, fromB.y, contact);
            m_jamNow[c.roundA] = std::max(m_jamNow[c.roundA], now);
            m_jamNow[c.roundB] = std::max(m_jamNow[c.roundB], now);
            m_jamBack[c.roundA] = std::max(m_jamBack[c.roundA], backA);
            m_jamBack[c.roundB] = std::max(m_jamBack[c.roundB], backB);
        }
        for (std::size_t k = 0; k < m_involved.size(); ++k) {
            const std::uint32_t b = m_involved[k];
            if (m_jamNow[k] <= kJammed || m_jamBack[k] >= m_jamNow[k] || !mayUndo(b))
                continue;
            // Where it began the step it was clear of the walls (committed there).
            const Vec2 from = fromOf(b);
            m_x[b] = from.x;
            m_y[b] = from.y;
            ++undone;
            again = true;
        }
    }
    return undone;
}

} // namespace shoal
