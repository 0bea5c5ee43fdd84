#pragma once
/// A sweep's runs as the cells of its heatmap: one cell per combination of the varied values,
/// holding the chosen measure averaged over the combination's seeds, and the best cell.

#include <sweeprunner.h>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace shoal::ui {

/// What the heatmap colours by.
struct SweepMeasure
{
    enum class Kind
    {
        ChecksPassed, ///< the checks a run passed
        Score,        ///< the share of the scene's checks passed
        Metric,       ///< one group's summary metric after the last step
    };
    Kind kind = Kind::ChecksPassed;
    int metricIndex = -1; ///< Metric: in SweepRun::metrics (group x checkMetricKeys())
    bool higherIsBetter = true;

    /// The measure of one run; NaN when the run has none (refused, or a metric with no value).
    double of(const experiments::SweepRun& run) const;
};

/// One cell per combination, in run order (the last axis changes fastest).
struct SweepCells
{
    std::vector<double> values; ///< the mean over the seeds that have a value; NaN: none
    std::vector<int> refused;   ///< per cell, the seeds the scene refused
    std::vector<int> seedsDone; ///< per cell, the seeds that ran (or were refused)

    /// The best cell: the highest (or lowest) value, the first in run order among equals;
    /// nothing while no cell has a value. A cell with a refused seed is never best.
    std::optional<std::size_t> best(bool higherIsBetter) const;
};

/// The cells of `combinations` combinations from `runs` (any subset of a plan with `seeds`
/// seeds, in any order).
SweepCells makeSweepCells(const std::vector<experiments::SweepRun>& runs, std::size_t combinations,
                          int seeds, const SweepMeasure& measure);

} // namespace shoal::ui
