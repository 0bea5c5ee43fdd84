#pragma once
/// The neighbour scan every family's hot loop is built on: it walks the runs of slots a
/// search offers (grid rows, or every agent for the brute-force reference), tests lanes of
/// candidates at once, and hands the kernel the lanes within range.

#include "lanes.h"
#include "vec2.h"

#include <cstdint>

namespace shoal {

/// Calls kernel(slot, dx, dy, d2, in) for lanes of candidates [slot, slot + width) of
/// `search` (Search::Lanes wide), where (dx, dy) = p - candidate, d2 = dx^2 + dy^2 and `in`
/// marks the lanes within `radius` of p, excluding slot `self` (pass any slot past the end
/// to exclude nobody). `in` may be all off. Arrays the kernel loads at [slot] must be
/// readable kLanePadding past the last slot.
///
/// kGroupsPerRun: lane groups every run gets before the loop for the rest; set it to cover
/// a typical grid row. A short loop whose trip count varies agent by agent is what the
/// branch predictor gets wrong, and a miss costs more than a few idle lanes.
template <int kGroupsPerRun = 1, class Search, class Kernel>
SHOAL_FORCE_INLINE inline void scanNeighbours(const Search& search, Vec2 p, float radius, std::uint32_t self, Kernel&& kernel)
{
    using V = typename Search::Lanes;
    static_assert(V::kWidth * kGroupsPerRun - 1 <= static_cast<int>(kLanePadding),
                  "lane loads would read past the padding");
    const V px(p.x);
    const V py(p.y);
    const V r2(radius * radius);
    const float* xs = search.slotX();
    const float* ys = search.slotY();
    auto lanesAt = [&](std::uint32_t slot, std::uint32_t end) SHOAL_FORCE_INLINE {
        const V dx = px - V::load(xs + slot);
        const V dy = py - V::load(ys + slot);
        const V d2 = dx * dx + dy * dy;
        kernel(slot, dx, dy, d2, (d2 <= r2) & V::validLanes(slot, end, self));
    };
    search.forEachRange(p, radius, [&](std::uint32_t begin, std::uint32_t end) SHOAL_FORCE_INLINE {
        if constexpr (V::kWidth > 1) {
            std::uint32_t slot = begin;
            for (int group = 0; group < kGroupsPerRun; ++group, slot += V::kWidth)
                lanesAt(slot, end);
            for (; slot < end; slot += V::kWidth)
                lanesAt(slot, end);
        } else {
            // The reference: the seed's loop, one pair at a time, skipping those out of range
            // (split around `self`, so the loop tests nothing but the distance).
            auto pairs = [&](std::uint32_t from, std::uint32_t to) SHOAL_FORCE_INLINE {
                for (std::uint32_t k = from; k < to; ++k) {
                    const V dx = px - V::load(xs + k);
                    const V dy = py - V::load(ys + k);
                    const V d2 = dx * dx + dy * dy;
                    if (SHOAL_UNLIKELY(d2.v <= r2.v))
                        kernel(k, dx, dy, d2, typename V::Mask{true});
                }
            };
            const std::uint32_t split = self < begin ? begin : (self < end ? self : end);
            pairs(begin, split);
            pairs(split == self ? split + 1 : split, end);
        }
    });
}

} // namespace shoal
