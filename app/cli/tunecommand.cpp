// shoal-cli tune: search parameter values that make a scene's checks pass (or a metric as small
// or as near a target as it gets) with NLopt's derivative-free optimizers: a global pass
// (DIRECT-L) over the whole box, then a local one (BOBYQA) from its best point, each point run
// over several seeds so what it finds does not hang on one; writes the tuned scene.

#include "clisupport.h"
#include "commands.h"
#include "sceneparams.h"

#include <shoal/checks.h>
#include <shoal/displaytext.h>
#include <shoal/world.h>

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <thread>

namespace shoal::cli {

namespace {

constexpr qint64 kMaxSteps = 10000000;
constexpr int kMaxBudget = 100000;
constexpr int kMaxSeeds = 1000;
/// The objective of values the scene refuses (a band whose minimum passes its maximum): worse
/// than any run, so the search leaves them.
constexpr double kRefused = 1e6;

/// One --param GROUP.PARAM=MIN:MAX.
struct TuneParam
{
    SceneParam param;
    double low = 0.0, high = 0.0;
    bool whole = false; ///< an integer parameter: the value is rounded
};

/// What the search makes small.
struct Objective
{
    bool checks = true;           ///< the checks' misses; otherwise a metric
    std::string metric;           ///< GROUP.KEY
    double sign = 1.0;            ///< -1: the metric is made large
    std::optional<double> target; ///< the distance of the metric to it is made small
};

struct TunePlan
{
    SceneDesc scene;
    std::vector<TuneParam> params;
    Objective objective;
    int seeds = 3;
    int budget = 60;
    qint64 steps = 600;
};

/// What one point scored over the seeds.
struct Score
{
    double objective = kRefused;
    int passed = 0, checks = 0; ///< summed over the seeds
    std::string refused;        ///< why the scene refused the values
};

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

/// One seed's run: each failed check costs 1 plus how far it missed; a metric is averaged over
/// the run's last quarter.
Score runOnce(const TunePlan& plan, const std::vector<double>& x, std::uint64_t seed)
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
    const qint64 from = plan.steps - plan.steps / 4;
    for (qint64 s = 0; s < plan.steps; ++s) {
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

/// A point over every seed (in parallel): the mean objective, the checks summed.
Score evaluate(const TunePlan& plan, const std::vector<double>& x)
{
    std::vector<Score> scores(static_cast<std::size_t>(plan.seeds));
    std::vector<std::thread> threads;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (int s = 0; s < plan.seeds;) {
        for (unsigned t = 0; t < cores && s < plan.seeds; ++t, ++s)
            threads.emplace_back([&, s]() {
                scores[static_cast<std::size_t>(s)] =
                    runOnce(plan, x, plan.scene.simulation.seed + static_cast<std::uint64_t>(s));
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

/// The search's state, shared with NLopt's callback.
struct Search
{
    const TunePlan* plan = nullptr;
    int evaluations = 0;
    std::vector<double> best;
    Score bestScore;
};

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

std::string describeScore(const TunePlan& plan, const Score& score)
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

double objectiveOf(unsigned n, const double* x, double* /*gradient*/, void* data)
{
    auto& search = *static_cast<Search*>(data);
    const std::vector<double> point(x, x + n);
    const Score score = evaluate(*search.plan, point);
    ++search.evaluations;
    if (search.best.empty() || score.objective < search.bestScore.objective) {
        search.best = point;
        search.bestScore = score;
        std::printf("%4d  %s: %s\n", search.evaluations, describePoint(*search.plan, point).c_str(),
                    describeScore(*search.plan, score).c_str());
        std::fflush(stdout);
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
    double value = 0.0;
    nlopt_optimize(opt, x.data(), &value); // the best point is kept by the callback
    nlopt_destroy(opt);
    x = search.best;
}

std::optional<Error> parseParam(const SceneDesc& scene, const QString& option, TuneParam& p)
{
    const std::string where = "--param " + option.toStdString();
    const int equals = option.indexOf(QLatin1Char('='));
    const QStringList range =
        equals < 0 ? QStringList() : option.mid(equals + 1).split(QLatin1Char(':'));
    bool ok = equals > 0 && range.size() == 2;
    if (ok)
        p.low = range[0].toDouble(&ok);
    if (ok)
        p.high = range[1].toDouble(&ok);
    if (!ok || !std::isfinite(p.low) || !std::isfinite(p.high) || p.low >= p.high)
        return Error{where + ": expected GROUP.PARAM=MIN:MAX with finite MIN below MAX"};
    auto param = findSceneParam(scene, option.left(equals).toStdString(), where);
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

std::optional<Error> parseObjective(const SceneDesc& scene, const QString& text, Objective& o)
{
    const std::string where = "--objective " + text.toStdString();
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

} // namespace

int tuneCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Searches the --param boxes for the values that make the scene's checks pass "
        "(--objective checks) or a metric small, large or near a target, averaged over the "
        "run's last quarter: NLopt's DIRECT-L over the whole box with half the budget, then "
        "BOBYQA from its best point. Every point runs --seeds seeds. Prints each better point "
        "as it is found, then the best, and writes the scene with the best values to --out.\n"
        "Exit code 0 when done (with checks: when the best passes them all), 1 when the "
        "checks still fail at the best point, 2 bad input."));
    const QCommandLineOption paramOption(QStringLiteral("param"),
                                         QStringLiteral("A parameter and its box (repeat)."),
                                         QStringLiteral("GROUP.PARAM=MIN:MAX"));
    const QCommandLineOption objectiveOption(
        QStringLiteral("objective"),
        QStringLiteral("checks, GROUP.KEY (small), -GROUP.KEY (large) or GROUP.KEY=TARGET."),
        QStringLiteral("WHAT"));
    const QCommandLineOption budgetOption(QStringLiteral("budget"),
                                          QStringLiteral("Points to try at most (default 60)."),
                                          QStringLiteral("N"));
    const QCommandLineOption seedsOption(QStringLiteral("seeds"),
                                         QStringLiteral("Seeds per point (default 3)."),
                                         QStringLiteral("N"));
    const QCommandLineOption stepsOption(
        QStringLiteral("steps"),
        QStringLiteral("Steps per run (default: what the checks need, or 600)."),
        QStringLiteral("N"));
    const QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("The tuned scene file."), QStringLiteral("FILE"));
    parser.addOptions(
        {paramOption, objectiveOption, budgetOption, seedsOption, stepsOption, outOption});
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("The scene; 'demo' or none: the embedded demo."),
                                 QStringLiteral("[FILE]"));
    if (auto exit = parseCommandLine(
            parser, arguments, QStringLiteral("tune"),
            QStringLiteral("shoal-cli tune [FILE] --param GROUP.PARAM=MIN:MAX... --objective "
                           "checks|METRIC [--budget N] [--seeds N] [--steps N] --out FILE")))
        return *exit;
    const auto refuse = [](const std::string& message) {
        printError("tune: " + message);
        return kExitBadInput;
    };
    const QString outPath = parser.value(outOption);
    auto loaded = loadSceneWithOutput(parser, outPath, "tune");
    if (!loaded)
        return kExitBadInput;
    TunePlan plan;
    plan.scene = loaded->scene();
    if (!parser.isSet(paramOption))
        return refuse("needs at least one --param GROUP.PARAM=MIN:MAX");
    for (const QString& option : parser.values(paramOption)) {
        TuneParam p;
        if (auto error = parseParam(plan.scene, option, p))
            return refuse(error->message);
        plan.params.push_back(p);
    }
    if (!parser.isSet(objectiveOption))
        return refuse("needs --objective checks|GROUP.KEY|-GROUP.KEY|GROUP.KEY=TARGET");
    if (auto error = parseObjective(plan.scene, parser.value(objectiveOption), plan.objective))
        return refuse(error->message);
    const auto budget = wholeOption(parser, budgetOption, 2, kMaxBudget, 60);
    const auto seeds = wholeOption(parser, seedsOption, 1, kMaxSeeds, 3);
    const auto steps = wholeOption(parser, stepsOption, 1, kMaxSteps, defaultRunSteps(plan.scene));
    for (const auto* value : {&budget, &seeds, &steps})
        if (!*value)
            return refuse(value->error().message);
    plan.budget = static_cast<int>(*budget);
    plan.seeds = static_cast<int>(*seeds);
    plan.steps = *steps;

    // The file is opened before the search, so a path that cannot be written is said at once.
    OutputFile out(outPath);
    if (auto error = out.open()) {
        printError(error->message);
        return kExitBadInput;
    }

    Search search;
    search.plan = &plan;
    std::vector<double> x;
    for (const TuneParam& p : plan.params) {
        x.push_back(std::clamp(p.param.in(plan.scene), p.low, p.high));
    }
    // The scene as it is first: what tuning has to beat.
    objectiveOf(static_cast<unsigned>(x.size()), x.data(), nullptr, &search);
    if (!(plan.objective.checks && search.bestScore.objective <= 0.0)) {
        const int global = (plan.budget - 1) / 2;
        pass(search, NLOPT_GN_DIRECT_L, x, global);
        const int left = plan.budget - search.evaluations;
        if (left > 0 && !(plan.objective.checks && search.bestScore.objective <= 0.0))
            pass(search, NLOPT_LN_BOBYQA, x, left);
    }

    const SceneDesc tuned = sceneWith(plan, search.best, plan.scene.simulation.seed);
    out.write(serializeScene(tuned));
    if (auto error = out.commit()) {
        printError(error->message);
        return kExitBadInput;
    }
    std::printf("best after %d points: %s: %s\n%s: the scene with these values\n",
                search.evaluations, describePoint(plan, search.best).c_str(),
                describeScore(plan, search.bestScore).c_str(), outPath.toStdString().c_str());
    if (plan.objective.checks && search.bestScore.passed < search.bestScore.checks)
        return kExitCheckFailed;
    return kExitOk;
}

} // namespace shoal::cli
