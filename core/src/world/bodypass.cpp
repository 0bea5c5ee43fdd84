// BodyPass: bodies solid across groups. Here every body gathered (a big group in spans of a
// part), the contact search, the pass's run from gathering to the bodies' new places, the
// index of every body with its block map, othersNear for the families, and the body
// metrics; the rounds that push bodies apart are in bodyrounds.cpp.

#include "world/bodypass.h"

#include "parallel/workerpool.h"

#include "geometry/staticgeometry.h"
#include "kernels/flagged.h"
#include "kernels/neighbourscan.h"
#include "math/fastmath.h"
#include "math/random.h"
#include "world/behaviour.h"
#include "world/blocklevels.h"
#include "world/statebytes.h"
#include <shoal/metrics.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace shoal {

namespace {

/// The largest of `largest` and the squared planned moves of the agents: four at a time,
/// as std::max from `largest` would find it (maxps keeps the running value when the move is
/// NaN, as std::max does; the squares are never a negative zero).
float largestMove2(const AgentArrays& a, std::size_t begin, std::size_t end, float largest)
{
    using V = Float4;
    const std::size_t count = end - begin;
    const float* px = a.px.data() + begin;
    const float* py = a.py.data() + begin;
    const float* nx = a.nx.data() + begin;
    const float* ny = a.ny.data() + begin;
    V lanes(largest);
    std::size_t i = 0;
    for (; i + V::kWidth <= count; i += V::kWidth) {
        const V dx = V::load(nx + i) - V::load(px + i);
        const V dy = V::load(ny + i) - V::load(py + i);
        lanes = max(dx * dx + dy * dy, lanes);
    }
    float each[V::kWidth];
    lanes.store(each);
    for (const float lane : each)
        largest = std::max(largest, lane);
    for (; i < count; ++i) {
        const float dx = nx[i] - px[i], dy = ny[i] - py[i];
        largest = std::max(largest, dx * dx + dy * dy);
    }
    return largest;
}

} // namespace

void BodyPass::gatherBodies(std::vector<std::unique_ptr<Group>>& groups,
                            const std::vector<BodyGroupRule>& rules, bool hasPlayer, Vec2 player,
                            float playerRadius, Positions positions, Hold hold)
{
    const bool planned = positions == Positions::Planned;
    // Where each group's bodies start, then every group gathered on its own (on the step's
    // threads), its largest move kept apart and the largest of all taken in group order.
    m_groupStart.resize(groups.size() + 1);
    std::size_t b = 0;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        // (Each group's size is in its own object: those a few ahead asked for.)
        if (g + 8 < groups.size())
            prefetchLine(&groups[g + 8]->agents);
        m_groupStart[g] = static_cast<std::uint32_t>(b);
        b += groups[g]->agents.size();
    }
    m_groupStart[groups.size()] = static_cast<std::uint32_t>(b);
    const std::size_t n = b + (hasPlayer ? 1 : 0);
    m_groups = &groups;
    m_x.resize(n);
    m_y.resize(n);
    m_rule.resize(n);
    m_fixed.resize(n);
    if (planned) {
        m_starts.assign(groups.size(), StartPlaces{});
        m_clearLow.resize(n);
        m_roundsBegun = false;
    }
    // Positions, the rule and whether the body is fixed: everything else is looked up by
    // rule (radiusOf) or, for the few bodies in contact, in the groups (fromOf, keyOf).
    // (The groups ahead asked for: thousands of small groups, each in allocations of its
    // own.)
    const auto prefetchGathered = [](const Group& group) {
        group.prefetchMoves();
        if (group.behaviour)
            prefetchLine(group.behaviour.get());
    };
    // A large group in spans of a part, each a block of its own: a world of one big group
    // gathers on every thread too.
    cutGroupRanges(groups, m_blockBodies, m_spans, m_spanBlocks);
    if (planned)
        m_spanMove2.resize(m_spans.size());
    forEachRangeOnThreads(
        groups, m_pool, m_spans, m_spanBlocks,
        [&](std::size_t t, int) {
            const BodySpan& span = m_spans[t];
            const std::size_t g = span.group;
            const Group& group = *groups[g];
            const AgentArrays& a = group.agents;
            const std::size_t begin = span.begin, count = span.end - span.begin;
            const std::size_t first = m_groupStart[g] + begin;
            const float* xs = (planned ? a.nx.data() : a.px.data()) + begin;
            const float* ys = (planned ? a.ny.data() : a.py.data()) + begin;
            std::copy(xs, xs + count, m_x.begin() + static_cast<std::ptrdiff_t>(first));
            std::copy(ys, ys + count, m_y.begin() + static_cast<std::ptrdiff_t>(first));
            std::fill_n(m_rule.begin() + static_cast<std::ptrdiff_t>(first), count,
                        static_cast<std::uint16_t>(g));
            std::fill_n(m_fixed.begin() + static_cast<std::ptrdiff_t>(first), count,
                        rules[g].fixed ? kFollowsPath : kMoves);
            if (group.playerLed && begin == 0 && count > 0)
                m_fixed[first] = kSteered;
            const std::uint8_t heldWithout = group.behaviour->placeHeldWithout();
            if (hold == Hold::AllFixed && heldWithout != 0) {
                // A body that holds its place by degree keeps the firmer of the two (the player
                // leading a school stays steered).
                const std::uint8_t* flags = a.flags.data() + begin;
                std::uint8_t* fixed = m_fixed.data() + first;
                for (std::size_t i = 0; i < count; ++i)
                    if ((flags[i] & heldWithout) == 0)
                        fixed[i] = std::max<std::uint8_t>(fixed[i], kHoldsPlace);
            }
            if (planned) {
                m_spanMove2[t] = largestMove2(a, begin, span.end, 0.0f);
                noteStartClearances(g, group, begin, span.end);
            }
        },
        prefetchGathered);
    // The largest of finite squares, whatever the order it is taken in.
    float maxMove2 = 0.0f;
    if (planned)
        for (const float move2 : m_spanMove2)
            maxMove2 = std::max(maxMove2, move2);
    m_maxMove = std::sqrt(maxMove2);
    // The per-rule tables, with the player's rule last: on layer 1, pushed by nobody.
    m_layers.resize(rules.size() + 1);
    m_mask.resize(rules.size() + 1);
    m_priority.resize(rules.size() + 1);
    m_ruleRadius.resize(rules.size() + 1);
    for (std::size_t r = 0; r < rules.size(); ++r) {
        m_layers[r] = rules[r].collision.layers;
        m_mask[r] = rules[r].collision.mask;
        m_priority[r] = rules[r].collision.priority;
        m_ruleRadius[r] = rules[r].radius;
    }
    m_layers[rules.size()] = 1u;
    m_mask[rules.size()] = 0u;
    m_priority[rules.size()] = kMaxCollisionPriority + 1;
    m_ruleRadius[rules.size()] = playerRadius;
    if (hasPlayer) {
        m_x[b] = player.x;
        m_y[b] = player.y;
        m_rule[b] = static_cast<std::uint16_t>(rules.size());
        m_fixed[b] = kSteered;
        // The player may move further than any agent: the contact search must allow for it.
        // No plan of a group told its clearance: no bound (clearLow).
        if (planned) {
            m_maxMove = std::max(m_maxMove, distance(player, m_playerAt));
            m_clearLow[b] = -1.0f;
        }
    }
}

void BodyPass::takeCommitted(const std::vector<std::unique_ptr<Group>>& groups, bool hasPlayer,
                             Vec2 player, const std::uint8_t* committedMoved)
{
    // The run gathered every body and left it where its plan was pushed to (the pushed ones
    // written back to their plans); the commit made those plans the places, and moved only
    // the flagged ones once more (kept clear of a wall). Rules, holds and groups are as
    // gathered: nothing between the pass and the index changes them.
    // (Only the groups' objects asked for ahead: few bodies are flagged.)
    // In the spans the step's gathering cut: the groups are the same, and so are their sizes.
    forEachRangeOnThreads(
        groups, m_pool, m_spans, m_spanBlocks,
        [&](std::size_t t, int) {
            const BodySpan& span = m_spans[t];
            const AgentArrays& a = groups[span.group]->agents;
            const std::size_t first = m_groupStart[span.group] + span.begin;
            forEachFlagged(committedMoved + first, span.end - span.begin, [&](std::size_t i) {
                m_x[first + i] = a.px[span.begin + i];
                m_y[first + i] = a.py[span.begin + i];
            });
        },
        [](const Group&) {});
    if (hasPlayer) {
        m_x.back() = player.x;
        m_y.back() = player.y;
    }
    m_maxMove = 0.0f; // as a gather of committed places leaves it
}

void BodyPass::clearSqueezed(std::size_t bodies)
{
    for (const std::uint32_t b : m_squeezedList)
        if (b < m_squeezedAfter.size())
            m_squeezedAfter[b] = 0;
    m_squeezedList.clear();
    m_squeezedAfter.resize(bodies, 0);
}

Vec2 BodyPass::fromOf(std::size_t b) const
{
    const std::size_t g = m_rule[b];
    if (g >= m_groups->size())
        return m_playerAt; // the lone player, where the step began
    const AgentArrays& a = (*m_groups)[g]->agents;
    const std::size_t i = b - m_groupStart[g];
    return {a.px[i], a.py[i]};
}

std::uint64_t BodyPass::keyOf(std::size_t b) const
{
    const std::size_t g = m_rule[b];
    if (g >= m_groups->size())
        return ~std::uint64_t{0};
    return (static_cast<std::uint64_t>(g) << 32) | (*m_groups)[g]->agents.id[b - m_groupStart[g]];
}

bool BodyPass::someMayGiveWay(const std::vector<std::unique_ptr<Group>>& groups,
                              const std::vector<BodyGroupRule>& rules, bool hasPlayer)
{
    // A body gives way only if it may move and its mask has the other's layer (giveWay).
    std::uint32_t layers = hasPlayer ? 1u : 0u; // the player's layer
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g]->agents.size() > 0)
            layers |= rules[g].collision.layers;
    // The player (alone: layer 1, an empty mask; or agent 0 of the group it leads) also
    // gives way to the worm heads it meets (giveWay): either's mask has the other's layer.
    std::uint32_t playerLayers = hasPlayer ? 1u : 0u, playerMask = 0u;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const Group& group = *groups[g];
        const std::size_t fixed = group.playerLed ? 1 : 0; // the player, agent 0
        if (!rules[g].fixed && group.agents.size() > fixed && (rules[g].collision.mask & layers))
            return true;
        if (group.playerLed && group.agents.size() > 0) {
            playerLayers |= rules[g].collision.layers;
            playerMask |= rules[g].collision.mask;
        }
    }
    for (std::size_t g = 0; g < groups.size(); ++g)
        if (rules[g].fixed && groups[g]->agents.size() > 0 &&
            ((rules[g].collision.mask & playerLayers) || (rules[g].collision.layers & playerMask)))
            return true;
    return false;
}

std::size_t BodyPass::bodyCount(const std::vector<std::unique_ptr<Group>>& groups, bool hasPlayer)
{
    std::size_t n = hasPlayer ? 1 : 0;
    for (const auto& group : groups)
        n += group->agents.size();
    return n;
}

float BodyPass::maxRadius() const
{
    // Over the rules that have bodies (the player's only when it is one).
    float r = 0.0f;
    for (std::size_t g = 0; g + 1 < m_groupStart.size(); ++g)
        if (m_groupStart[g + 1] > m_groupStart[g])
            r = std::max(r, m_ruleRadius[g]);
    if (m_x.size() > m_groupStart.back())
        r = std::max(r, m_ruleRadius.back());
    return r;
}

float BodyPass::minRadius() const
{
    // As maxRadius: over the rules that have bodies.
    float r = std::numeric_limits<float>::max();
    for (std::size_t g = 0; g + 1 < m_groupStart.size(); ++g)
        if (m_groupStart[g + 1] > m_groupStart[g])
            r = std::min(r, m_ruleRadius[g]);
    if (m_x.size() > m_groupStart.back())
        r = std::min(r, m_ruleRadius.back());
    return r;
}

bool BodyPass::wallBetween(const StaticGeometry& geometry, Vec2 a, Vec2 b)
{
    const float clearA = geometry.clearance(a), clearB = geometry.clearance(b);
    if (clearA + clearB > distance(a, b))
        return false; // nothing lies between them
    return geometry.rayCast(a, b).hit;
}

bool BodyPass::mayMeet(std::uint32_t i, std::uint32_t j) const
{
    // A pair neither of which would give way to the other never pushes: not listed.
    if (!mayGiveWay(i, j) && !mayGiveWay(j, i))
        return false;
    // Bodies on either side of a wall do not touch, however near their centres are.
    return !(m_geometry && wallBetweenBodies(i, j));
}

void BodyPass::addContact(std::uint32_t i, std::uint32_t j)
{
    const std::uint32_t roundI = involve(i);
    m_contacts.push_back({i, j, roundI, involve(j)});
}

std::uint32_t BodyPass::involve(std::uint32_t b)
{
    if (!m_mark[b]) {
        m_mark[b] = kMarkInvolved;
        m_roundSlot[b] = static_cast<std::uint32_t>(m_involved.size());
        m_involved.push_back(b);
        m_rounds.emplace_back();
    }
    return m_roundSlot[b];
}

void BodyPass::noteContact(std::uint32_t i, std::uint32_t j)
{
    if (mayMeet(i, j))
        addContact(i, j);
}

void BodyPass::noteNearLanes(const UniformGrid& grid, std::uint32_t k, std::uint32_t slot, int bits,
                             float maxRadius, std::vector<Contact>& found) const
{
    // The distances again, one lane at a time: the same operations as the lanes', so the
    // same values. Each pair's own test is that of its first body by index (within the query
    // of i: the radius it reaches any body in, and the pair's own reach).
    const std::uint32_t self = grid.sortedIndex(k);
    for (int l = 0; l < UniformGrid::Lanes::kWidth; ++l) {
        if (!((bits >> l) & 1))
            continue;
        const std::uint32_t other = slot + static_cast<std::uint32_t>(l);
        const float dx = m_slotX[k] - m_slotX[other];
        const float dy = m_slotY[k] - m_slotY[other];
        const float d2 = dx * dx + dy * dy;
        const std::uint32_t j = grid.sortedIndex(other);
        const std::uint32_t i = std::min(self, j), h = std::max(self, j);
        const float ri = radiusOf(i);
        const float margin = kContactMargin * ri;
        const float radius = ri + maxRadius + margin;
        const float reach = ri + margin + radiusOf(h);
        if (d2 <= radius * radius && d2 < reach * reach && mayMeet(i, h))
            found.push_back({i, h});
    }
}

void BodyPass::findContacts(const UniformGrid& grid, std::size_t covered, float maxMove)
{
    // One pass over a grid of where the step began (the index, or the one group's own grid),
    // with distances taken where the bodies are planned to be: every pair nearer than
    // touching plus a margin of the pair's first body (by index: what later rounds may push
    // them) is listed once. The rounds then visit the list only, so a crowd squeezed
    // somewhere does not cost a pass over every body. Bodies past `covered` (the player,
    // when the grid is a group's) are not in the grid: they look for their contacts in it
    // themselves.
    using V = UniformGrid::Lanes;
    const std::size_t n = m_x.size();
    const float maxRadius = this->maxRadius();
    m_mark.assign(n, 0);
    m_roundSlot.resize(n);
    m_slotX.resize(covered + kLanePadding);
    m_slotY.resize(covered + kLanePadding);
    m_slotRadius.resize(covered + kLanePadding);
    // The grid's bodies all of one radius (one group, or groups alike): the lane test's reach
    // is one value, not one per slot, and no radius is copied.
    const float radius0 = covered > 0 ? radiusOf(grid.sortedIndex(0)) : 0.0f;
    bool oneRadius = true;
    for (std::size_t g = 0; g + 1 < m_groupStart.size(); ++g)
        if (m_groupStart[g] < covered && m_groupStart[g + 1] > m_groupStart[g] &&
            m_ruleRadius[g] != radius0)
            oneRadius = false;
    if (covered > m_groupStart.back() && m_ruleRadius.back() != radius0)
        oneRadius = false; // the player, in the grid
    // The bodies' plans in the grid's order, in blocks on the step's threads.
    const std::size_t slotBlocks = (covered + m_blockBodies - 1) / m_blockBodies;
    auto copySlots = [&](std::size_t block, int) {
        const std::size_t first = block * m_blockBodies;
        const std::size_t last = std::min(covered, first + m_blockBodies);
        for (std::size_t k = first; k < last; ++k) {
            const std::uint32_t b = grid.sortedIndex(static_cast<std::uint32_t>(k));
            m_slotX[k] = m_x[b];
            m_slotY[k] = m_y[b];
            if (!oneRadius)
                m_slotRadius[k] = radiusOf(b);
        }
    };
    if (m_pool)
        m_pool->run(slotBlocks, copySlots);
    else
        for (std::size_t block = 0; block < slotBlocks; ++block)
            copySlots(block, 0);
    for (std::size_t k = covered; k < covered + kLanePadding; ++k)
        m_slotX[k] = m_slotY[k] = m_slotRadius[k] = 0.0f;
    const float* xs = m_slotX.data();
    const float* ys = m_slotY.data();
    const float* radii = m_slotRadius.data();

    // Each pair of the grid's bodies once, from the one that comes first in the grid: the
    // query round its plan reaches every body planned near enough to it (none is further
    // than maxMove from where the grid has it), and the pair's own test is that of its first
    // body by index, so the list does not depend on the grid's order. A lane test that no
    // pair's reach exceeds comes first; the rare lanes within it are tested one by one, out
    // of the loop (noteNearLanes), which then keeps its values in registers.
    // A body of radius r meets no body further than r + (1 + margin) x maxRadius: the pair's
    // reach is its first body's radius and margin and the other's radius (noteNearLanes),
    // at most that whichever of the two comes first. So, among bodies of several radii, a
    // small one looks round itself only as far as the largest could reach it, not as far as
    // two of the largest reach each other (a fish among tanks, a quarter of the cells).
    const float reachBeyondOwn = (1.0f + kContactMargin) * maxRadius + maxMove + 1e-3f;
    const UniformGrid::CellReach range =
        grid.cellReach((2.0f + kContactMargin) * maxRadius + maxMove + 1e-3f);
    const V loose((1.0f + kContactMargin) * 1.001f);
    const int rows = covered > 0 ? grid.rows() : 0;
    // A body no other can touch need not look (any that could would find it).
    const std::uint8_t* lonely = markLonely(maxRadius) ? m_lonely.data() : nullptr;
    // The rows in blocks of about m_blockBodies bodies (cut by the grid alone), each
    // listing its pairs apart, on the step's threads when there are several; the lists are
    // joined in block order, so the contacts are in the order one pass over the rows finds
    // them.
    m_rowBlocks.clear();
    for (int row = 0; row < rows; ++row)
        if (m_rowBlocks.empty() ||
            grid.rowBegin(row) - grid.rowBegin(m_rowBlocks.back()) >= m_blockBodies)
            m_rowBlocks.push_back(row);
    const std::size_t blocks = m_rowBlocks.size();
    m_rowBlocks.push_back(rows);
    if (m_blockContacts.size() < blocks) {
        m_blockContacts.resize(blocks);
        m_blockAwake.resize(blocks);
    }
    // `reach2(slot, pr)`: the squared loose reach of the body of radius pr and those at slot.
    auto scan = [&](auto reach2, int firstRow, int endRow, std::vector<Contact>& found,
                    std::vector<std::uint32_t>& awake) SHOAL_FORCE_INLINE {
        // The pairs of the body in slot k (in row `row`) with the bodies after it.
        auto look = [&](std::uint32_t k, int row) SHOAL_FORCE_INLINE {
            const V px(xs[k]), py(ys[k]), pr(radii[k]);
            auto looseBits = [&](std::uint32_t slot) SHOAL_FORCE_INLINE {
                const V dx = px - V::load(xs + slot);
                const V dy = py - V::load(ys + slot);
                const V d2 = dx * dx + dy * dy;
                return laneBits(d2 < reach2(slot, pr));
            };
            grid.forEachLaterRange(
                {xs[k], ys[k]}, oneRadius ? range : grid.cellReach(radii[k] + reachBeyondOwn), k,
                row, [&](std::uint32_t begin, std::uint32_t end) SHOAL_FORCE_INLINE {
                    // Whole lane groups, then the run's last few slots.
                    std::uint32_t slot = begin;
                    for (; end - slot >= static_cast<std::uint32_t>(V::kWidth); slot += V::kWidth) {
                        const int bits = looseBits(slot);
                        if (SHOAL_UNLIKELY(bits != 0))
                            noteNearLanes(grid, k, slot, bits, maxRadius, found);
                    }
                    if (slot < end) {
                        const int bits = looseBits(slot) & ((1 << (end - slot)) - 1);
                        if (SHOAL_UNLIKELY(bits != 0))
                            noteNearLanes(grid, k, slot, bits, maxRadius, found);
                    }
                });
        };
        if (!lonely) {
            for (int row = firstRow; row < endRow; ++row)
                for (std::uint32_t k = grid.rowBegin(row); k < grid.rowBegin(row + 1); ++k)
                    look(k, row);
            return;
        }
        // The slots of the bodies that are not alone, listed first without a branch: from
        // one slot to the next, whether a body is alone is as good as random, and a branch
        // on it in the loop above was mispredicted about as often as not.
        const std::uint32_t begin = grid.rowBegin(firstRow);
        const std::uint32_t end = grid.rowBegin(endRow);
        awake.resize(end - begin);
        std::size_t count = 0;
        for (std::uint32_t k = begin; k < end; ++k) {
            awake[count] = k;
            count += lonely[grid.sortedIndex(k)] ? 0u : 1u;
        }
        int row = firstRow;
        for (std::size_t a = 0; a < count; ++a) {
            const std::uint32_t k = awake[a];
            while (k >= grid.rowBegin(row + 1))
                ++row;
            look(k, row);
        }
    };
    if (oneRadius) {
        // Every pair's own test (noteNearLanes) is the same one: d2 <= radius^2 and
        // d2 < reach^2, with the values formed as it forms them. One bound serves both, so
        // the lanes flag the pairs in contact and no others: a crowd spaced about a contact
        // apart (a settled swarm) would flag many more through a looser one.
        const float margin = kContactMargin * radius0;
        const float radius = radius0 + maxRadius + margin;
        const float reach = radius0 + margin + radius0;
        const float bound = std::min(
            std::nextafter(radius * radius, std::numeric_limits<float>::infinity()), reach * reach);
        const V reachSquared(bound);
        scanBlocks(blocks, [&](int firstRow, int endRow, std::vector<Contact>& found,
                               std::vector<std::uint32_t>& awake) {
            scan([&](std::uint32_t, V) SHOAL_FORCE_INLINE { return reachSquared; }, firstRow,
                 endRow, found, awake);
        });
    } else {
        scanBlocks(blocks, [&](int firstRow, int endRow, std::vector<Contact>& found,
                               std::vector<std::uint32_t>& awake) {
            scan(
                [&](std::uint32_t slot, V pr) SHOAL_FORCE_INLINE {
                    const V reach = (pr + V::load(radii + slot)) * loose;
                    return reach * reach;
                },
                firstRow, endRow, found, awake);
        });
    }
    for (std::size_t b = 0; b < blocks; ++b)
        for (const Contact& c : m_blockContacts[b])
            addContact(c.a, c.b);

    // Bodies outside the grid: every body in it they reach, round where they began.
    for (std::size_t b = covered; b < n; ++b) {
        const std::uint32_t i = static_cast<std::uint32_t>(b);
        const float ri = radiusOf(i);
        const float margin = kContactMargin * ri;
        const float radius = ri + maxRadius + margin;
        const V vReach(ri + margin);
        const Vec2 from = maxMove > 0.0f ? fromOf(b) : Vec2{m_x[b], m_y[b]};
        scanNeighbours(grid, from, radius + 2.0f * maxMove, xs, ys, {m_x[i], m_y[i]}, radius,
                       static_cast<std::uint32_t>(covered),
                       [&](std::uint32_t slot, V, V, V d2, typename V::Mask in) {
                           const V reach =
                               vReach + (oneRadius ? V(radius0) : V::load(radii + slot));
                           const int bits = laneBits(in & (d2 < reach * reach));
                           for (int l = 0; l < V::kWidth; ++l)
                               if ((bits >> l) & 1)
                                   noteContact(i, grid.sortedIndex(slot + l));
                       });
    }
}

template <class Scan> void BodyPass::scanBlocks(std::size_t blocks, Scan&& scan)
{
    auto block = [&](std::size_t b, int) {
        std::vector<Contact>& found = m_blockContacts[b];
        found.clear();
        scan(m_rowBlocks[b], m_rowBlocks[b + 1], found, m_blockAwake[b]);
    };
    if (m_pool)
        m_pool->run(blocks, block);
    else
        for (std::size_t b = 0; b < blocks; ++b)
            block(b, 0);
}

std::size_t BodyPass::run(std::vector<std::unique_ptr<Group>>& groups,
                          const std::vector<BodyGroupRule>& rules, bool hasPlayer, Vec2 player,
                          float playerRadius, const StaticGeometry& geometry, float dt, int rounds,
                          const UniformGrid* startGrid, Hold hold, std::uint8_t* moved)
{
    // The index (of where this step began) serves when it holds these same bodies.
    const bool indexHolds = m_indexed && m_indexCount == bodyCount(groups, hasPlayer);
    m_indexed = false; // its arrays are reused from here on
    m_stepping = hold == Hold::AllFixed;
    m_geometry = &geometry;
    m_gathered = false;
    m_stepGathered = false;
    if (!someMayGiveWay(groups, rules, hasPlayer))
        return 0; // every push would be nothing (worms alone: their heads are all fixed)
    gatherBodies(groups, rules, hasPlayer, player, playerRadius, Positions::Planned, hold);
    m_gathered = true;
    m_stepGathered = m_stepping;
    const std::size_t n = m_x.size();
    m_pinned.resize(n);
    m_level.resize(n);
    m_roundX.resize(n);
    m_roundY.resize(n);
    m_searchX.resize(n);
    m_searchY.resize(n);
    m_contacts.clear();
    m_involved.clear();
    m_rounds.clear();
    m_roundCut.clear(); // the blocks are cut anew for these contacts
    // Squeezed bodies are this pass's to say (noted after its rounds, below).
    clearSqueezed(n);
    const float maxRadius = this->maxRadius();
    if (n < 2 || maxRadius <= 0.0f)
        return 0;
    m_contactMaxRadius = maxRadius;
    m_shoveSlack = 0.5f * kContactMargin * minRadius();
    const float maxMove = m_maxMove;
    const UniformGrid* grid = indexHolds ? &m_grid : startGrid;
    std::size_t covered = indexHolds ? n : (startGrid ? startGrid->size() : 0);
    float gridMove = maxMove;
    if (!grid || covered > n || maxMove > 2.0f * maxRadius) {
        // No grid of where the step began, or bodies that jumped: a grid of the plans.
        const float cell = 2.0f * maxRadius + kContactMargin * maxRadius;
        m_grid.build(m_x.data(), m_y.data(), n, GridCellShape{cell, cell * (1.0f / 3.0f)});
        m_slotRulesValid = false;
        grid = &m_grid;
        covered = n;
        gridMove = 0.0f;
    }
    findContacts(*grid, covered, gridMove);
    pinContacts();
    if (m_contacts.empty())
        return 0;
    // Pairs the rounds bring together are listed after the round that brought them near,
    // and have a quarter of the rounds at least to part; in all there are at most half as
    // many rounds again.
    bool pushed = false;
    bool settled = false;
    int roundsLeft = rounds;
    for (int round = 0; round < roundsLeft; ++round) {
        if (!pushRound(geometry, round)) {
            settled = true;
            break;
        }
        pushed = true;
        if (addLateContacts(*grid, covered, gridMove))
            roundsLeft =
                std::min(rounds + rounds / 2, std::max(roundsLeft, round + 1 + rounds / 4));
    }
    if (!pushed)
        return 0;
    if (!settled)
        undoJams();
    // Each body on its own, in the rounds' blocks (bodies involved after the last round in
    // the last): one left squeezed cannot give way, and the next plans' othersNear sees it
    // even from bodies that outrank it (a tank does not drive into a crowd packed against a
    // wall); a pushed one's velocity says it moved, as any motion does. The squeezed are
    // listed in block order, the order one pass over m_involved lists them.
    m_roundCut.back() = static_cast<std::uint32_t>(m_involved.size());
    const std::size_t blocks = m_roundCut.size() - 1;
    m_blockShoved.resize(std::max(m_blockShoved.size(), blocks));
    m_blockMoved.resize(blocks);
    const float inverseDt = 1.0f / dt;
    runRoundBlocks(blocks, [&](std::size_t block) {
        std::vector<std::uint32_t>& squeezed = m_blockShoved[block];
        squeezed.clear();
        std::size_t count = 0;
        for (std::uint32_t k = m_roundCut[block]; k < m_roundCut[block + 1]; ++k) {
            const std::uint32_t b = m_involved[k];
            if (m_pinned[b] == kSqueezedPin) {
                m_squeezedAfter[b] = 1;
                squeezed.push_back(b);
            }
            const std::size_t g = m_rule[b];
            if (g >= groups.size())
                continue; // the lone player is never moved
            AgentArrays& a = groups[g]->agents;
            const std::size_t i = b - m_groupStart[g];
            if (m_x[b] == a.nx[i] && m_y[b] == a.ny[i])
                continue;
            const float pushX = m_x[b] - a.nx[i];
            const float pushY = m_y[b] - a.ny[i];
            // Pushed back by more than half of its planned move: bodies stopped it as a wall
            // would, and it is blocked as one blocks it (a tank then loses its speed).
            const float moveX = a.nx[i] - a.px[i];
            const float moveY = a.ny[i] - a.py[i];
            if (pushX * moveX + pushY * moveY < -0.5f * (moveX * moveX + moveY * moveY))
                a.flags[i] |= kAgentBlocked;
            a.nvx[i] += pushX * inverseDt;
            a.nvy[i] += pushY * inverseDt;
            a.nx[i] = m_x[b];
            a.ny[i] = m_y[b];
            if (moved)
                moved[b] = 1;
            ++count;
        }
        m_blockMoved[block] = count;
    });
    std::size_t count = 0;
    for (std::size_t block = 0; block < blocks; ++block) {
        m_squeezedList.insert(m_squeezedList.end(), m_blockShoved[block].begin(),
                              m_blockShoved[block].end());
        count += m_blockMoved[block];
    }
    return count;
}

float BodyPass::deepestOverlap(std::uint32_t i, float reach,
                               std::vector<std::unique_ptr<Group>>& groups,
                               const StaticGeometry& geometry)
{
    const float ri = radiusOf(i);
    const std::uint16_t ruleI = m_rule[i];
    float deepest = 0.0f;
    m_grid.forEachWithin(
        {m_x[i], m_y[i]}, ri + reach, [&](std::uint32_t j, float, float, float d2) {
            const float contact = ri + radiusOf(j);
            if (j == i || d2 >= contact * contact)
                return;
            const std::uint16_t ruleJ = m_rule[j];
            if (!(m_mask[ruleI] & m_layers[ruleJ]) && !(m_mask[ruleJ] & m_layers[ruleI]))
                return; // these two were never meant to be solid to each other
            // Either side of a wall (the exact test, not the body pass's own) is no overlap.
            const Vec2 pi{m_x[i], m_y[i]}, pj{m_x[j], m_y[j]};
            if (geometry.clearance(pi) + geometry.clearance(pj) <= std::sqrt(d2) &&
                geometry.segmentCrosses(pi, pj))
                return;
            const float depth = contact - std::sqrt(d2);
            deepest = std::max(deepest, depth);
            if (depth <= kPenetrationTolerance || j < i)
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
                     float playerRadius, const std::uint8_t* committedMoved)
{
    // (No agent joins or leaves a group between a step's pass and its index.)
    if (committedMoved && m_stepGathered && m_groups == &groups &&
        m_groupStart.size() == groups.size() + 1) {
        takeCommitted(groups, hasPlayer, player, committedMoved);
    } else {
        gatherBodies(groups, rules, hasPlayer, player, playerRadius, Positions::Committed);
        // Bodies in another order (a reshuffle, a rebuilt world): the pass's squeezed marks
        // name other bodies now.
        clearSqueezed(m_x.size());
    }
    m_squeezedAfter.resize(m_x.size(), 0);
    m_stepGathered = false;
    m_indexCount = m_x.size();
    m_indexRadius = maxRadius();
    const std::size_t n = m_x.size();
    const float indexCell = std::max(2.0f * m_indexRadius, 0.1f);
    // The grid of every body, and the map of which groups each block of the level holds:
    // each reads the bodies alone, so on the step's threads they are built side by side.
    // The map's blocks are sized from the grid's cells, worked out before the grid is.
    const auto buildGrid = [&]() {
        m_grid.build(m_x.data(), m_y.data(), n, indexCell);
        // (A rule is below kMaxGroups + 1, exact as a float.)
        m_grid.gather(m_rule.data(), m_slotRule,
                      [](std::uint16_t rule) { return static_cast<float>(rule); });
    };
    Vec2 lowest, highest;
    float cellWidth = 0.0f;
    if (n > 0) {
        UniformGrid::bounds(m_x.data(), m_y.data(), n, lowest.x, highest.x, lowest.y, highest.y);
        cellWidth = UniformGrid::cellsFor(highest.x - lowest.x, highest.y - lowest.y, n,
                                          {indexCell, indexCell})
                        .columnWidth;
    } else {
        // No bodies: the map is one block at the grid's (kept) origin.
        buildGrid();
        lowest = highest = m_grid.origin();
        cellWidth = m_grid.cellShape().columnWidth;
    }
    m_slotRulesValid = true;
    m_coarserReady = m_wideAsked.exchange(false, std::memory_order_relaxed);
    const std::size_t blocks = planBlocks(lowest, highest, cellWidth);
    const auto buildMap = [&]() {
        m_blockLow.assign(blocks, kNoLowRule);
        m_blockHigh.assign(blocks, kNoHighRule);
        markBlocks(1.0f / m_blockSize);
        m_around.resize(blocks);
        tagsAround(m_blockLow.data(), m_blockHigh.data(), static_cast<std::size_t>(m_blockCols),
                   static_cast<std::size_t>(m_blockRows), m_acrossLow, m_acrossHigh,
                   m_around.data());
        if (m_coarserReady)
            m_coarser.build(m_blockLow, m_blockHigh, m_blockCols, m_blockRows);
    };
    if (n == 0) {
        buildMap();
    } else if (m_pool) {
        m_pool->run(2, [&](std::size_t part, int) { part == 0 ? buildGrid() : buildMap(); });
    } else {
        buildGrid();
        buildMap();
    }
    m_blocksGlance = BodyGlance{};
    m_blocksGlance.around = m_around.data();
    m_blocksGlance.blockOrigin = m_blockOrigin;
    m_blocksGlance.blockSize = m_blockSize;
    m_blocksGlance.invBlockSize = 1.0f / m_blockSize;
    m_blocksGlance.blockCols = m_blockCols;
    m_blocksGlance.blockRows = m_blockRows;
    m_blocksGlance.indexRadius = m_indexRadius;
    m_indexed = true;
}

std::size_t BodyPass::planBlocks(Vec2 lowest, Vec2 highest, float cellWidth)
{
    // A coarse map of which rule each block of the level holds, when all its bodies share
    // one: othersNear returns at once for a body whose blocks hold only its own group, which
    // is nearly every body, so a world of many groups pays for the few that meet.
    m_blockOrigin = lowest;
    // Blocks as wide as the reach of a query that looks no further than its own radius
    // (BodyGlance::onlyOwnAround), but at most four per body, as the grid caps its cells: a
    // few bodies far apart in a vast level must not cost a map of the whole of it.
    const float width = highest.x - lowest.x, height = highest.y - lowest.y;
    const float fewest = std::sqrt(width * height / static_cast<float>(4 * m_x.size() + 16));
    m_blockSize =
        std::max({3.0f * m_indexRadius, cellWidth, fewest, width / 4096.0f, height / 4096.0f});
    const float inverse = 1.0f / m_blockSize;
    m_blockCols = static_cast<int>(width * inverse) + 1;
    m_blockRows = static_cast<int>(height * inverse) + 1;
    // Per block the lowest and highest rule of its bodies (one rule when they are equal,
    // none when the lowest is above the highest), then each block with the eight round it:
    // a query that reaches no further than a block learns from one look-up whether it meets
    // only its own. Minima and maxima, unlike tags, spread in lanes.
    return static_cast<std::size_t>(m_blockCols) * static_cast<std::size_t>(m_blockRows);
}

void BodyPass::markBlocks(float inverse)
{
    // Each body's block, four bodies at a time where SSE2 lanes are (the same float
    // operations, truncated as one at a time), then its rule into the block's lowest and
    // highest.
    const std::size_t n = m_x.size();
    const float* xs = m_x.data();
    const float* ys = m_y.data();
    const std::uint16_t* rule = m_rule.data();
    std::uint16_t* low = m_blockLow.data();
    std::uint16_t* high = m_blockHigh.data();
    const float originX = m_blockOrigin.x, originY = m_blockOrigin.y;
    const int lastColumn = m_blockCols - 1, lastRow = m_blockRows - 1;
    const std::size_t cols = static_cast<std::size_t>(m_blockCols);
    auto mark = [&](std::size_t block, std::uint16_t r) SHOAL_FORCE_INLINE {
        low[block] = std::min(low[block], r);
        high[block] = std::max(high[block], r);
    };
    std::size_t b = 0;
#if SHOAL_SSE2_LANES
    const __m128 ox = _mm_set1_ps(originX), oy = _mm_set1_ps(originY);
    const __m128 scale = _mm_set1_ps(inverse);
    const __m128i lastX = _mm_set1_epi32(lastColumn), lastY = _mm_set1_epi32(lastRow);
    // The lesser of c and `last`.
    auto atMost = [](__m128i c, __m128i last) SHOAL_FORCE_INLINE {
        const __m128i over = _mm_cmpgt_epi32(c, last);
        return _mm_or_si128(_mm_and_si128(over, last), _mm_andnot_si128(over, c));
    };
    alignas(16) std::int32_t cx[4], cy[4];
    for (; b + 4 <= n; b += 4) {
        _mm_store_si128(
            reinterpret_cast<__m128i*>(cx),
            atMost(_mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(xs + b), ox), scale)),
                   lastX));
        _mm_store_si128(
            reinterpret_cast<__m128i*>(cy),
            atMost(_mm_cvttps_epi32(_mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(ys + b), oy), scale)),
                   lastY));
        for (int l = 0; l < 4; ++l)
            mark(static_cast<std::size_t>(cy[l]) * cols + static_cast<std::size_t>(cx[l]),
                 rule[b + static_cast<std::size_t>(l)]);
    }
#endif
    for (; b < n; ++b) {
        const int cx = std::min(lastColumn, static_cast<int>((xs[b] - originX) * inverse));
        const int cy = std::min(lastRow, static_cast<int>((ys[b] - originY) * inverse));
        mark(static_cast<std::size_t>(cy) * cols + static_cast<std::size_t>(cx), rule[b]);
    }
}

BodyGlance BodyPass::glance() const
{
    BodyGlance g = m_indexed ? blocksGlance() : BodyGlance{};
    g.indexed = m_indexed;
    g.lonePlayer = m_lonePlayer;
    g.playerAt = m_playerAt;
    g.playerRadius = m_playerRadius;
    return g;
}

OtherBodies othersNearInPass(const StepContext& ctx, const Group& group, Vec2 p, float radius,
                             Vec2 forward, float look)
{
    return ctx.bodies->othersNear(group.index, p, radius, forward, look);
}

void BodyPass::notePlayer(bool lone, Vec2 at, float radius)
{
    m_lonePlayer = lone;
    m_playerAt = at;
    m_playerRadius = radius;
}

namespace {

/// Adds what a body at p (radius, heading) sees of one other body at q (radius rq).
void seeBody(OtherBodies& out, Vec2 p, float radius, Vec2 forward, Vec2 q, float rq, bool firm)
{
    const float dx = p.x - q.x, dy = p.y - q.y;
    const float d = std::sqrt(dx * dx + dy * dy);
    const float gap = d - radius - rq;
    if (gap < radius && d > 1e-6f)
        out.away += Vec2(dx, dy) * ((1.0f - std::max(gap, 0.0f) / radius) / d);
    // Ahead: within 60 degrees of the heading (dx, dy point from q to p).
    const float along = -(dx * forward.x + dy * forward.y);
    if (along > 0.5f * d) {
        out.gapAhead = std::min(out.gapAhead, gap);
        if (firm)
            out.firmAhead = std::min(out.firmAhead, gap);
    }
}

} // namespace

bool BodyPass::othersInBlocks(int group, Vec2 p, float reach) const
{
    // The blocks within reach of p: whether any holds a body of another group. First one
    // look-up in the coarser maps (p's block as BodyGlance::onlyOwnAround takes it), which
    // answers for nearly every body far from other groups; the blocks one by one when it
    // cannot tell.
    const float inverse = 1.0f / m_blockSize;
    // (Read before it is written: once set, the threads share the line instead of taking
    // it from each other at every query.)
    if (!m_wideAsked.load(std::memory_order_relaxed))
        m_wideAsked.store(true, std::memory_order_relaxed);
    if (m_coarserReady) {
        int bx, by;
        m_blocksGlance.blockOf(p, bx, by);
        if (m_coarser.onlyOwnWithin(group, bx, by, reach * inverse))
            return false;
    }
    // Truncation is floor where it counts: below zero the range starts at block 0 either
    // way (and a NaN too), and std::floor is a library call without SSE4.1.
    const float fx0 = (p.x - reach - m_blockOrigin.x) * inverse;
    const float fy0 = (p.y - reach - m_blockOrigin.y) * inverse;
    const int bx0 = fx0 > 0.0f ? static_cast<int>(fx0) : 0;
    const int by0 = fy0 > 0.0f ? static_cast<int>(fy0) : 0;
    const int bx1 =
        std::min(m_blockCols - 1, static_cast<int>((p.x + reach - m_blockOrigin.x) * inverse));
    const int by1 =
        std::min(m_blockRows - 1, static_cast<int>((p.y + reach - m_blockOrigin.y) * inverse));
    return othersInRange(m_around.data(), m_blockCols, m_blockRows, bx0, by0, bx1, by1, group);
}

OtherBodies BodyPass::othersNear(int group, Vec2 p, float radius, Vec2 forward, float look) const
{
    OtherBodies out;
    out.gapAhead = look;
    out.firmAhead = look;
    if (!m_indexed) {
        // A world of one group: the lone player is the only other body (on layer 1).
        const CollisionDesc& own = rules[static_cast<std::size_t>(group)].collision;
        const float reach = 2.0f * radius + m_playerRadius + look;
        if (m_lonePlayer && (own.mask & 1u) && distanceSquared(p, m_playerAt) < reach * reach)
            seeBody(out, p, radius, forward, m_playerAt, m_playerRadius, true);
        return out;
    }
    const std::uint32_t mask = m_mask[static_cast<std::size_t>(group)];
    const int priority = m_priority[static_cast<std::size_t>(group)];
    const float reach = radius + m_indexRadius + std::max(radius, look);
    if (reach <= m_blockSize ? blocksGlance().onlyOwnAround(group, p)
                             : !othersInBlocks(group, p, reach)) {
        // No block within reach holds another group's body. (The inline othersNear answers
        // the first case before it asks here.)
        out.othersBeyond2 = reach * reach;
        return out;
    }
    // Lanes of the runs within reach, in slot order; the rules of the few within it after.
    // Those of its own group (nearly all) are dropped in lanes, by the slots' rules, when
    // the index has them: they would be skipped one at a time below, after a look-up each.
    using V = UniformGrid::Lanes;
    const float* xs = m_grid.slotX();
    const float* ys = m_grid.slotY();
    const float* slotRule = m_slotRulesValid ? m_slotRule.data() : nullptr;
    const V own(static_cast<float>(group));
    // The nearest body seen (of another group, when the slots' rules tell), from the reach.
    const float reach2 = reach * reach;
    V nearest(reach2);
    scanNeighbours(m_grid, p, reach, ~std::uint32_t{0},
                   [&](std::uint32_t slot, V, V, V d2, typename V::Mask in) SHOAL_FORCE_INLINE {
                       if (slotRule) {
                           const V rule = V::load(slotRule + slot);
                           in = in & ((rule < own) | (own < rule));
                       }
                       nearest = min(select(in, d2, nearest), nearest);
                       const int bits = laneBits(in);
                       if (bits == 0)
                           return;
                       for (int l = 0; l < V::kWidth; ++l) {
                           if (!((bits >> l) & 1))
                               continue;
                           const std::uint32_t k = slot + static_cast<std::uint32_t>(l);
                           const std::uint32_t j = m_grid.sortedIndex(k);
                           const std::uint16_t rule = m_rule[j];
                           if (rule == group || !(mask & m_layers[rule]) ||
                               (m_priority[rule] < priority && !m_fixed[j] && !m_squeezedAfter[j]))
                               continue;
                           seeBody(out, p, radius, forward, {xs[k], ys[k]}, radiusOf(j),
                                   m_fixed[j] != kMoves || m_squeezedAfter[j] != 0);
                       }
                   });
    out.othersBeyond2 = minLane(nearest);
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
            seconds = deepestOverlap(b, reach, groups, geometry) > kPenetrationTolerance
                          ? seconds + dt
                          : 0.0f;
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
    return (m_x.capacity() + m_y.capacity()) * sizeof(float) +
           m_rule.capacity() * sizeof(std::uint16_t) + m_fixed.capacity() + m_pinned.capacity() +
           m_squeezedAfter.capacity() + m_squeezedList.capacity() * sizeof(std::uint32_t) +
           m_rounds.capacity() * sizeof(RoundBody) +
           m_roundSlot.capacity() * sizeof(std::uint32_t) +
           (m_clearLow.capacity() + m_slotRule.capacity()) * sizeof(float) + m_grid.memoryBytes();
}

void BodyPass::saveCarried(StateWriter& out) const
{
    out.array(rules);
    out.array(m_squeezedList);
}

bool BodyPass::loadCarried(StateReader& in, std::vector<std::uint32_t>& squeezed)
{
    return in.array(rules) && in.array(squeezed);
}

void BodyPass::setSqueezed(const std::vector<std::uint32_t>& squeezed)
{
    clearSqueezed(m_x.size());
    for (const std::uint32_t b : squeezed)
        if (b < m_squeezedAfter.size()) {
            m_squeezedAfter[b] = 1;
            m_squeezedList.push_back(b);
        }
}

} // namespace shoal
