#pragma once
// What the editor's benches (--bench-render, --bench-open, --bench-metrics) share: exit codes,
// the process's CPU clock, the median of a run's rounds and a count of a widget's paints.

#include <QEvent>
#include <QObject>

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

/// Counts the paint events of the objects it filters (installEventFilter): a bench that
/// times "to the next frame" checks it painted that frame once, not twice.
class PaintCounter : public QObject
{
public:
    int count = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint)
            ++count;
        return QObject::eventFilter(watched, event);
    }
};

} // namespace shoal::ui::bench
