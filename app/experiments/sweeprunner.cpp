// Sweeps: the values of an axis, the scene of a run, a run's measurements, and running many
// runs on several threads in run order.

#include "sweeprunner.h"

#include <shoal/checks.h>
#include <shoal/displaytext.h>
#include <shoal/world.h>

#include <QString>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <thread>

namespace shoal::experiments {

namespace {

/// How often (in steps) a run looks at the cancel flag: often enough that Cancel answers
/// within a blink even on a big level, rarely enough to cost nothing.
constexpr std::int64_t kCancelPollSteps = 16;

} // namespace

std::optional<Error> parseAxisValues(const std::string& text, const std::string& where,
                                     std::vector<double>& values)
{
    const QStringList parts = QString::fromStdString(text).split(QLatin1Char(':'));
    double from = 0.0, to = 0.0, step = 0.0;
    bool ok = parts.size() == 3;
    if (ok)
        from = parts[0].toDouble(&ok);
    if (ok)
        to = parts[1].toDouble(&ok);
    if (ok)
        step = parts[2].toDouble(&ok);
    if (!ok || !std::isfinite(from) || !std::isfinite(to) || !std::isfinite(step))
        return Error{where + ": expected FROM:TO:STEP with three finite numbers, got " +
                     quotedName(text)};
    if (step <= 0.0 || to < from)
        return Error{where + ": the step must be above 0 and TO at least FROM"};
    const double count = std::floor((to - from) / step + 1e-9) + 1.0;
    if (count > static_cast<double>(kMaxSweepRuns))
        return Error{where + ": " + formatNumber(count) + " values; a sweep runs at most " +
                     std::to_string(kMaxSweepRuns)};
    values.clear();
    for (double i = 0; i < count; ++i) {
        // Each value from FROM by a multiple of STEP (no sum of steps drifting), in the
        // shortest decimal form that reads back as it (0.3, not 0.30000000000000004).
        const double value = std::stod(formatNumber(from + i * step, 12));
        values.push_back(value);
    }
    return std::nullopt;
}

std::optional<Error> makeSweepAxis(const SceneDesc& scene, const std::string& target,
                                   const std::string& range, const std::string& where,
                                   SweepAxis& axis)
{
    auto param = findSceneParam(scene, target, where);
    if (!param)
        return param.error();
    axis.param = *param;
    if (auto error = parseAxisValues(range, where, axis.values))
        return error;
    for (const double value : axis.values)
        if (auto error = checkParamValue(*axis.param.spec, value, axis.param.name()))
            return Error{where + ": " + error->message};
    return std::nullopt;
}

std::size_t SweepPlan::combinations() const
{
    std::size_t count = 1;
    for (const SweepAxis& axis : axes)
        count *= axis.values.size();
    return count;
}

SceneDesc sceneOfRun(const SweepPlan& plan, std::size_t run)
{
    SceneDesc scene = plan.scene;
    std::size_t combination = run / static_cast<std::size_t>(plan.seeds);
    scene.simulation.seed += run % static_cast<std::size_t>(plan.seeds);
    for (std::size_t a = plan.axes.size(); a-- > 0;) {
        const SweepAxis& axis = plan.axes[a];
        axis.param.in(scene) = axis.values[combination % axis.values.size()];
        combination /= axis.values.size();
    }
    return scene;
}

SweepRun runSweepRun(const SweepPlan& plan, std::size_t run, const std::atomic<bool>* cancel)
{
    SweepRun result;
    const SceneDesc scene = sceneOfRun(plan, run);
    result.run = run;
    result.seed = scene.simulation.seed;
    result.checks = scene.checks.size();
    for (const SweepAxis& axis : plan.axes)
        result.values.push_back(axis.param.in(scene));
    std::unique_ptr<World> world;
    try {
        auto created = World::create(scene);
        if (!created) {
            result.error = created.error().message;
            return result;
        }
        world = std::move(*created);
    } catch (const std::bad_alloc&) {
        result.error = "out of memory";
        return result;
    }
    auto runner = CheckRunner::create(scene.checks, *world);
    if (!runner) {
        result.error = runner.error().message;
        return result;
    }
    for (std::int64_t s = 0; s < plan.steps; ++s) {
        // A cancel ends a long run at once; runSweep() drops its block.
        if (cancel && s % kCancelPollSteps == 0 && cancel->load())
            return result;
        world->step();
        runner->observe(*world);
    }
    runner->finish(*world);
    for (int g = 0; g < world->groupCount(); ++g)
        for (const std::string& key : checkMetricKeys())
            result.metrics.push_back(*groupMetric(world->group(g).metrics, key));
    for (const CheckResult& check : runner->results())
        result.passed += check.state == CheckState::Passed ? 1 : 0;
    result.score = scene.checks.empty() ? 1.0
                                        : static_cast<double>(result.passed) /
                                              static_cast<double>(scene.checks.size());
    result.hash = world->stateHash();
    return result;
}

std::size_t runSweep(const SweepPlan& plan, std::size_t first, std::size_t stride,
                     std::size_t count, int jobs, std::size_t block,
                     const std::function<void(SweepRun&&)>& deliver,
                     const std::function<void(std::size_t done)>& progress,
                     const std::atomic<bool>* cancel)
{
    jobs = std::max(1, jobs);
    if (block == 0)
        block = static_cast<std::size_t>(jobs) * 16;
    const auto cancelled = [cancel]() { return cancel && cancel->load(); };
    std::vector<SweepRun> runs;
    std::size_t done = 0;
    for (std::size_t from = 0; from < count && !cancelled(); from += block) {
        runs.assign(std::min(block, count - from), SweepRun());
        std::atomic<std::size_t> next{0};
        const auto work = [&]() {
            for (std::size_t i = next++; i < runs.size() && !cancelled(); i = next++)
                runs[i] = runSweepRun(plan, first + (from + i) * stride, cancel);
        };
        const int threads = std::max(1, std::min<int>(jobs, static_cast<int>(runs.size())));
        std::vector<std::thread> pool;
        for (int t = 1; t < threads; ++t)
            pool.emplace_back(work);
        work();
        for (std::thread& thread : pool)
            thread.join();
        // A block the cancel cut short has holes: none of it is delivered.
        if (cancelled())
            break;
        for (SweepRun& run : runs)
            deliver(std::move(run));
        done += runs.size();
        if (progress)
            progress(done);
    }
    return done;
}

} // namespace shoal::experiments
