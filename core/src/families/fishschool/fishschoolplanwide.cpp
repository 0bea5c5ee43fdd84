// The fish school's plan on the grid eight lanes at a time (AVX2), for machines that have
// it: the plan kernel of fishschoolkernel.h built in an AVX2 region over a WideGrid. The
// members' scans are twice as wide; their sums, and so every fish, are bit for bit those of
// the four-lane plan (see kernels/lanes8.h).
//
// Every header whose code the rest of the runtime shares is included first, outside the
// region, so nothing the baseline may call is built for AVX2 here (tests/build/avx_guard.py
// checks the library); the region holds the eight-lane types, the scan and the
// kernel, whose helpers have internal linkage.

#include "families/fishschool/fishschool.h"
#include "kernels/lanes.h"

#if SHOAL_WIDE_LANES

#include "kernels/lanetrig.h"
#include "kernels/uniformgrid.h"
#include "math/fastmath.h"
#include "math/random.h"
#include "steering/drive.h"
#include "steering/steering.h"
#include "world/behaviour.h"
#include <shoal/vec2.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#pragma GCC push_options
#pragma GCC target("avx2")

#include "kernels/lanetrig8.h"
#include "kernels/widegrid.h"

#include "families/fishschool/fishschoolkernel.h"
#include "kernels/neighbourscan.h"

namespace shoal {

void FishSchoolBehaviour::planPartWide(Group& group, const StepContext& ctx, std::size_t part,
                                       int worker)
{
    planPartWith(group, ctx, part, worker, WideGrid(group.grid));
}

} // namespace shoal

#pragma GCC pop_options

#endif
