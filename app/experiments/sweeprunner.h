#pragma once
/// A sweep: a scene run once for every combination of some parameters' values, times several
/// seeds, on several threads. What each run measured after its last step (every group's
/// metrics, the checks passed, the score) is the same for any number of threads: each run is
/// a pure function of its index. shoal-cli sweep writes the runs as CSV rows; the editor's
/// Sweep dialog paints them as a heatmap.

#include "sceneparam.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace shoal::experiments {

/// The most runs (combinations times seeds) one sweep makes.
constexpr std::size_t kMaxSweepRuns = 10000000;

/// One varied parameter and the values it takes.
struct SweepAxis
{
    SceneParam param;
    std::vector<double> values;
};

/// "FROM:TO:STEP": FROM, FROM + STEP, ... up to TO (a hair over TO counts as TO); the Error
/// starts with `where`.
std::optional<Error> parseAxisValues(const std::string& text, const std::string& where,
                                     std::vector<double>& values);

/// GROUP.PARAM of `scene` over "FROM:TO:STEP", every value one the parameter's spec allows;
/// the Error starts with `where`.
std::optional<Error> makeSweepAxis(const SceneDesc& scene, const std::string& target,
                                   const std::string& range, const std::string& where,
                                   SweepAxis& axis);

/// What to run: the scene, its axes (the last changes fastest), the seeds and the steps.
struct SweepPlan
{
    SceneDesc scene;
    std::vector<SweepAxis> axes;
    int seeds = 1;
    std::int64_t steps = 600;

    /// The product of the axes' value counts.
    std::size_t combinations() const;
    /// combinations() x seeds; run r is combination r / seeds with seed r % seeds.
    std::size_t runs() const { return combinations() * static_cast<std::size_t>(seeds); }
};

/// What one run measured after its last step.
struct SweepRun
{
    std::size_t run = 0;
    std::uint64_t seed = 0;
    std::vector<double> values;  ///< one per axis
    std::vector<double> metrics; ///< per group, per checkMetricKeys(); NaN: no value
    std::size_t passed = 0;      ///< checks passed
    std::size_t checks = 0;      ///< the scene's checks
    double score = 0.0;          ///< passed / checks; 1 for a scene without checks
    std::string error;           ///< why the scene refused the values; empty: it ran
    std::uint64_t hash = 0;      ///< the world's state hash after the last step

    bool refused() const { return !error.empty(); }
};

/// The scene of run `run`: the combination's values set and its seed (the scene's, plus the
/// run's place among the seeds).
SceneDesc sceneOfRun(const SweepPlan& plan, std::size_t run);

/// Makes run `run` of the plan (on the calling thread). Once `cancel` (may be null) is set
/// the run stops within a few steps and its measurements mean nothing.
SweepRun runSweepRun(const SweepPlan& plan, std::size_t run,
                     const std::atomic<bool>* cancel = nullptr);

/// The runs first, first + stride, ... (`count` of them) on `jobs` threads, handed to
/// `deliver` on the calling thread in run order a block of `block` runs at a time (0: 16 per
/// thread), so memory stays that of one block however long the sweep. `progress` (may be
/// empty) hears the runs delivered so far after each block. Once `cancel` (may be null) is
/// set, no run starts and the runs under way stop within a few steps; the unfinished block
/// is dropped. Returns the runs delivered.
std::size_t runSweep(const SweepPlan& plan, std::size_t first, std::size_t stride,
                     std::size_t count, int jobs, std::size_t block,
                     const std::function<void(SweepRun&&)>& deliver,
                     const std::function<void(std::size_t done)>& progress,
                     const std::atomic<bool>* cancel);

} // namespace shoal::experiments
