// The body index's block map as tags of the group round each block, and the coarser maps of
// it a query wider than a block asks once (world/blocklevels.h).

#include "world/blocklevels.h"

#include "world/behaviour.h"

#include <algorithm>

namespace shoal {

namespace {

/// out[x] = op(in[x - 1], in[x], in[x + 1]), clipped at the ends; `step` apart (1 along a
/// row, the row length down a column). Loops the compiler turns into lanes of min or max.
template <class Op>
void spread3(const std::uint16_t* in, std::uint16_t* out, std::size_t count, std::size_t step,
             Op op)
{
    if (count == 0)
        return;
    if (count == 1) {
        out[0] = in[0];
        return;
    }
    const std::size_t last = (count - 1) * step;
    out[0] = op(in[0], in[step]);
    for (std::size_t k = step; k < last; k += step)
        out[k] = op(op(in[k - step], in[k]), in[k + step]);
    out[last] = op(in[last - step], in[last]);
}

std::uint16_t lower(std::uint16_t a, std::uint16_t b)
{
    return a < b ? a : b;
}
std::uint16_t higher(std::uint16_t a, std::uint16_t b)
{
    return a > b ? a : b;
}

/// No level is built past this many (blocks 2^kMaxLevels fine blocks wide).
constexpr int kMaxLevels = 10;

} // namespace

void tagsAround(const std::uint16_t* low, const std::uint16_t* high, std::size_t cols,
                std::size_t rows, std::vector<std::uint16_t>& acrossLow,
                std::vector<std::uint16_t>& acrossHigh, std::uint16_t* around)
{
    // Along the rows, each block with its two neighbours, the lowest and the highest apart
    // (loops of min and max the compiler runs in lanes); then down the columns, a row at a
    // time so the loops run along memory, into the one group they name.
    const std::size_t blocks = cols * rows;
    acrossLow.resize(blocks);
    acrossHigh.resize(blocks);
    for (std::size_t y = 0; y < rows; ++y) {
        spread3(low + y * cols, acrossLow.data() + y * cols, cols, 1, lower);
        spread3(high + y * cols, acrossHigh.data() + y * cols, cols, 1, higher);
    }
    for (std::size_t y = 0; y < rows; ++y) {
        const std::size_t above = (y > 0 ? y - 1 : y) * cols, mid = y * cols;
        const std::size_t below = (y + 1 < rows ? y + 1 : y) * cols;
        const std::uint16_t* l = acrossLow.data();
        const std::uint16_t* h = acrossHigh.data();
        std::uint16_t* row = around + mid;
        for (std::size_t x = 0; x < cols; ++x) {
            const std::uint16_t lo = lower(lower(l[above + x], l[mid + x]), l[below + x]);
            const std::uint16_t hi = higher(higher(h[above + x], h[mid + x]), h[below + x]);
            row[x] = hi < lo ? BodyGlance::kNoBody : (lo == hi ? lo : BodyGlance::kMixed);
        }
    }
}

bool othersInRange(const std::uint16_t* around, int cols, int rows, int bx0, int by0, int bx1,
                   int by1, int group)
{
    // The middle of each three (the last block, when fewer are left): so a tag tells of a
    // block at most one outside the range.
    by1 = std::min(by1, rows - 1);
    bx1 = std::min(bx1, cols - 1);
    for (int y = by0; y <= by1; y += 3) {
        const std::size_t row =
            static_cast<std::size_t>(std::min(y + 1, by1)) * static_cast<std::size_t>(cols);
        for (int x = bx0; x <= bx1; x += 3) {
            const std::uint16_t tag = around[row + static_cast<std::size_t>(std::min(x + 1, bx1))];
            if (tag != BodyGlance::kNoBody && tag != group)
                return true;
        }
    }
    return false;
}

void CoarserBlocks::build(const std::vector<std::uint16_t>& low,
                          const std::vector<std::uint16_t>& high, int cols, int rows)
{
    m_count = 0;
    // Each level reads the last: none may move while they are built.
    m_levels.reserve(kMaxLevels);
    const std::vector<std::uint16_t>* fromLow = &low;
    const std::vector<std::uint16_t>* fromHigh = &high;
    int fromCols = cols, fromRows = rows;
    // Until one level's block and the eight round it cover the whole map.
    while (m_count < kMaxLevels && (fromCols > 2 || fromRows > 2)) {
        if (m_levels.size() <= static_cast<std::size_t>(m_count))
            m_levels.emplace_back();
        Level& level = m_levels[static_cast<std::size_t>(m_count)];
        level.cols = (fromCols + 1) / 2;
        level.rows = (fromRows + 1) / 2;
        const auto wide = static_cast<std::size_t>(level.cols);
        const std::size_t blocks = wide * static_cast<std::size_t>(level.rows);
        level.low.assign(blocks, kNoLowRule);
        level.high.assign(blocks, kNoHighRule);
        const auto fromWide = static_cast<std::size_t>(fromCols);
        for (std::size_t y = 0; y < static_cast<std::size_t>(fromRows); ++y) {
            const std::uint16_t* rowLow = fromLow->data() + y * fromWide;
            const std::uint16_t* rowHigh = fromHigh->data() + y * fromWide;
            std::uint16_t* toLow = level.low.data() + (y / 2) * wide;
            std::uint16_t* toHigh = level.high.data() + (y / 2) * wide;
            for (std::size_t x = 0; x < fromWide; ++x) {
                toLow[x / 2] = lower(toLow[x / 2], rowLow[x]);
                toHigh[x / 2] = higher(toHigh[x / 2], rowHigh[x]);
            }
        }
        level.around.resize(blocks);
        tagsAround(level.low.data(), level.high.data(), wide, static_cast<std::size_t>(level.rows),
                   m_acrossLow, m_acrossHigh, level.around.data());
        fromLow = &level.low;
        fromHigh = &level.high;
        fromCols = level.cols;
        fromRows = level.rows;
        ++m_count;
    }
}

bool CoarserBlocks::onlyOwnWithin(int group, int bx, int by, float reachBlocks) const
{
    // The coarsest map needed: blocks of 2^(k + 1) fine ones, at least the reach and one more
    // wide, so the coarse block round (bx, by) and the eight round it hold every fine block
    // the reach spans, rounding included. (A NaN reach finds none.)
    float wide = 2.0f;
    for (int k = 0; k < m_count; ++k, wide *= 2.0f) {
        if (!(reachBlocks + 1.0f <= wide))
            continue;
        const Level& level = m_levels[static_cast<std::size_t>(k)];
        const int shift = k + 1;
        const std::uint16_t tag = level.around[static_cast<std::size_t>(by >> shift) *
                                                   static_cast<std::size_t>(level.cols) +
                                               static_cast<std::size_t>(bx >> shift)];
        return tag == BodyGlance::kNoBody || tag == group;
    }
    return false;
}

} // namespace shoal
