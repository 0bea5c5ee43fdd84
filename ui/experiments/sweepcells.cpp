#include "experiments/sweepcells.h"

#include <cmath>
#include <limits>

namespace shoal::ui {

double SweepMeasure::of(const experiments::SweepRun& run) const
{
    constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
    if (run.refused())
        return kNone;
    switch (kind) {
    case Kind::ChecksPassed:
        return static_cast<double>(run.passed);
    case Kind::Score:
        return run.score;
    case Kind::Metric:
        return metricIndex >= 0 && static_cast<std::size_t>(metricIndex) < run.metrics.size()
                   ? run.metrics[static_cast<std::size_t>(metricIndex)]
                   : kNone;
    }
    return kNone;
}

std::optional<std::size_t> SweepCells::best(bool higherIsBetter) const
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (std::isnan(values[i]) || refused[i] > 0)
            continue;
        // Strictly better only: among equals the first cell in run order stays.
        if (!best || (higherIsBetter ? values[i] > values[*best] : values[i] < values[*best]))
            best = i;
    }
    return best;
}

SweepCells makeSweepCells(const std::vector<experiments::SweepRun>& runs, std::size_t combinations,
                          int seeds, const SweepMeasure& measure)
{
    SweepCells cells;
    std::vector<double> sums(combinations, 0.0);
    std::vector<int> counted(combinations, 0);
    cells.refused.assign(combinations, 0);
    cells.seedsDone.assign(combinations, 0);
    for (const experiments::SweepRun& run : runs) {
        const std::size_t cell = run.run / static_cast<std::size_t>(seeds);
        if (cell >= combinations)
            continue;
        ++cells.seedsDone[cell];
        if (run.refused()) {
            ++cells.refused[cell];
            continue;
        }
        const double value = measure.of(run);
        if (std::isnan(value))
            continue;
        sums[cell] += value;
        ++counted[cell];
    }
    cells.values.assign(combinations, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < combinations; ++i)
        if (counted[i] > 0)
            cells.values[i] = sums[i] / counted[i];
    return cells;
}

} // namespace shoal::ui
