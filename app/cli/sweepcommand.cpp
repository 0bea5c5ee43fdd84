// shoal-cli sweep: run a scene over every combination of parameter values (and seeds), on all
// cores, one CSV row per run; --shard I/N runs every Nth run so shards on several machines
// merge (sweep merge) into the file the whole sweep writes, byte for byte.

#include "clisupport.h"
#include "commands.h"
#include "sceneparams.h"

#include <sweeprunner.h>

#include <shoal/checks.h>
#include <shoal/displaytext.h>

#include <QFile>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include <unistd.h>

namespace shoal::cli {

namespace {

constexpr qint64 kMaxSteps = 100000000;
constexpr std::size_t kMaxRuns = experiments::kMaxSweepRuns;
constexpr int kMaxSeeds = 100000;
constexpr int kMaxJobs = 1024;
/// A sweep file's columns before the parameters.
constexpr const char* kLeadColumns = "run,runs,seed";

using experiments::SweepAxis;
using experiments::SweepPlan;
using experiments::SweepRun;

/// The plan and how this invocation runs it.
struct SweepOptions
{
    int shard = 1, shards = 1; ///< --shard I/N, 1-based
    int jobs = 1;
};

/// One --vary GROUP.PARAM=FROM:TO:STEP against the scene.
std::optional<Error> parseAxis(const SceneDesc& scene, const QString& option, SweepAxis& axis)
{
    const std::string where = "--vary " + option.toStdString();
    const int equals = option.indexOf(QLatin1Char('='));
    if (equals < 0)
        return Error{where + ": expected GROUP.PARAM=FROM:TO:STEP (or player.PARAM=...)"};
    return experiments::makeSweepAxis(scene, option.left(equals).toStdString(),
                                      option.mid(equals + 1).toStdString(), where, axis);
}

/// The columns after the parameters: per group every check metric, then the checks and the
/// hash.
std::string header(const SweepPlan& plan)
{
    std::string line = kLeadColumns;
    for (const SweepAxis& axis : plan.axes)
        line += "," + csvField(axis.param.name());
    for (const GroupDesc& group : plan.scene.groups)
        for (const std::string& key : checkMetricKeys())
            line += "," + csvField(group.name + "." + key);
    line += ",checksPassed,checks,score,error,hash\n";
    return line;
}

/// One run's CSV row.
std::string csvRow(const SweepPlan& plan, const SweepRun& run)
{
    std::string row = std::to_string(run.run) + "," + std::to_string(plan.runs()) + "," +
                      std::to_string(run.seed);
    for (const double value : run.values)
        row += "," + formatNumber(value);
    if (run.refused()) {
        row.append(plan.scene.groups.size() * checkMetricKeys().size(), ',');
        return row + "," + std::to_string(0) + "," + std::to_string(run.checks) + ",0," +
               csvField(run.error) + ",\n";
    }
    for (const double value : run.metrics)
        row += "," + (std::isnan(value) ? std::string() : formatNumber(value));
    row += "," + std::to_string(run.passed) + "," + std::to_string(run.checks) + "," +
           formatNumber(run.score, 6) + ",," + formatHash(run.hash) + "\n";
    return row;
}

/// Runs the shard's runs on `jobs` threads and appends their rows to `out` in run order.
void runShard(const SweepPlan& plan, const SweepOptions& options, OutputFile& out)
{
    const std::size_t runs = plan.runs();
    const std::size_t first = static_cast<std::size_t>(options.shard - 1);
    const auto stride = static_cast<std::size_t>(options.shards);
    const std::size_t mine = runs > first ? (runs - first + stride - 1) / stride : 0;
    // Progress on a terminal only: a log or a CI server gets the summary line alone.
    const bool progress = isatty(fileno(stderr)) != 0;
    experiments::runSweep(
        plan, first, stride, mine, options.jobs, 0,
        [&](SweepRun&& run) {
            out.buffer() += csvRow(plan, run);
            out.flushIfLarge();
        },
        [&](std::size_t done) {
            if (progress)
                std::fprintf(stderr, "\rshoal-cli: sweep: %zu of %zu runs", done, mine);
        },
        nullptr);
    if (progress && mine > 0)
        std::fputs("\n", stderr);
}

/// "I/N" with 1 <= I <= N.
std::optional<Error> parseShard(const QString& text, int& shard, int& shards)
{
    const QStringList parts = text.split(QLatin1Char('/'));
    bool ok = parts.size() == 2;
    if (ok)
        shard = parts[0].toInt(&ok);
    if (ok)
        shards = parts[1].toInt(&ok);
    if (!ok || shards < 1 || shards > 1000000 || shard < 1 || shard > shards)
        return Error{"--shard '" + text.toStdString() +
                     "' must be I/N with whole numbers 1 <= I <= N <= 1000000"};
    return std::nullopt;
}

/// sweep merge: the shards' rows, checked to be of one sweep and complete, in run order.
int mergeCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Joins the files of a sweep's shards (--shard I/N) into the file the whole sweep "
        "writes: the same header in every file, each run exactly once.\n"
        "Exit code 0 ok, 2 when the files are not the shards of one sweep or one is missing."));
    const QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("The merged CSV file."), QStringLiteral("FILE"));
    parser.addOption(outOption);
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("The shards' files."),
                                 QStringLiteral("FILE..."));
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("sweep merge"),
                                     QStringLiteral("shoal-cli sweep merge FILE... --out FILE")))
        return *exit;
    const QStringList files = parser.positionalArguments();
    const QString outPath = parser.value(outOption);
    if (files.isEmpty() || outPath.isEmpty()) {
        printError("sweep merge: needs the shards' files and --out FILE");
        return kExitBadInput;
    }
    std::string head;
    std::map<std::size_t, std::string> rows;
    std::size_t runs = 0;
    for (const QString& file : files) {
        const std::string name = file.toStdString();
        if (sameFile(file, outPath)) {
            printError("sweep merge: --out " + outPath.toStdString() + " is the input " + name);
            return kExitBadInput;
        }
        auto text = readTextFile(file, name);
        if (!text) {
            printError(text.error().message);
            return kExitBadInput;
        }
        std::size_t start = 0, line = 0;
        while (start < text->size()) {
            std::size_t end = text->find('\n', start);
            if (end == std::string::npos)
                end = text->size();
            const std::string row = text->substr(start, end - start) + "\n";
            start = end + 1;
            ++line;
            if (line == 1) {
                if (row.rfind(std::string(kLeadColumns) + ",", 0) != 0) {
                    printError(name + ":1: not a sweep file (its header starts '" +
                               row.substr(0, std::min<std::size_t>(row.size() - 1, 40)) +
                               "', a sweep's '" + kLeadColumns + ",')");
                    return kExitBadInput;
                }
                if (!head.empty() && row != head) {
                    printError(name + ":1: another sweep's header than " +
                               files.first().toStdString() + "'s");
                    return kExitBadInput;
                }
                head = row;
                continue;
            }
            const QStringList lead =
                QString::fromStdString(row.substr(0, 64)).split(QLatin1Char(','));
            bool ok = lead.size() >= 3;
            std::size_t run = 0, of = 0;
            if (ok)
                run = lead[0].toULongLong(&ok);
            if (ok)
                of = lead[1].toULongLong(&ok);
            if (!ok || of == 0 || run >= of || (runs != 0 && of != runs)) {
                printError(name + ":" + std::to_string(line) +
                           ": not a row of this sweep (run and runs must be whole numbers, run "
                           "below runs, the same runs in every row)");
                return kExitBadInput;
            }
            runs = of;
            if (!rows.emplace(run, row).second) {
                printError(name + ":" + std::to_string(line) + ": run " + std::to_string(run) +
                           " is in more than one shard");
                return kExitBadInput;
            }
        }
    }
    if (rows.size() != runs) {
        std::size_t missing = 0;
        while (rows.count(missing))
            ++missing;
        printError("sweep merge: " + std::to_string(runs - rows.size()) + " of " +
                   std::to_string(runs) + " runs are missing (the first: run " +
                   std::to_string(missing) + "); is a shard's file left out?");
        return kExitBadInput;
    }
    OutputFile out(outPath);
    if (auto error = out.open()) {
        printError(error->message);
        return kExitBadInput;
    }
    out.write(head);
    for (const auto& [run, row] : rows) {
        out.buffer() += row;
        out.flushIfLarge();
    }
    if (auto error = out.commit()) {
        printError(error->message);
        return kExitBadInput;
    }
    std::printf("%s: %zu runs from %lld files\n", outPath.toStdString().c_str(), rows.size(),
                static_cast<long long>(files.size()));
    return kExitOk;
}

} // namespace

int sweepCommand(const QStringList& arguments)
{
    if (arguments.size() > 1 && arguments.at(1) == QLatin1String("merge")) {
        QStringList rest = arguments.mid(2);
        rest.prepend(arguments.at(0));
        return mergeCommand(rest);
    }
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs the scene once for every combination of the --vary values (the last --vary "
        "changing fastest), times --seeds seeds (the scene's seed, then the next ones), and "
        "writes one CSV row per run: the values, every group's metrics after the last step, "
        "the checks passed, a score (the share of the scene's checks passed) and the hash. "
        "Runs use every core (--jobs); the file is the same for any --jobs. --shard I/N runs "
        "every Nth run from the Ith: 'sweep merge' joins the shards into the whole sweep's "
        "file.\n"
        "Exit code 0 ok (a combination the family's rules refuse is a row with its error), 2 "
        "bad input."));
    const QCommandLineOption varyOption(QStringLiteral("vary"),
                                        QStringLiteral("A parameter and its values (repeat)."),
                                        QStringLiteral("GROUP.PARAM=FROM:TO:STEP"));
    const QCommandLineOption seedsOption(QStringLiteral("seeds"),
                                         QStringLiteral("Seeds per combination (default 1)."),
                                         QStringLiteral("N"));
    const QCommandLineOption stepsOption(
        QStringLiteral("steps"),
        QStringLiteral("Steps per run (default: what the scene's checks need, or 600)."),
        QStringLiteral("N"));
    const QCommandLineOption jobsOption(QStringLiteral("jobs"),
                                        QStringLiteral("Runs at once (default: every core)."),
                                        QStringLiteral("N"));
    const QCommandLineOption shardOption(QStringLiteral("shard"),
                                         QStringLiteral("Runs this share of the sweep only."),
                                         QStringLiteral("I/N"));
    const QCommandLineOption outOption(QStringLiteral("out"), QStringLiteral("The CSV file."),
                                       QStringLiteral("FILE"));
    parser.addOptions({varyOption, seedsOption, stepsOption, jobsOption, shardOption, outOption});
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("The scene; 'demo' or none: the embedded demo."),
                                 QStringLiteral("[FILE]"));
    if (auto exit = parseCommandLine(
            parser, arguments, QStringLiteral("sweep"),
            QStringLiteral("shoal-cli sweep [FILE] --vary GROUP.PARAM=FROM:TO:STEP... [--seeds "
                           "N] [--steps N] [--jobs N] [--shard I/N] --out FILE")))
        return *exit;
    const auto refuse = [](const std::string& message) {
        printError("sweep: " + message);
        return kExitBadInput;
    };
    auto loaded = loadSceneWithOutput(parser, parser.value(outOption), "sweep");
    if (!loaded)
        return kExitBadInput;
    SweepPlan plan;
    SweepOptions options;
    plan.scene = loaded->scene();
    if (!parser.isSet(varyOption))
        return refuse("needs at least one --vary GROUP.PARAM=FROM:TO:STEP");
    std::size_t combinations = 1;
    for (const QString& option : parser.values(varyOption)) {
        SweepAxis axis;
        if (auto error = parseAxis(plan.scene, option, axis))
            return refuse(error->message);
        for (const SweepAxis& other : plan.axes)
            if (other.param.name() == axis.param.name())
                return refuse("--vary " + axis.param.name() + " is given twice");
        combinations *= axis.values.size();
        if (combinations > kMaxRuns)
            return refuse("more than " + std::to_string(kMaxRuns) + " combinations");
        plan.axes.push_back(std::move(axis));
    }
    auto seeds = wholeOption(parser, seedsOption, 1, kMaxSeeds, 1);
    auto steps = wholeOption(parser, stepsOption, 1, kMaxSteps, defaultRunSteps(plan.scene));
    auto jobs = wholeOption(parser, jobsOption, 1, kMaxJobs,
                            std::max(1u, std::thread::hardware_concurrency()));
    for (const auto* value : {&seeds, &steps, &jobs})
        if (!*value)
            return refuse(value->error().message);
    plan.steps = *steps;
    plan.seeds = static_cast<int>(*seeds);
    options.jobs = static_cast<int>(*jobs);
    if (combinations * static_cast<std::size_t>(*seeds) > kMaxRuns)
        return refuse("more than " + std::to_string(kMaxRuns) + " runs");
    if (parser.isSet(shardOption))
        if (auto error = parseShard(parser.value(shardOption), options.shard, options.shards))
            return refuse(error->message);

    const QString outPath = parser.value(outOption);
    OutputFile out(outPath);
    if (auto error = out.open()) {
        printError(error->message);
        return kExitBadInput;
    }
    out.write(header(plan));
    runShard(plan, options, out);
    if (auto error = out.commit()) {
        printError(error->message);
        return kExitBadInput;
    }
    std::printf("%s: %zu of %zu runs (shard %d/%d), %lld steps each\n",
                outPath.toStdString().c_str(),
                (plan.runs() + static_cast<std::size_t>(options.shards - options.shard)) /
                    static_cast<std::size_t>(options.shards),
                plan.runs(), options.shard, options.shards, static_cast<long long>(plan.steps));
    return kExitOk;
}

} // namespace shoal::cli
