// BodyPass's rounds: every overlapping pair pushed apart, a round at a time, each body's
// share by who gives way to whom (giveWay), the pushed bodies kept clear of the walls, until
// no overlap is deeper than kSettled. On several threads a round runs in blocks of involved
// bodies, each writing only its own bodies' state.

#include "world/bodypass.h"

#include "geometry/staticgeometry.h"
#include "math/fastmath.h"
#include "math/random.h"
#include "parallel/workerpool.h"

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
/// A body overlapping by more than kSqueezed (m) that a round shrank by less than a tenth is
/// pinned.
constexpr float kSqueezed = 0.02f;
constexpr float kNoProgress = 0.9f;
/// Rounds in a row without progress before a body counts as squeezed: one stalled round is
/// often a body waiting for the row behind it to move first, and pinning it then hands its
/// overlap to bodies that could have parted it (the soak's long jams of hunters and raiders).
constexpr std::uint8_t kStallRounds = 3;
/// Over-relaxation of the averaged pushes of a body in several overlaps.
constexpr float kOverRelax = 1.5f;

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

void BodyPass::releaseRoundState()
{
    // (Read only within a run, which sizes it anew.)
    m_rounds.clear();
    m_rounds.shrink_to_fit();
    m_jamNow = {};
    m_jamBack = {};
    m_blockPairs = {};
    m_blockShoved = {};
}

void BodyPass::pinContacts()
{
    // Bodies planned against a wall start pinned (only those in contact matter): in the
    // rounds' blocks, each body on its own.
    const std::size_t blocks = cutRoundBlocks();
    runRoundBlocks(blocks, [&](std::size_t block) {
        for (std::uint32_t k = m_roundCut[block]; k < m_roundCut[block + 1]; ++k) {
            const std::uint32_t b = m_involved[k];
            m_pinned[b] = !m_fixed[b] && heldByWall(b);
            m_level[b] = startLevel(b);
            m_roundX[b] = m_searchX[b] = m_x[b];
            m_roundY[b] = m_searchY[b] = m_y[b];
        }
    });
    m_roundsBegun = true;
    m_lateBegin = m_contacts.size();
    m_furthest2 = 0.0f;
    m_shoved.clear();
}

bool BodyPass::mayGiveWay(std::uint32_t i, std::uint32_t j) const
{
    // What giveWay() can answer, from what a round does not change: a body that moves gives
    // way only to a body on a layer in its mask; one that holds its place (the player, a
    // free fish) to a firmer one it meets either way, and the player also to one that moves
    // (should it be unable to make way); a worm head never.
    const std::uint8_t holdI = m_fixed[i], holdJ = m_fixed[j];
    const std::uint16_t ruleI = m_rule[i], ruleJ = m_rule[j];
    if (holdI == kMoves)
        return (m_mask[ruleI] & m_layers[ruleJ]) != 0;
    if (holdI == kFollowsPath)
        return false;
    const bool meets = (m_mask[ruleI] & m_layers[ruleJ]) || (m_mask[ruleJ] & m_layers[ruleI]);
    return meets && (holdJ > holdI || (holdI == kSteered && holdJ == kMoves));
}

float BodyPass::giveWay(std::uint32_t i, std::uint32_t j) const
{
    // i gives way to j when its mask has j's layer and j's priority is not below its own, or
    // j holds its ground (fixed, or held by a wall while i is not); j to i likewise. Two that
    // give way to each other share the overlap. A body held by a wall still takes its share:
    // the wall takes the part of it that points into the wall, and the rest slides it along,
    // which is what undoes a jam of held bodies.
    const std::uint8_t holdI = m_fixed[i], holdJ = m_fixed[j];
    const std::uint16_t ruleI = m_rule[i], ruleJ = m_rule[j];
    if (holdI != kMoves) {
        // One that holds gives way, whole, to a firmer one, and the player also to one that
        // cannot make way, if the two meet at all (the player's mask is empty, so either
        // mask counts). A worm head never does: its family keeps it off other bodies, and a
        // free fish never leaves its tether.
        const bool meets = (m_mask[ruleI] & m_layers[ruleJ]) || (m_mask[ruleJ] & m_layers[ruleI]);
        const bool firmer =
            holdJ > holdI || (holdI == kSteered && holdJ == kMoves && cannotMakeWay(j, i));
        return holdI != kFollowsPath && meets && firmer ? 1.0f : 0.0f;
    }
    // Unable to make way, it holds against the player, which gives way to it.
    if (holdJ == kSteered &&
        ((m_mask[ruleI] & m_layers[ruleJ]) || (m_mask[ruleJ] & m_layers[ruleI])) &&
        cannotMakeWay(i, j))
        return 0.0f;
    // Of two bodies a chain of overlaps links to a support (a wall, a body that holds its
    // place), the one nearer to it holds, whatever their priority (as one held by a wall
    // does): the crowd is parted from the support outward.
    const std::uint16_t levelI = m_level[i], levelJ = m_level[j];
    if (levelI != levelJ) {
        if (levelI > levelJ)
            return (m_mask[ruleI] & m_layers[ruleJ]) ? 1.0f : 0.0f;
        if (holdJ == kMoves && (m_mask[ruleJ] & m_layers[ruleI]))
            return 0.0f; // j gives way; if it cannot, i does as the rules below say
    }
    // Of two pinned bodies the one held more firmly holds: one squeezed where it cannot move
    // at all holds against one a wall holds but that can still slide along it (a tank in a
    // gap, its nose on a swarm agent wedged between the wall and an obstacle, backs off
    // instead of sitting in it).
    const int priorityI = m_priority[ruleI], priorityJ = m_priority[ruleJ];
    // Two squeezed bodies (a jam: a swarm agent between a worm's head and a tank that other
    // agents hem in) share the overlap whatever their priorities: neither can shove the
    // other, and a jam that puts all of it on one body leaves that pair deep inside each
    // other for as long as the families press, where shared it spreads thin over the jam.
    if (m_pinned[i] == kSqueezedPin && m_pinned[j] == kSqueezedPin && holdJ == kMoves &&
        (m_mask[ruleI] & m_layers[ruleJ]))
        return (m_mask[ruleJ] & m_layers[ruleI]) ? 0.5f : 1.0f;
    const bool jHolds = holdJ != kMoves || m_pinned[j] > m_pinned[i];
    const bool iHolds = m_pinned[i] > m_pinned[j];
    const bool iGives = (m_mask[ruleI] & m_layers[ruleJ]) && (priorityJ >= priorityI || jHolds);
    if (!iGives)
        return 0.0f;
    const bool jGives = holdJ == kMoves && !jHolds && (m_mask[ruleJ] & m_layers[ruleI]) &&
                        (priorityI >= priorityJ || iHolds);
    return jGives ? 0.5f : 1.0f;
}

bool BodyPass::cannotMakeWay(std::uint32_t held, std::uint32_t from) const
{
    return m_pinned[held] == kSqueezedPin ||
           (m_pinned[held] == kWallPin && !slidesAway(held, from));
}

bool BodyPass::slidesAway(std::uint32_t held, std::uint32_t from) const
{
    const float dx = m_x[held] - m_x[from], dy = m_y[held] - m_y[from];
    const float d = std::sqrt(dx * dx + dy * dy);
    const float depth = radiusOf(held) + radiusOf(from) - d;
    if (!m_geometry || d <= 1e-6f || depth <= 0.0f)
        return false;
    const Vec2 at{m_x[held], m_y[held]};
    const Vec2 pushed = at + Vec2(dx, dy) * (depth / d);
    return distance(m_geometry->keepClear(at, pushed, radiusOf(held)), at) >= 0.5f * depth;
}

bool BodyPass::pushRound(const StaticGeometry& geometry, int round)
{
    const std::size_t blocks = cutRoundBlocks();
    m_blockDeepest.resize(blocks);
    m_blockShoved.resize(std::max(m_blockShoved.size(), blocks));
    m_blockFurthest.resize(blocks);
    runRoundBlocks(blocks,
                   [&](std::size_t block) { m_blockDeepest[block] = pushBlock(block, round); });
    float deepest = 0.0f;
    for (std::size_t block = 0; block < blocks; ++block)
        deepest = std::max(deepest, m_blockDeepest[block]);
    // Overlaps this shallow are left to the next step: nobody would see them.
    const bool settled = deepest < kSettled;
    runRoundBlocks(blocks,
                   [&](std::size_t block) { settleBlock(block, round, !settled, geometry); });
    if (settled)
        return false;
    // The shoved bodies in m_involved's order, as one block would list them.
    for (std::size_t block = 0; block < blocks; ++block) {
        m_shoved.insert(m_shoved.end(), m_blockShoved[block].begin(), m_blockShoved[block].end());
        m_furthest2 = std::max(m_furthest2, m_blockFurthest[block]);
    }
    return true;
}

std::size_t BodyPass::cutRoundBlocks()
{
    const std::size_t involved = m_involved.size();
    if (m_roundCut.empty()) {
        // Cut as the rounds begin (pinContacts). One block on one thread (no contact worked out
        // twice); on more, a few per thread, none under a 32nd of a part (64 bodies: a body pushed
        // near a wall costs a microsecond of keepClear, more than a pool's start). The tests' tiny
        // parts cut the rounds of a small world too.
        const std::size_t minBlock = std::max<std::size_t>(1, m_blockBodies / 32);
        const std::size_t threads = m_pool ? static_cast<std::size_t>(m_pool->threads()) : 1;
        const std::size_t blocks =
            threads > 1 ? std::max<std::size_t>(1, std::min(2 * threads, involved / minBlock)) : 1;
        const std::size_t blockSize = std::max<std::size_t>(1, (involved + blocks - 1) / blocks);
        m_roundCut.resize(blocks + 1);
        for (std::size_t block = 0; block <= blocks; ++block)
            m_roundCut[block] = static_cast<std::uint32_t>(std::min(involved, block * blockSize));
        m_cutContacts = 0;
        if (m_blockPairs.size() < blocks)
            m_blockPairs.resize(blocks);
        for (std::size_t block = 0; block < blocks; ++block)
            m_blockPairs[block].clear();
    }
    // Bodies involved later (addLateContacts) join the last block, and the contacts listed
    // since the last round join their bodies' blocks.
    const std::size_t blocks = m_roundCut.size() - 1;
    m_roundCut.back() = static_cast<std::uint32_t>(involved);
    if (blocks > 1) {
        // (A few blocks: a walk past their starts costs less than a division.)
        const auto blockOf = [&](std::uint32_t slot) {
            std::size_t block = 0;
            while (block + 1 < blocks && slot >= m_roundCut[block + 1])
                ++block;
            return block;
        };
        for (std::size_t k = m_cutContacts; k < m_contacts.size(); ++k) {
            const Contact& c = m_contacts[k];
            const std::size_t a = blockOf(c.roundA), b = blockOf(c.roundB);
            m_blockPairs[a].push_back(static_cast<std::uint32_t>(k));
            if (b != a)
                m_blockPairs[b].push_back(static_cast<std::uint32_t>(k));
        }
    }
    m_cutContacts = m_contacts.size();
    return blocks;
}

float BodyPass::pushBlock(std::size_t block, int round)
{
    const std::uint32_t first = m_roundCut[block], count = m_roundCut[block + 1] - first;
    for (std::uint32_t k = first; k < first + count; ++k) {
        RoundBody& r = m_rounds[k];
        r.pushX = 0;
        r.pushY = 0;
        r.lastSqueeze = round == 0 ? 0.0f : r.squeeze;
        r.squeeze = 0.0f;
        r.pushes = 0;
        r.nextLevel = kUnsupported;
        if (round == 0)
            r.stalls = 0;
    }
    float deepest = 0.0f;
    auto push = [&](const Contact& c) SHOAL_FORCE_INLINE {
        const float dx = m_x[c.a] - m_x[c.b];
        const float dy = m_y[c.a] - m_y[c.b];
        const float contact = radiusOf(c.a) + radiusOf(c.b);
        const float d2 = dx * dx + dy * dy;
        if (d2 >= contact * contact)
            return;
        const float partA = giveWay(c.a, c.b);
        const float partB = giveWay(c.b, c.a);
        if (partA == 0.0f && partB == 0.0f)
            return; // never meant to be solid to each other, or neither can give way
        const float d = std::sqrt(d2);
        const float depth = contact - d;
        deepest = std::max(deepest, depth);
        const Vec2 dir =
            d > 1e-6f ? Vec2(dx, dy) * (1.0f / d) : partingDirection(keyOf(c.a), keyOf(c.b));
        // Each side's push in fixed point (sums in any order are exact), for this block's
        // bodies only. Support reaches one contact further each round (from the last round's
        // levels, so the order of the contacts does not matter).
        auto side = [&](std::uint32_t slot, std::uint32_t other, float part,
                        std::int64_t sign) SHOAL_FORCE_INLINE {
            if (slot - first >= count)
                return; // another block's body
            RoundBody& r = m_rounds[slot];
            if (m_level[other] != kUnsupported)
                r.nextLevel = std::min(r.nextLevel, static_cast<std::uint16_t>(m_level[other] + 1));
            r.pushX += sign * toFixed(dir.x * (depth * part));
            r.pushY += sign * toFixed(dir.y * (depth * part));
            if (part > 0.0f) {
                r.squeeze = std::max(r.squeeze, depth);
                ++r.pushes;
            }
        };
        side(c.roundA, c.b, partA, 1);
        side(c.roundB, c.a, partB, -1);
    };
    if (m_roundCut.size() == 2) {
        for (const Contact& c : m_contacts)
            push(c);
    } else {
        for (const std::uint32_t k : m_blockPairs[block])
            push(m_contacts[k]);
    }
    return deepest;
}

void BodyPass::settleBlock(std::size_t block, int round, bool walls, const StaticGeometry& geometry)
{
    const std::uint32_t first = m_roundCut[block], last = m_roundCut[block + 1];
    for (std::uint32_t k = first; k < last; ++k) {
        RoundBody& r = m_rounds[k];
        const std::uint32_t b = m_involved[k];
        // A body whose overlap a round of pushes did not shrink has nowhere to go (between
        // a wall, a fixed body or bodies of higher priority): it holds its ground from now
        // on, and the bodies pressing on it give way instead, whatever their priority.
        if (round > 0) {
            if (r.squeeze > kSqueezed && r.squeeze >= kNoProgress * r.lastSqueeze) {
                if (++r.stalls >= kStallRounds) {
                    m_pinned[b] = kSqueezedPin;
                    r.nextLevel = 0; // squeezed between its supports: a support itself
                }
            } else {
                r.stalls = 0;
            }
        }
        m_level[b] = std::min(m_level[b], r.nextLevel);
    }
    if (!walls)
        return;
    std::vector<std::uint32_t>& shoved = m_blockShoved[block];
    float& furthest2 = m_blockFurthest[block];
    shoved.clear();
    furthest2 = 0.0f;
    // Walls win: a pushed body is kept clear of them at once, and one they held is pinned.
    for (std::uint32_t k = first; k < last; ++k) {
        const RoundBody& r = m_rounds[k];
        if (r.pushX == 0 && r.pushY == 0)
            continue;
        const std::uint32_t b = m_involved[k];
        // Averaged over the body's overlaps and over-relaxed (as position-based dynamics
        // does): summed, a body wedged among k others is thrown k times too far and a crowd
        // boils instead of settling.
        const float scale = r.pushes > 1
                                ? kOverRelax * kFixedToMetres / static_cast<float>(r.pushes)
                                : kFixedToMetres;
        const Vec2 pushed{m_x[b] + static_cast<float>(r.pushX) * scale,
                          m_y[b] + static_cast<float>(r.pushY) * scale};
        // Most pushes stay far from every wall: no look-up, not even of where it began.
        if (pushStaysClear(b, pushed)) {
            m_x[b] = pushed.x;
            m_y[b] = pushed.y;
            noteShoved(b, shoved, furthest2);
            continue;
        }
        bool held = false;
        const Vec2 from = fromOf(b);
        const Vec2 kept =
            geometry.keepClear(from, pushed, radiusOf(b), &held, clearanceFrom(b, from));
        m_x[b] = kept.x;
        m_y[b] = kept.y;
        noteShoved(b, shoved, furthest2);
        if (held) {
            m_pinned[b] = std::max(m_pinned[b], kWallPin);
            m_level[b] = 0;
        }
    }
}

} // namespace shoal
