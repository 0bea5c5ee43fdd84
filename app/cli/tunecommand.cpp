// shoal-cli tune: search parameter values that make a scene's checks pass (or a metric as small
// or as near a target as it gets) with NLopt's derivative-free optimizers: a global pass
// (DIRECT-L) over the whole box, then a local one (BOBYQA) from its best point, each point run
// over several seeds so what it finds does not hang on one; writes the tuned scene.

#include "clisupport.h"
#include "commands.h"
#include "sceneparams.h"

#include <tuner.h>

#include <cstdio>

namespace shoal::cli {

using experiments::describePoint;
using experiments::describeScore;
using experiments::parseObjective;
using experiments::parseTuneParam;
using experiments::runTune;
using experiments::sceneWith;
using experiments::TuneParam;
using experiments::TunePlan;
using experiments::TuneResult;
using experiments::TuneStep;

namespace {

constexpr qint64 kMaxSteps = 10000000;
constexpr int kMaxBudget = 100000;
constexpr int kMaxSeeds = 1000;

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
        if (auto error = parseTuneParam(plan.scene, option, "--param " + option.toStdString(), p))
            return refuse(error->message);
        plan.params.push_back(p);
    }
    if (!parser.isSet(objectiveOption))
        return refuse("needs --objective checks|GROUP.KEY|-GROUP.KEY|GROUP.KEY=TARGET");
    const QString objective = parser.value(objectiveOption);
    if (auto error = parseObjective(plan.scene, objective, "--objective " + objective.toStdString(),
                                    plan.objective))
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

    const TuneResult result = runTune(
        plan,
        [&plan](const TuneStep& step) {
            if (!step.improved)
                return;
            std::printf("%4d  %s: %s\n", step.evaluation, describePoint(plan, step.point).c_str(),
                        describeScore(plan, step.score).c_str());
            std::fflush(stdout);
        },
        nullptr);

    const SceneDesc tuned = sceneWith(plan, result.best, plan.scene.simulation.seed);
    out.write(serializeScene(tuned));
    if (auto error = out.commit()) {
        printError(error->message);
        return kExitBadInput;
    }
    std::printf("best after %d points: %s: %s\n%s: the scene with these values\n",
                result.evaluations, describePoint(plan, result.best).c_str(),
                describeScore(plan, result.bestScore).c_str(), outPath.toStdString().c_str());
    if (plan.objective.checks && result.bestScore.passed < result.bestScore.checks)
        return kExitCheckFailed;
    return kExitOk;
}

} // namespace shoal::cli
