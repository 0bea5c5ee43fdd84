#pragma once
/// The buffers a flow field search needs only while it runs (geometry/flowfield.cpp): the
/// scratch of costs, parent moves, anchor offsets and queues, the layer of anchors and
/// distances a search in slices writes beside the field's, and the pool that keeps both for
/// the next search.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <mutex>
#include <vector>

namespace shoal {

/// What a cost or distance not known yet holds (kSearchUnknown).
constexpr float kSearchUnknown = std::numeric_limits<float>::infinity();

/// What a search needs only while it runs: the search's costs, each cell's parent move, the
/// offset from each settled cell to its anchor and the two queues (21 bytes a cell). One per
/// thread for searches computed at once, grown to the largest grid it has searched, instead
/// of one per field: a level's fields (a squad's, a hundred followers' windows) keep only
/// what the agents look up. A search in slices holds one of its own between steps (from a
/// SearchPool).
struct SearchScratch
{
    std::vector<float> cost;
    std::vector<std::uint8_t> parent;
    // Per settled cell, its anchor less itself in whole cells: what the row and column of both
    // would give, carried along the search instead of worked out from slots (a division each).
    // Both in one struct: a settle reads them together, from one cache line.
    struct AnchorOffset
    {
        std::int32_t x, y;
    };
    std::vector<AnchorOffset> toAnchor;
    // The search's two queues, one per move length: each receives costs in increasing order,
    // so the smaller head is the next cell to settle (no heap). A cell enters each queue at
    // most once (only a strictly shorter path re-queues it), so a queue never needs more
    // slots than the grid has.
    std::vector<std::int32_t> axisQueue;
    std::vector<std::int32_t> diagonalQueue;
    /// The slots whose cost the last search may have written; every other cost is
    /// +infinity. A search clears only these (a squad's field: its corner of the level).
    std::size_t dirtyFrom = 0, dirtyTo = 0;

    static constexpr bool kAnyBigger = true; ///< serves any grid up to its size (SearchPool)
    std::size_t slots() const { return cost.size(); }
    /// Ready for a search over `slots` slots: every cost unknown.
    void prepare(std::size_t slots)
    {
        if (cost.size() < slots) {
            cost.resize(slots, kSearchUnknown);
            parent.resize(slots);
            toAnchor.resize(slots);
            axisQueue.resize(slots);
            diagonalQueue.resize(slots);
        }
        std::fill(cost.begin() + static_cast<std::ptrdiff_t>(dirtyFrom),
                  cost.begin() + static_cast<std::ptrdiff_t>(dirtyTo), kSearchUnknown);
        dirtyFrom = dirtyTo = 0;
    }
    /// A search that settled slots [lowest, highest] of a grid `stride` wide wrote costs
    /// only there and beside it.
    void dirtied(std::int32_t lowest, std::int32_t highest, int stride)
    {
        const auto low = static_cast<std::size_t>(lowest), high = static_cast<std::size_t>(highest);
        const auto across = static_cast<std::size_t>(stride) + 1;
        dirtyFrom = low > across ? low - across : 0;
        dirtyTo = std::min(cost.size(), high + across + 1);
    }

    static SearchScratch& forSlots(std::size_t slots)
    {
        thread_local SearchScratch scratch;
        scratch.prepare(slots);
        return scratch;
    }
};

/// The anchors and distances a search in slices writes while the field still reads as the
/// last goal's: swapped in when it lands, and the field's old ones kept for the next search.
struct SearchLayer
{
    std::vector<float> distance;
    std::vector<std::int32_t> anchor;
    /// The slots whose anchors were written; every other anchor is -1. (Distances are read
    /// only through anchors: none is cleared.)
    std::size_t dirtyFrom = 0, dirtyTo = 0;

    static constexpr bool kAnyBigger = false; ///< serves its own size only (SearchPool)
    std::size_t slots() const { return anchor.size(); }
    /// Ready for a search over `slots` slots: no cell settled.
    void prepare(std::size_t slots)
    {
        if (anchor.size() != slots) {
            distance.assign(slots, kSearchUnknown);
            anchor.assign(slots, -1);
        } else {
            std::fill(anchor.begin() + static_cast<std::ptrdiff_t>(dirtyFrom),
                      anchor.begin() + static_cast<std::ptrdiff_t>(dirtyTo), -1);
        }
        dirtyFrom = dirtyTo = 0;
    }
};

/// What searches in slices hold only while they run (scratches, layers), kept for the next
/// ones instead of allocated and written whole again (40 and 16 MB on a level of two
/// million cells): at most `kKept`, the oldest dropped first. A scratch serves any grid no
/// bigger than it (a smaller one grows); a layer only its own size (one of another is
/// allocated afresh rather than written whole).
template <class T, std::size_t kKept> class SearchPool
{
public:
    static std::unique_ptr<T> take(std::size_t slots)
    {
        std::unique_ptr<T> item;
        {
            const std::lock_guard<std::mutex> lock(mutex());
            std::vector<std::unique_ptr<T>>& pool = kept();
            auto fits = std::find_if(pool.begin(), pool.end(), [&](const std::unique_ptr<T>& k) {
                return T::kAnyBigger ? k->slots() >= slots : k->slots() == slots;
            });
            // A scratch too small grows (and then serves both grids) rather than a new one
            // being made beside it.
            if (T::kAnyBigger && fits == pool.end() && !pool.empty())
                fits = pool.end() - 1;
            if (fits != pool.end()) {
                item = std::move(*fits);
                pool.erase(fits);
            }
        }
        if (!item)
            item = std::make_unique<T>();
        item->prepare(slots);
        return item;
    }
    static void give(std::unique_ptr<T> item)
    {
        const std::lock_guard<std::mutex> lock(mutex());
        std::vector<std::unique_ptr<T>>& pool = kept();
        if (pool.size() >= kKept)
            pool.erase(pool.begin());
        pool.push_back(std::move(item));
    }

private:
    // Never destroyed: a field that outlives them (one held by a static) still gives back.
    static std::mutex& mutex()
    {
        static std::mutex* m = new std::mutex;
        return *m;
    }
    static std::vector<std::unique_ptr<T>>& kept()
    {
        static auto* pool = new std::vector<std::unique_ptr<T>>;
        return *pool;
    }
};

} // namespace shoal
