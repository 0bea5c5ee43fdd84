// shoal-cli bench: median step time per behaviour family and agent count on generated scenes
// (core/benchscenes.h), beside the brute-force neighbour search and a hand-written kernel of
// the family's neighbour work (handkernels.h), measured in the same run.

#include "clisupport.h"
#include "commands.h"
#include "handkernels.h"

#include "benchscenes.h"
#include <shoal/world.h>

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace shoal::cli {

namespace {

constexpr int kMaxAgents = 10000000;
/// Above this the O(N^2) reference would take minutes per step: it is skipped.
constexpr int kMaxReferenceAgents = 10000;
constexpr int kReferenceSteps = 5;

struct BenchOptions
{
    std::vector<int> agents{1000, 10000, 100000};
    std::vector<BehaviourKind> families{kAllBehaviourKinds.begin(), kAllBehaviourKinds.end()};
    int steps = 50;
    int warmup = 20;
    std::uint64_t seed = 1;
    int threads = 0; ///< World::setThreads: 0 = every core
    int lanes = 0;   ///< World::setLaneWidth: 0 = the widest here
    bool json = false;
};

struct BenchResult
{
    BehaviourKind kind = BehaviourKind::FishSchool;
    std::size_t agents = 0;
    double msPerStep = 0;
    double nsPerAgentStep = 0;
    std::optional<double> referenceMsPerStep;
    std::optional<double> speedup;
    double bytesPerAgent = 0;
    double peakRssMb = 0;
    int threads = 1;
    /// The same steps on one thread, interleaved with the timed ones (with threads > 1).
    std::optional<double> oneThreadMsPerStep;
    std::optional<double> threadSpeedup; ///< oneThreadMsPerStep / msPerStep
    int lanes = 4;
    /// The same steps on four lanes, interleaved with the timed ones (with wider lanes).
    std::optional<double> fourLaneMsPerStep;
    std::optional<double> laneSpeedup; ///< fourLaneMsPerStep / msPerStep
    /// The family's hand-written kernel (HandKernel) on the same agents, interleaved with the
    /// timed steps, and the world's one-thread step over it (the "within 1.15x").
    std::optional<double> handMsPerStep;
    std::optional<double> handRatio;
};

/// A figure the issue sets for this family and size, if any.
struct Target
{
    double limit = 0;
    bool atMost = true; ///< false: at least
};

std::optional<Target> msTarget(BehaviourKind kind, std::size_t agents)
{
    const bool large = kind == BehaviourKind::Swarm || kind == BehaviourKind::FishSchool;
    if (large && agents == 100000)
        return Target{10.0, true};
    if (kind == BehaviourKind::Worm)
        return agents == 1000 ? std::optional<Target>(Target{2.0, true}) : std::nullopt;
    if (agents == 10000)
        return Target{2.0, true};
    return std::nullopt;
}

/// Whether the grid's speed-up over brute force means anything for this family's bench
/// scene: leader following runs as groups of 20, where testing all 20 is as fast as a grid,
/// and worms do not search for neighbours at all (they may cross each other).
bool speedupApplies(BehaviourKind kind)
{
    return kind != BehaviourKind::LeaderFollow && kind != BehaviourKind::Worm;
}

/// Issue 14, item 2: the squad and the followers within 1.15x of the hand-written kernel on
/// one core at 100,000 agents. (The school and the swarm were at parity with it already.)
std::optional<Target> handTarget(BehaviourKind kind, std::size_t agents)
{
    if (agents == 100000 &&
        (kind == BehaviourKind::TankSquad || kind == BehaviourKind::LeaderFollow))
        return Target{1.15, true};
    return std::nullopt;
}

std::optional<Target> speedupTarget(BehaviourKind kind, std::size_t agents)
{
    if (agents == 10000 && speedupApplies(kind))
        return Target{50.0, false};
    return std::nullopt;
}

constexpr Target kBytesTarget{300.0, true};

std::string targetText(const std::optional<Target>& target, double value)
{
    if (!target)
        return "";
    const bool pass = target->atMost ? value <= target->limit : value >= target->limit;
    return std::string(target->atMost ? "<=" : ">=") + formatNumber(target->limit) +
           (pass ? " PASS" : " MISS");
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

double peakRssMb()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss) / 1024.0; // Linux reports KiB
}

/// `value` to `decimals` places, as the nearest double to that decimal text (so JSON shows
/// "0.0093", not "0.009300000000000001").
double rounded(double value, int decimals)
{
    return std::strtod(formatFixed(value, decimals).c_str(), nullptr);
}

std::optional<Error> parseOptions(const QCommandLineParser& parser, BenchOptions& options,
                                  const QCommandLineOption& agents,
                                  const QCommandLineOption& family, const QCommandLineOption& steps,
                                  const QCommandLineOption& warmup, const QCommandLineOption& seed,
                                  const QCommandLineOption& threads,
                                  const QCommandLineOption& lanes, const QCommandLineOption& json)
{
    if (!parser.positionalArguments().isEmpty())
        return Error{"bench takes no file; got '" +
                     parser.positionalArguments().first().toStdString() + "'"};
    if (parser.isSet(agents)) {
        options.agents.clear();
        for (const QString& item : parser.value(agents).split(QLatin1Char(','))) {
            bool ok = false;
            const int n = item.trimmed().toInt(&ok);
            if (!ok || n < 1 || n > kMaxAgents)
                return Error{"--agents: '" + item.toStdString() +
                             "' must be a whole number in [1, " + std::to_string(kMaxAgents) +
                             "] (a comma-separated list, e.g. 1000,10000)"};
            options.agents.push_back(n);
        }
    }
    if (parser.isSet(family) && parser.value(family) != QLatin1String("all")) {
        options.families.clear();
        for (const QString& item : parser.value(family).split(QLatin1Char(','))) {
            const auto kind = behaviourFromKey(item.trimmed().toStdString());
            if (!kind) {
                std::string allowed = "all";
                for (BehaviourKind k : kAllBehaviourKinds)
                    allowed += ", " + std::string(behaviourKey(k));
                return Error{"--family: unknown family '" + item.toStdString() +
                             "'; allowed: " + allowed + " (or a comma-separated list)"};
            }
            if (std::find(options.families.begin(), options.families.end(), *kind) ==
                options.families.end())
                options.families.push_back(*kind);
        }
    }
    const auto count = [&](const QCommandLineOption& option, int minimum,
                           int& out) -> std::optional<Error> {
        if (!parser.isSet(option))
            return std::nullopt;
        bool ok = false;
        out = parser.value(option).toInt(&ok);
        if (!ok || out < minimum || out > 1000000)
            return Error{"--" + option.names().first().toStdString() + " '" +
                         parser.value(option).toStdString() + "' must be a whole number in [" +
                         std::to_string(minimum) + ", 1000000]"};
        return std::nullopt;
    };
    if (auto error = count(steps, 1, options.steps))
        return error;
    if (auto error = count(warmup, 0, options.warmup))
        return error;
    if (parser.isSet(seed)) {
        const auto value = parseSeed(parser.value(seed));
        if (!value)
            return Error{"--seed '" + parser.value(seed).toStdString() +
                         "' must be a whole number in [0, 2^64 - 1] (decimal or 0x hex)"};
        options.seed = *value;
    }
    if (parser.isSet(threads)) {
        bool ok = false;
        options.threads = parser.value(threads).toInt(&ok);
        if (!ok || options.threads < 0 || options.threads > World::kMaxThreads)
            return Error{"--threads '" + parser.value(threads).toStdString() +
                         "' must be a whole number in [0, " + std::to_string(World::kMaxThreads) +
                         "] (0: every core)"};
    }
    if (parser.isSet(lanes)) {
        bool ok = false;
        options.lanes = parser.value(lanes).toInt(&ok);
        if (!ok || (options.lanes != 0 && options.lanes != 4 && options.lanes != 8))
            return Error{"--lanes '" + parser.value(lanes).toStdString() +
                         "' must be 0 (the widest this machine runs), 4 or 8"};
        if (options.lanes > World::widestLanes())
            return Error{"--lanes 8: this machine or build runs at most " +
                         std::to_string(World::widestLanes()) +
                         " lanes (8 needs AVX2, and a build for x86-64 with GCC)"};
    }
    options.json = parser.isSet(json);
    return std::nullopt;
}

Expected<BenchResult> measure(BehaviourKind kind, int agents, const BenchOptions& options)
{
    const SceneDesc scene = makeBenchScene(kind, agents, options.seed);
    auto created = World::create(scene);
    if (!created)
        return Error{"bench scene " + scene.name + ": " + created.error().message};
    World& world = **created;
    world.setMetricsEnabled(false);
    world.setThreads(options.threads);
    world.setLaneWidth(options.lanes); // checked by parseOptions

    const auto drive = [&]() {
        world.setPointer(benchPointer(scene, world.stepCount()), true);
        world.step();
    };
    const auto timeSteps = [&](int count, std::vector<double>& ms) {
        for (int i = 0; i < count; ++i) {
            const auto start = std::chrono::steady_clock::now();
            drive();
            const auto end = std::chrono::steady_clock::now();
            ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        }
    };

    const int warmup = std::max(options.warmup, benchSettleSteps(scene, kind));
    for (int i = 0; i < warmup; ++i)
        drive();
    BenchResult result;
    result.kind = kind;
    result.agents = world.agentCount();
    result.threads = world.threads();
    result.lanes = world.laneWidth();

    // The grid's steps run in blocks with one reference step after each, and as many steps on
    // one thread when the world runs on several, and of the hand-written kernel, so a busy
    // spell on a shared machine slows all alike instead of skewing the ratios between them.
    const bool withReference = agents <= kMaxReferenceAgents;
    const bool withOneThread = result.threads > 1;
    const bool withFourLanes = result.lanes > 4;
    const std::unique_ptr<HandKernel> hand = HandKernel::make(kind, world, scene);
    const int blocks =
        withReference || withOneThread || withFourLanes || hand ? kReferenceSteps : 1;
    std::vector<double> gridMs;
    std::vector<double> referenceMs;
    std::vector<double> oneThreadMs;
    std::vector<double> fourLaneMs;
    std::vector<double> handMs;
    gridMs.reserve(static_cast<std::size_t>(options.steps));
    for (int block = 0; block < blocks; ++block) {
        const int blockSteps = options.steps / blocks + (block < options.steps % blocks ? 1 : 0);
        timeSteps(blockSteps, gridMs);
        if (withOneThread) {
            world.setThreads(1);
            timeSteps(blockSteps, oneThreadMs);
            world.setThreads(result.threads);
        }
        if (withFourLanes) {
            world.setLaneWidth(4);
            timeSteps(blockSteps, fourLaneMs);
            world.setLaneWidth(result.lanes);
        }
        for (int i = 0; hand && i < blockSteps; ++i) {
            const auto start = std::chrono::steady_clock::now();
            hand->step();
            const auto end = std::chrono::steady_clock::now();
            handMs.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        }
        if (!withReference)
            continue;
        world.setNeighbourSearch(NeighbourSearch::BruteForce);
        drive(); // one untimed step: the reference's first pass touches memory the grid didn't
        timeSteps(1, referenceMs);
        world.setNeighbourSearch(NeighbourSearch::Grid);
    }
    result.msPerStep = median(std::move(gridMs));
    const double n = static_cast<double>(std::max<std::size_t>(result.agents, 1));
    result.nsPerAgentStep = result.msPerStep * 1e6 / n;
    result.bytesPerAgent = static_cast<double>(world.memoryBytes()) / n;
    if (withReference) {
        result.referenceMsPerStep = median(std::move(referenceMs));
        if (result.msPerStep > 0.0)
            result.speedup = *result.referenceMsPerStep / result.msPerStep;
    }
    if (withOneThread && !oneThreadMs.empty()) {
        result.oneThreadMsPerStep = median(std::move(oneThreadMs));
        if (result.msPerStep > 0.0)
            result.threadSpeedup = *result.oneThreadMsPerStep / result.msPerStep;
    }
    if (withFourLanes && !fourLaneMs.empty()) {
        result.fourLaneMsPerStep = median(std::move(fourLaneMs));
        if (result.msPerStep > 0.0)
            result.laneSpeedup = *result.fourLaneMsPerStep / result.msPerStep;
    }
    // Its agents' places, summed: a result the compiler must work out, and proof that the
    // kernel kept them finite (a timing never fails the command: a kernel that lost its
    // agents is reported, and left out).
    if (hand && !handMs.empty() && !std::isfinite(hand->checksum())) {
        printError("bench: " + scene.name +
                   ": the hand-written kernel lost its agents (a place is not finite); its "
                   "figures are left out");
        handMs.clear();
    }
    if (hand && !handMs.empty()) {
        result.handMsPerStep = median(std::move(handMs));
        const double oneThread = result.oneThreadMsPerStep.value_or(result.msPerStep);
        if (*result.handMsPerStep > 0.0)
            result.handRatio = oneThread / *result.handMsPerStep;
    }
    result.peakRssMb = peakRssMb();
    return result;
}

void printJsonLine(const BenchResult& r)
{
    JsonWriter json;
    // A figure measured only in some runs: null where it was not.
    const auto optional = [&json](const char* key, const std::optional<double>& value,
                                  int decimals) {
        json.key(key);
        if (value)
            json.value(rounded(*value, decimals));
        else
            json.null();
    };
    json.beginObject();
    json.key("family").value(std::string(behaviourKey(r.kind)));
    json.key("agents").value(static_cast<unsigned long long>(r.agents));
    json.key("ms_per_step").value(rounded(r.msPerStep, 4));
    json.key("ns_per_agent_step").value(rounded(r.nsPerAgentStep, 1));
    optional("reference_ms_per_step", r.referenceMsPerStep, 4);
    optional("speedup", r.speedup, 2);
    json.key("bytes_per_agent").value(rounded(r.bytesPerAgent, 1));
    json.key("threads").value(static_cast<unsigned long long>(r.threads));
    json.key("lane_kernels").value(std::string(World::laneKernels()));
    json.key("lanes").value(static_cast<unsigned long long>(r.lanes));
    optional("four_lane_ms_per_step", r.fourLaneMsPerStep, 4);
    optional("lane_speedup", r.laneSpeedup, 2);
    optional("one_thread_ms_per_step", r.oneThreadMsPerStep, 4);
    optional("thread_speedup", r.threadSpeedup, 2);
    optional("hand_ms_per_step", r.handMsPerStep, 4);
    optional("vs_hand", r.handRatio, 2);
    json.endObject();
    std::printf("%s\n", json.text().c_str());
}

constexpr const char* kRowFormat = "%-13s %8s %7s %5s  %9s %-11s  %10s %6s  %9s %6s  %13s  %11s  "
                                   "%9s %-11s  %9s %10s %-12s  %11s %-20s  %8s\n";

void printTableHeader(const BenchOptions& options)
{
    std::printf("shoal-cli bench: median of %d timed steps after %d warm-up steps; brute-force "
                "reference: median of %d steps for N <= %d; seed %llu; %s build; lanes %s%s\n",
                options.steps, options.warmup, kReferenceSteps, kMaxReferenceAgents,
                static_cast<unsigned long long>(options.seed), SHOAL_BUILD_TYPE,
                World::laneKernels(), World::widestLanes() == 8 ? " and avx2x8" : "");
    std::printf("(worm: agents = worms of %d segments; leaderFollow: groups of %d; targets are "
                "the issue's, timings never fail the command)\n\n",
                kBenchWormSegments, kBenchFollowGroupSize);
    std::printf(kRowFormat, "family", "agents", "threads", "lanes", "ms/step", "target", "1 thread",
                "gain", "4 lanes", "gain", "ns/agent-step", "ref ms/step", "speed-up", "target",
                "hand ms", "1 thr/hand", "target", "bytes/agent", "target", "peak RSS");
}

void printTableRow(const BenchResult& r)
{
    const std::string reference =
        r.referenceMsPerStep ? formatFixed(*r.referenceMsPerStep, 3) : "-";
    const std::string speedup = r.speedup ? formatFixed(*r.speedup, 1) + "x" : "-";
    std::string speedupTargetText =
        r.speedup ? targetText(speedupTarget(r.kind, r.agents), *r.speedup) : "";
    if (r.speedup && !speedupApplies(r.kind))
        speedupTargetText = "n/a";
    // A worm is one agent with a body of kBenchWormSegments segments: its memory target is
    // per segment, the unit that costs memory like a point agent does.
    std::string bytesTargetText = targetText(kBytesTarget, r.bytesPerAgent);
    if (r.kind == BehaviourKind::Worm) {
        const double perSegment = r.bytesPerAgent / kBenchWormSegments;
        bytesTargetText =
            formatFixed(perSegment, 0) + "/seg " + targetText(kBytesTarget, perSegment);
    }
    const std::string oneThread =
        r.oneThreadMsPerStep ? formatFixed(*r.oneThreadMsPerStep, 3) : "-";
    const std::string gain = r.threadSpeedup ? formatFixed(*r.threadSpeedup, 2) + "x" : "-";
    const std::string fourLanes = r.fourLaneMsPerStep ? formatFixed(*r.fourLaneMsPerStep, 3) : "-";
    const std::string laneGain = r.laneSpeedup ? formatFixed(*r.laneSpeedup, 2) + "x" : "-";
    const std::string hand = r.handMsPerStep ? formatFixed(*r.handMsPerStep, 3) : "-";
    const std::string handRatio = r.handRatio ? formatFixed(*r.handRatio, 2) + "x" : "-";
    const std::string handTargetText =
        r.handRatio ? targetText(handTarget(r.kind, r.agents), *r.handRatio) : "";
    std::printf(kRowFormat, std::string(behaviourKey(r.kind)).c_str(),
                std::to_string(r.agents).c_str(), std::to_string(r.threads).c_str(),
                std::to_string(r.lanes).c_str(), formatFixed(r.msPerStep, 3).c_str(),
                targetText(msTarget(r.kind, r.agents), r.msPerStep).c_str(), oneThread.c_str(),
                gain.c_str(), fourLanes.c_str(), laneGain.c_str(),
                formatFixed(r.nsPerAgentStep, 1).c_str(), reference.c_str(), speedup.c_str(),
                speedupTargetText.c_str(), hand.c_str(), handRatio.c_str(), handTargetText.c_str(),
                formatFixed(r.bytesPerAgent, 1).c_str(), bytesTargetText.c_str(),
                (formatFixed(r.peakRssMb, 0) + " MB").c_str());
}

} // namespace

int benchCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Times World::step on generated scenes (one per family and agent count): median ms per "
        "step, ns per agent-step, the brute-force neighbour search for N <= 10000 and the "
        "grid's speed-up over it, a hand-written kernel of the family's neighbour work and the "
        "one-thread step over it, bytes per agent and peak RSS. Always exits 0 unless the "
        "options are bad (2); targets are shown as PASS/MISS."));
    const QCommandLineOption agents(QStringLiteral("agents"),
                                    QStringLiteral("Agent counts (default 1000,10000,100000)."),
                                    QStringLiteral("N,N,..."));
    const QCommandLineOption family(QStringLiteral("family"),
                                    QStringLiteral("'all' (default) or families: fishSchool, "
                                                   "tankSquad, swarm, leaderFollow, worm."),
                                    QStringLiteral("all|key,..."));
    const QCommandLineOption steps(QStringLiteral("steps"),
                                   QStringLiteral("Timed steps per result (default 50)."),
                                   QStringLiteral("N"));
    const QCommandLineOption warmup(QStringLiteral("warmup"),
                                    QStringLiteral("Untimed steps first (default 20)."),
                                    QStringLiteral("N"));
    const QCommandLineOption seed(QStringLiteral("seed"),
                                  QStringLiteral("Seed of the generated scenes (default 1)."),
                                  QStringLiteral("S"));
    const QCommandLineOption threads(
        QStringLiteral("threads"),
        QStringLiteral("Threads a step runs on (default 0: every core). With more than one, "
                       "as many steps on one thread are timed between them, for the gain."),
        QStringLiteral("N"));
    const QCommandLineOption lanes(
        QStringLiteral("lanes"),
        QStringLiteral("Lanes the neighbour scans run on: 0 (default: the widest this machine "
                       "runs), 4, or 8 with AVX2. Wider than 4, as many steps on four lanes "
                       "are timed between them, for the gain (the results are the same bits)."),
        QStringLiteral("N"));
    const QCommandLineOption json(QStringLiteral("json"),
                                  QStringLiteral("One JSON object per line per result."));
    parser.addOptions({agents, family, steps, warmup, seed, threads, lanes, json});
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("bench"),
                                     QStringLiteral("shoal-cli bench [options]")))
        return *exit;

    BenchOptions options;
    if (auto error = parseOptions(parser, options, agents, family, steps, warmup, seed, threads,
                                  lanes, json)) {
        printError("bench: " + error->message);
        return kExitBadInput;
    }

    if (!options.json)
        printTableHeader(options);
    std::fflush(stdout);
    // Sizes outermost: the process's peak RSS then grows with N and reads as the largest
    // scene measured so far.
    for (const int n : options.agents) {
        for (const BehaviourKind kind : options.families) {
            auto result = measure(kind, n, options);
            if (!result) {
                printError("bench: " + result.error().message);
                return kExitBadInput;
            }
            if (options.json)
                printJsonLine(*result);
            else
                printTableRow(*result);
            std::fflush(stdout);
        }
    }
    return kExitOk;
}

} // namespace shoal::cli
