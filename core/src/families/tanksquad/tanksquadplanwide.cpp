// The tank squad's plan on the grid eight lanes at a time (AVX2), for machines that have
// it: the plan kernel of tanksquadkernel.h built in an AVX2 region over a WideGrid. The
// tanks' scans are twice as wide; their sums, and so every tank, are bit for bit those of
// the four-lane plan (see kernels/lanes8.h), and they drive eight at a time, each lane the
// same arithmetic as alone.
//
// Every header whose code the rest of the runtime shares is included first, outside the
// region, so nothing the baseline may call is built for AVX2 here (tests/build/avx_guard.py
// checks the library); the region holds the eight-lane types, the walk and the kernel,
// whose helpers have internal linkage.

#include "families/tanksquad/tanksquad.h"
#include "kernels/lanes.h"

#if SHOAL_WIDE_LANES

#include "kernels/lanetrig.h"
#include "kernels/neighbourscan.h"
#include "kernels/uniformgrid.h"
#include "math/fastmath.h"
#include "steering/drive.h"
#include "steering/steering.h"
#include "world/behaviour.h"
#include <shoal/vec2.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#pragma GCC push_options
#pragma GCC target("avx2")

#include "kernels/widegrid.h"

#include "families/tanksquad/tanksquadkernel.h"

namespace shoal {

namespace {

/// The squad's walk of the grid, eight lanes at a time.
template <> class SquadWalk<WideGrid> : public GridSquadWalk<Float8>
{
public:
    SquadWalk(const WideGrid& grid, float radius, std::vector<float>& slotX)
        : GridSquadWalk<Float8>(grid.grid(), radius, slotX)
    {
    }
    template <class Kernel>
    SHOAL_FORCE_INLINE void scan(const WideGrid&, Vec2 p, float, std::uint32_t self,
                                 Kernel&& kernel)
    {
        GridSquadWalk<Float8>::scan(p, self, kernel);
    }
};

/// NearestInFront on eight lanes: as four. Four-lane lane l meets the tanks that eight-lane
/// lanes l and l + 4 meet, merged in slot order. So each lane also keeps the slot of its
/// nearest, and the two are folded into lane l at the end: the nearer, or on a tie the one
/// met first (the lower slot), which is the one lane l alone would have kept.
template <> struct NearestInFront<Float8>
{
    using V = Float8;
    using Mask = Mask8;
    V gap;
    Mask parked = noLanes<V>();
    /// The slot of each lane's nearest (none: the highest there is).
    __m256i slots = _mm256_set1_epi32(std::numeric_limits<std::int32_t>::max());

    explicit NearestInFront(V keepDistance) : gap(keepDistance) {}
    SHOAL_FORCE_INLINE Mask nearer(Mask candidates, V gaps) const
    {
        return candidates & (gaps < gap);
    }
    SHOAL_FORCE_INLINE void take(Mask nearer, V gaps, Mask parkedLanes, std::uint32_t slot)
    {
        takeUnparked(nearer, gaps, slot);
        parked = parked | (nearer & parkedLanes);
    }
    SHOAL_FORCE_INLINE void takeUnparked(Mask nearer, V gaps, std::uint32_t slot)
    {
        gap = select(nearer, gaps, gap);
        parked = andNot(nearer, parked);
        slots = _mm256_castps_si256(_mm256_blendv_ps(
            _mm256_castsi256_ps(slots), _mm256_castsi256_ps(V::slotsFrom(slot).v), nearer.v));
    }
    SHOAL_FORCE_INLINE void result(float& gapAhead, bool& parkedAhead) const
    {
        if (!any(gap < V(gapAhead)))
            return; // none nearer: nothing to fold
        // Fold: lane l takes lane l + 4's nearest where that is nearer, or as near and met
        // first. (Slots are below 2^31: a signed compare.)
        const __m128 low = _mm256_castps256_ps128(gap.v);
        const __m128 high = _mm256_extractf128_ps(gap.v, 1);
        const __m128i lowSlots = _mm256_castsi256_si128(slots);
        const __m128i highSlots = _mm256_extracti128_si256(slots, 1);
        const __m128 takeHigh =
            _mm_or_ps(_mm_cmplt_ps(high, low),
                      _mm_and_ps(_mm_cmpeq_ps(high, low),
                                 _mm_castsi128_ps(_mm_cmplt_epi32(highSlots, lowSlots))));
        const __m128 folded = _mm_blendv_ps(low, high, takeHigh);
        const __m128 foldedParked = _mm_blendv_ps(_mm256_castps256_ps128(parked.v),
                                                  _mm256_extractf128_ps(parked.v, 1), takeHigh);
        // NearestInFront<Float4>::result() on the folded lanes.
        NearestInFront<Float4> four(Float4{folded});
        four.parked = Mask4{foldedParked};
        four.result(gapAhead, parkedAhead);
    }
};

} // namespace

void TankSquadBehaviour::planPartWide(Group& group, const StepContext& ctx, std::size_t part,
                                      int worker)
{
    planPartWith(group, ctx, part, worker, WideGrid(group.grid));
}

} // namespace shoal

#pragma GCC pop_options

#endif
