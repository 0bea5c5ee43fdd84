// Tuning: the objective of a point (the checks' misses or a metric over the run's last
// quarter, averaged over the seeds) and NLopt's DIRECT-L then BOBYQA over the parameters' box.

#include "tuner.h"

#include <shoal/checks.h>
#include <shoal/displaytext.h>
#include <shoal/world.h>

#include <nlopt.h>

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <memory>
#include <new>
#include <thread>

namespace shoal::experiments {

namespace {

constexpr double kRefused = kRefusedObjective;
/// How often (in steps) a run looks at the cancel flag: often enough that Cancel answers
/// within a blink even on a big level, rarely enough to cost nothing.
constexpr std::int64_t kCancelPollSteps = 16;
using Score = TuneScore;

/// How far a failed check was from holding, 0 to 1: the worst value of its window (for a
/// `by` check, the best) against the bound, relative to the bound's size.
double missOf(const CheckDesc& check, const CheckResult& r)
{
    if (r.state == CheckState::Passed)
        return 0.0;
    if (!r.seen)
        return 1.0;
    const double bound =
        r.at >= 0.0 && check.compare != CheckCompare::Within ? r.bound : check.value;
    const double scale = std::abs(bound) + 0.1;
    const bool best = check.window == CheckWindow::By;
    double miss = 0.0;
    switch (check.compare) {
    case CheckCompare::Within: {
        const double width = std::max(check.high - check.value, 0.1);
        miss = best ? std::max({check.value - r.high, r.low - check.high, 0.0})
                    : std::max({check.value - r.low, r.high - check.high, 0.0});
        return std::min(1.0, miss / width);
    }
    case CheckCompare::Below:
    case CheckCompare::AtMost:
        miss = (best ? r.low : r.high) - bound;
        break;
    case CheckCompare::Above:
    case CheckCompare::AtLeast:
        miss = bound - (best ? r.high : r.low);
        break;
    case CheckCompare::Equals:
        miss = best ? std::min(std::abs(r.low - bound), std::abs(r.high - bound))
                    : std::max(std::abs(r.low - bound), std::abs(r.high - bound));
        break;
    }
    return std::clamp(miss / scale, 0.0, 1.0);
}

/// One seed's run: each failed check costs 1 plus how far it missed; a metric is averaged over
/// the run's last quarter.
Score runOnce(const TunePlan& plan, const std::vector<double>& x, std::uint64_t seed,
              const std::atomic<bool>* cancel)
{
    Score score;
    const SceneDesc scene = sceneWith(plan, x, seed);
    std::unique_ptr<World> world;
    try {
        auto created = World::create(scene);
        if (!created) {
            score.refused = created.error().message;
            return score;
        }
        world = std::move(*created);
    } catch (const std::bad_alloc&) {
        score.refused = "out of memory";
        return score;
    }
    auto runner = CheckRunner::create(scene.checks, *world);
    if (!runner) {
        score.refused = runner.error().message;
        return score;
    }
    double sum = 0.0;
    int samples = 0;
    const std::int64_t from = plan.steps - plan.steps / 4;
    for (std::int64_t s = 0; s < plan.steps; ++s) {
        // A cancel ends a long run at once; the caller drops its score.
        if (cancel && s % kCancelPollSteps == 0 && cancel->load())
            return score;
        world->step();
        runner->observe(*world);
        if (!plan.objective.checks && s >= from) {
            const double v = *worldMetric(*world, plan.objective.metric);
            if (!std::isnan(v)) {
                sum += v;
                ++samples;
            }
        }
    }
    runner->finish(*world);
    score.checks = static_cast<int>(scene.checks.size());
    double misses = 0.0;
    for (std::size_t k = 0; k < scene.checks.size(); ++k) {
        const CheckResult& r = runner->results()[k];
        if (r.state == CheckState::Passed)
            ++score.passed;
        else
            misses += 1.0 + missOf(scene.checks[k], r);
    }
    if (plan.objective.checks) {
        score.objective = misses;
    } else if (samples == 0) {
        score.objective = kRefused / 2; // the metric never had a value
    } else {
        const double mean = sum / samples;
        score.objective = plan.objective.target ? std::abs(mean - *plan.objective.target)
                                                : plan.objective.sign * mean;
    }
    return score;
}

/// The search's state, shared with NLopt's callback.
struct Search
{
    const TunePlan* plan = nullptr;
    const std::function<void(const TuneStep&)>* step = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    nlopt_opt opt = nullptr; ///< the pass under way, stopped when cancelled
    int evaluations = 0;
    bool cancelled = false;
    std::vector<double> best;
    Score bestScore;
};

double objectiveOf(unsigned n, const double* x, double* /*gradient*/, void* data)
{
    auto& search = *static_cast<Search*>(data);
    if (search.cancel && search.cancel->load()) {
        search.cancelled = true;
        if (search.opt)
            nlopt_force_stop(search.opt);
        return kRefused;
    }
    const std::vector<double> point(x, x + n);
    const Score score = evaluatePoint(*search.plan, point, search.cancel);
    if (search.cancel && search.cancel->load()) {
        // Cut short: its score is of shorter runs, not the point's; it does not count.
        search.cancelled = true;
        if (search.opt)
            nlopt_force_stop(search.opt);
        return kRefused;
    }
    ++search.evaluations;
    const bool improved = search.best.empty() || score.objective < search.bestScore.objective;
    if (improved) {
        search.best = point;
        search.bestScore = score;
    }
    if (search.step && *search.step) {
        TuneStep step;
        step.evaluation = search.evaluations;
        step.budget = search.plan->budget;
        step.point = point;
        step.score = score;
        step.improved = improved;
        step.best = search.best;
        step.bestScore = search.bestScore;
        (*search.step)(step);
    }
    return score.objective;
}

/// One NLopt pass from `x` with `evaluations` at most; stops at once when the checks pass.
void pass(Search& search, nlopt_algorithm algorithm, std::vector<double>& x, int evaluations)
{
    const TunePlan& plan = *search.plan;
    const auto n = static_cast<unsigned>(plan.params.size());
    nlopt_opt opt = nlopt_create(algorithm, n);
    std::vector<double> low, high, step;
    for (const TuneParam& p : plan.params) {
        low.push_back(p.low);
        high.push_back(p.high);
        step.push_back((p.high - p.low) / 8.0);
    }
    nlopt_set_lower_bounds(opt, low.data());
    nlopt_set_upper_bounds(opt, high.data());
    nlopt_set_initial_step(opt, step.data());
    nlopt_set_min_objective(opt, objectiveOf, &search);
    nlopt_set_maxeval(opt, std::max(1, evaluations));
    if (plan.objective.checks)
        nlopt_set_stopval(opt, 0.0);
    nlopt_set_xtol_rel(opt, 1e-4);
    search.opt = opt;
    double value = 0.0;
    nlopt_optimize(opt, x.data(), &value); // the best point is kept by the callback
    search.opt = nullptr;
    nlopt_destroy(opt);
    x = search.best;
}

} // namespace

std::optional<Error> makeTuneParam(const SceneDesc& scene, const std::string& target, double low,
                                   double high, const std::string& where, TuneParam& p)
{
    p.low = low;
    p.high = high;
    if (!std::isfinite(p.low) || !std::isfinite(p.high) || p.low >= p.high)
        return Error{where + ": expected GROUP.PARAM=MIN:MAX with finite MIN below MAX"};
    auto param = findSceneParam(scene, target, where);
    if (!param)
        return param.error();
    p.param = *param;
    if (p.param.spec->type == ParamType::Choice)
        return Error{where + ": " + p.param.key + " is a choice; tune searches numbers"};
    p.whole = p.param.spec->type != ParamType::Real;
    for (const double bound : {p.low, p.high})
        if (auto error = checkParamValue(*p.param.spec, bound, p.param.name()))
            return Error{where + ": " + error->message};
    return std::nullopt;
}

std::optional<Error> parseTuneParam(const SceneDesc& scene, const QString& text,
                                    const std::string& where, TuneParam& p)
{
    const int equals = text.indexOf(QLatin1Char('='));
    const QStringList range =
        equals < 0 ? QStringList() : text.mid(equals + 1).split(QLatin1Char(':'));
    bool ok = equals > 0 && range.size() == 2;
    double low = 0.0, high = 0.0;
    if (ok)
        low = range[0].toDouble(&ok);
    if (ok)
        high = range[1].toDouble(&ok);
    if (!ok)
        return Error{where + ": expected GROUP.PARAM=MIN:MAX with finite MIN below MAX"};
    return makeTuneParam(scene, text.left(equals).toStdString(), low, high, where, p);
}

std::optional<Error> parseObjective(const SceneDesc& scene, const QString& text,
                                    const std::string& where, TuneObjective& o)
{
    if (text == QLatin1String("checks")) {
        if (scene.checks.empty())
            return Error{where + ": the scene has no checks (add some, or name a metric)"};
        o.checks = true;
        return std::nullopt;
    }
    o.checks = false;
    QString metric = text;
    if (metric.startsWith(QLatin1Char('-'))) {
        o.sign = -1.0;
        metric = metric.mid(1);
    }
    const int equals = metric.indexOf(QLatin1Char('='));
    if (equals >= 0) {
        bool ok = false;
        const double target = metric.mid(equals + 1).toDouble(&ok);
        if (!ok || !std::isfinite(target) || o.sign < 0.0)
            return Error{where + ": expected checks, GROUP.KEY (made small), -GROUP.KEY (made "
                                 "large) or GROUP.KEY=TARGET (made near TARGET)"};
        o.target = target;
        metric = metric.left(equals);
    }
    o.metric = metric.toStdString();
    const std::size_t dot = o.metric.rfind('.');
    const std::string key = dot == std::string::npos ? std::string() : o.metric.substr(dot + 1);
    const auto& keys = checkMetricKeys();
    if (dot == std::string::npos || dot == 0 ||
        std::find(keys.begin(), keys.end(), key) == keys.end())
        return Error{where + ": " + quotedName(o.metric) +
                     " is not GROUP.KEY with a metric key (docs/scene-format.md, checks)"};
    return std::nullopt;
}

SceneDesc sceneWith(const TunePlan& plan, const std::vector<double>& x, std::uint64_t seed)
{
    SceneDesc scene = plan.scene;
    scene.simulation.seed = seed;
    for (std::size_t i = 0; i < plan.params.size(); ++i) {
        const TuneParam& p = plan.params[i];
        p.param.in(scene) = p.whole ? std::round(x[i]) : x[i];
    }
    return scene;
}

TuneScore evaluatePoint(const TunePlan& plan, const std::vector<double>& x,
                        const std::atomic<bool>* cancel)
{
    std::vector<Score> scores(static_cast<std::size_t>(plan.seeds));
    std::vector<std::thread> threads;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (int s = 0; s < plan.seeds;) {
        for (unsigned t = 0; t < cores && s < plan.seeds; ++t, ++s)
            threads.emplace_back([&, s]() {
                scores[static_cast<std::size_t>(s)] = runOnce(
                    plan, x, plan.scene.simulation.seed + static_cast<std::uint64_t>(s), cancel);
            });
        for (std::thread& thread : threads)
            thread.join();
        threads.clear();
    }
    Score total;
    total.objective = 0.0;
    for (const Score& score : scores) {
        if (!score.refused.empty()) {
            total = score;
            return total;
        }
        total.objective += score.objective / plan.seeds;
        total.passed += score.passed;
        total.checks += score.checks;
    }
    return total;
}

std::string describePoint(const TunePlan& plan, const std::vector<double>& x)
{
    std::string text;
    for (std::size_t i = 0; i < plan.params.size(); ++i) {
        const TuneParam& p = plan.params[i];
        text += (text.empty() ? "" : " ") + p.param.name() + "=" +
                formatNumber(p.whole ? std::round(x[i]) : x[i], 4);
    }
    return text;
}

std::string describeScore(const TunePlan& plan, const TuneScore& score)
{
    if (!score.refused.empty())
        return "refused: " + score.refused;
    std::string text = "objective " + formatNumber(score.objective, 4);
    if (score.checks > 0)
        text += ", checks " + std::to_string(score.passed) + " of " + std::to_string(score.checks) +
                " passed over " + std::to_string(plan.seeds) + " seed" +
                (plan.seeds == 1 ? "" : "s");
    return text;
}

TuneResult runTune(const TunePlan& plan, const std::function<void(const TuneStep&)>& step,
                   const std::atomic<bool>* cancel)
{
    Search search;
    search.plan = &plan;
    search.step = &step;
    search.cancel = cancel;
    std::vector<double> x;
    for (const TuneParam& p : plan.params)
        x.push_back(std::clamp(p.param.in(plan.scene), p.low, p.high));
    // The scene as it is first: what tuning has to beat.
    objectiveOf(static_cast<unsigned>(x.size()), x.data(), nullptr, &search);
    const auto done = [&]() {
        return search.cancelled || (plan.objective.checks && search.bestScore.objective <= 0.0);
    };
    if (!done()) {
        const int global = (plan.budget - 1) / 2;
        pass(search, NLOPT_GN_DIRECT_L, x, global);
        const int left = plan.budget - search.evaluations;
        if (left > 0 && !done())
            pass(search, NLOPT_LN_BOBYQA, x, left);
    }
    TuneResult result;
    result.evaluations = search.evaluations;
    result.best = search.best;
    result.bestScore = search.bestScore;
    result.cancelled = search.cancelled;
    return result;
}

} // namespace shoal::experiments
