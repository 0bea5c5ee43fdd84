#pragma once
/// The body index's block map (BodyPass::index) as tags of which group lies round each block,
/// and coarser maps of the same bodies for queries that reach further than a block: one
/// look-up tells a tank, whose reach spans five blocks each way, that only its own squad is
/// near, where the blocks one by one took 25.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace shoal {

/// The lowest and highest rule of a block with no body in it.
constexpr std::uint16_t kNoLowRule = 0xFFFF;
constexpr std::uint16_t kNoHighRule = 0;

/// Per block of a `cols` x `rows` map, the tag (BodyGlance::around) of the bodies in it and in
/// the eight blocks round it, from each block's lowest and highest rule: the one rule when
/// all are of one, BodyGlance::kNoBody when there are none, BodyGlance::kMixed otherwise.
/// `acrossLow` and `acrossHigh` are scratch.
void tagsAround(const std::uint16_t* low, const std::uint16_t* high, std::size_t cols,
                std::size_t rows, std::vector<std::uint16_t>& acrossLow,
                std::vector<std::uint16_t>& acrossHigh, std::uint16_t* around);

/// Whether the blocks [bx0, bx1] x [by0, by1] of a `cols` x `rows` map may hold a body of a
/// group but `group`, from the map's tags (tagsAround): every third block's, which tells of
/// it and the eight round it. A ninth of the look-ups of the blocks one by one, and never
/// false when one of them holds another group's body; true now and then for one in a block
/// just outside the range. An empty range holds none.
bool othersInRange(const std::uint16_t* around, int cols, int rows, int bx0, int by0, int bx1,
                   int by1, int group);

/// Maps of the same bodies with blocks 2, 4, 8... times as wide, each with its tags round
/// every block. A query within a reach of n blocks asks the coarsest map it needs once: its
/// block and the eight round it cover every block the reach spans. The answer is only ever
/// "none but your own" or "cannot tell": a mixed coarse block sends the query to the fine
/// blocks, so no answer differs from theirs.
class CoarserBlocks
{
public:
    /// Built from the fine map's lowest and highest rule per block.
    void build(const std::vector<std::uint16_t>& low, const std::vector<std::uint16_t>& high,
               int cols, int rows);
    /// Whether no body of a group but `group` lies in the fine blocks within `reachBlocks`
    /// blocks of fine block (bx, by), one more for rounding (false: it cannot tell, or the
    /// reach is wider than the coarsest map). (bx, by) must lie on the fine map.
    bool onlyOwnWithin(int group, int bx, int by, float reachBlocks) const;

private:
    struct Level
    {
        int cols = 0, rows = 0;
        std::vector<std::uint16_t> low, high, around;
    };
    /// Level k has blocks 2^(k + 1) fine blocks wide (kept between builds, as their sizes
    /// say: a level beyond them is left as it was and not read).
    std::vector<Level> m_levels;
    int m_count = 0; ///< the levels of the last build
    std::vector<std::uint16_t> m_acrossLow, m_acrossHigh;
};

} // namespace shoal
