#pragma once
// What the editor's benches (--bench-render, --bench-open, --bench-metrics) share: exit codes,
// the process's CPU clock and the median of a run's rounds.

#include <algorithm>
#include <ctime>
#include <vector>

namespace shoal::ui::bench {

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;

/// CPU time of this process (every thread: the raster engine fills large areas on a thread
/// pool), ms. Other processes on a shared machine stretch the wall clock; this shows what
/// the work itself costs.
inline double processCpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

/// The middle value of a bench's rounds (the upper middle of an even count); 0 for none.
inline double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace shoal::ui::bench
