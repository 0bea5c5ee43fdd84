#pragma once
/// The neighbour scan the school's, squad's and swarm's hot loops are built on: it walks the
/// runs of slots a search offers (grid rows, or every agent for the brute-force reference),
/// tests lanes of candidates at once, and hands the kernel the lanes within range.

#include "kernels/lanes.h"
#include "math/fastmath.h"
#include "math/random.h"
#include <shoal/vec2.h>

#include <cstdint>
#include <utility>

namespace shoal {

/// Calls kernel(slot, dx, dy, d2, in) for lanes of candidates [slot, slot + width) of
/// `search` (Search::Lanes wide), where (dx, dy) = p - candidate, d2 = dx^2 + dy^2 and `in`
/// marks the lanes within `radius` of p, excluding slot `self` (pass any slot past the end
/// to exclude nobody). `in` may be all off. Arrays the kernel loads at [slot] must be
/// readable kLanePadding past the last slot.
///
/// kGroupsPerRun: lane groups every run gets before the loop for the rest. A short loop whose
/// trip count varies agent by agent is what the branch predictor gets wrong, so a fixed
/// count can pay when runs are long; for the families here 1 measured best (at 2 the idle
/// lanes cost more than the mispredictions saved).
///
/// `xs` and `ys` are the points in slot order (the search's own, or a copy of them in which
/// points the kernel must never see are NaN: they are never in range).
///
/// The runs are those of the query round `rangeCentre` within `rangeRadius`: the search's
/// cells may hold the points where they were while `xs`, `ys` say where they are now (the
/// body pass finds this step's contacts in the grid of where the step began); the range
/// must then cover how far the points moved.
template <int kGroupsPerRun = 1, class Search, class Kernel>
SHOAL_FORCE_INLINE inline void
scanNeighbours(const Search& search, Vec2 rangeCentre, float rangeRadius, const float* xs,
               const float* ys, Vec2 p, float radius, std::uint32_t self, Kernel&& kernel)
{
    using V = typename Search::Lanes;
    static_assert(V::kWidth * kGroupsPerRun - 1 <= static_cast<int>(kLanePadding),
                  "lane loads would read past the padding");
    const V px(p.x);
    const V py(p.y);
    const V r2(radius * radius);
    search.forEachRange(
        rangeCentre, rangeRadius, [&](std::uint32_t begin, std::uint32_t end) SHOAL_FORCE_INLINE {
            if constexpr (V::kWidth > 1) {
                const typename V::Slots selfLanes = V::everyLane(self);
                const typename V::Slots endLanes = V::everyLane(end);
                typename V::Slots lanes = V::slotsFrom(begin);
                auto lanesAt = [&](std::uint32_t slot) SHOAL_FORCE_INLINE {
                    const V dx = px - V::load(xs + slot);
                    const V dy = py - V::load(ys + slot);
                    const V d2 = dx * dx + dy * dy;
                    kernel(slot, dx, dy, d2,
                           (d2 <= r2) & V::validLanes(lanes, endLanes, selfLanes));
                    lanes = V::nextGroup(lanes);
                };
                std::uint32_t slot = begin;
                for (int group = 0; group < kGroupsPerRun; ++group, slot += V::kWidth)
                    lanesAt(slot);
                for (; slot < end; slot += V::kWidth)
                    lanesAt(slot);
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

/// The same over the search's own points.
/// The same with the runs round p itself.
template <int kGroupsPerRun = 1, class Search, class Kernel>
SHOAL_FORCE_INLINE inline void scanNeighbours(const Search& search, const float* xs,
                                              const float* ys, Vec2 p, float radius,
                                              std::uint32_t self, Kernel&& kernel)
{
    scanNeighbours<kGroupsPerRun>(search, p, radius, xs, ys, p, radius, self,
                                  std::forward<Kernel>(kernel));
}

template <int kGroupsPerRun = 1, class Search, class Kernel>
SHOAL_FORCE_INLINE inline void scanNeighbours(const Search& search, Vec2 p, float radius,
                                              std::uint32_t self, Kernel&& kernel)
{
    scanNeighbours<kGroupsPerRun>(search, search.slotX(), search.slotY(), p, radius, self,
                                  std::forward<Kernel>(kernel));
}

/// Neighbours closer than this (squared, m^2) count as exactly on top of each other.
constexpr float kTouchingDistance2 = 1e-12f;

/// Agents exactly on top of each other have no offset to push apart along. Each such pair
/// splits along a direction of its own instead (from the seed, the pair and `salt`; the
/// same line for both, opposite ways). Returns the sum of those unit vectors for agent i at
/// slot `self`, over the neighbours at p that accept(slot) admits. Kernels only note that a
/// lane touched; this rare case then runs here, one pair at a time.
template <class Search, class Accept>
Vec2 touchingSplit(const Search& search, Vec2 p, std::uint32_t self, std::uint32_t i,
                   std::uint64_t seed, std::uint64_t salt, Accept&& accept)
{
    Vec2 sum;
    search.forEachSlotWithin(p, 1e-6f, [&](std::uint32_t slot, float, float, float d2) {
        if (slot == self || !(d2 < kTouchingDistance2) || !accept(slot))
            return;
        const std::uint32_t j = search.sortedIndex(slot);
        sum += fromAngle(signedNoise(seed, i < j ? i : j, i < j ? j : i, salt) * kPi) *
               (i < j ? 1.0f : -1.0f);
    });
    return sum;
}

} // namespace shoal
