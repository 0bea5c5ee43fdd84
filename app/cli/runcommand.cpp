// shoal-cli run: build a scene's world, apply --preset, --set and a scripted input, step it N
// times, print what a user would check (per-group metrics, wall crossings) and the state hash;
// --record keeps all that decided the run. shoal-cli replay: the same run again from such a
// recording, which must end with the hash the run ended with.

#include "clisupport.h"
#include "commands.h"
#include "steerscores.h"

#include <shoal/displaytext.h>
#include <shoal/inputscript.h>
#include <shoal/recording.h>
#include <shoal/world.h>

#include <presetshelf.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>

namespace shoal::cli {

namespace {

constexpr qint64 kMaxSteps = 100000000;
/// The free player (not leading a group) in trajectory rows; '@' keeps it apart from groups.
constexpr const char* kPlayerRowName = "@player";

enum class MetricsFormat
{
    Csv,
    Json
};

struct RunOptions
{
    SceneSource scene;
    qint64 steps = 600;
    std::optional<std::uint64_t> seed;
    QStringList presets;
    QStringList sets;
    QString inputPath;
    QString metricsPath;
    MetricsFormat metricsFormat = MetricsFormat::Csv;
    QString trajectoryPath;
    bool json = false;
    QString recordPath; ///< run --record: where the recording goes
    QString replayPath; ///< replay: the recording run again (scene, seed and input from it)
    bool stepsGiven = false;
    int threads = 0; ///< World::setThreads: 0 = every core
};

/// Applies one --set "group.param=value" (or "player.param=value"), and describes it as the
/// step-0 event a recording keeps.
std::optional<Error> applySet(World& world, const QString& assignment, InputEvent& event)
{
    const std::string text = assignment.toStdString();
    const std::string where = "--set " + text + ": ";
    const int equals = assignment.indexOf(QLatin1Char('='));
    const QString target = equals < 0 ? QString() : assignment.left(equals);
    const int dot = target.lastIndexOf(QLatin1Char('.'));
    if (equals < 0 || dot <= 0 || dot == target.size() - 1)
        return Error{where + "expected group.param=value (or player.param=value)"};
    const std::string groupName = target.left(dot).toStdString();
    const std::string key = target.mid(dot + 1).toStdString();
    const QString valueText = assignment.mid(equals + 1).trimmed();
    bool ok = false;
    const double value = valueText.toDouble(&ok);
    if (!ok)
        return Error{where + quotedName(valueText.toStdString()) + " is not a finite number"};

    std::optional<Error> error;
    event = InputEvent{};
    event.key = key;
    event.value = value;
    if (groupName == "player") {
        event.kind = InputEventKind::PlayerSet;
        error = world.setPlayerParam(key, value);
    } else {
        event.kind = InputEventKind::Set;
        event.group = groupName;
        const int group = world.groupIndex(groupName);
        if (group < 0) {
            std::string names;
            for (int g = 0; g < world.groupCount(); ++g)
                names += (names.empty() ? "" : ", ") + quotedName(world.group(g).name);
            return Error{where + "the scene has no group " + quotedName(groupName) +
                         "; groups: " + (names.empty() ? std::string("none") : names) +
                         " ('player' sets the player's parameters)"};
        }
        error = world.setParam(group, key, value);
    }
    if (error)
        return Error{where + error->message};
    return std::nullopt;
}

std::string groupNames(const SceneDesc& scene)
{
    std::string names;
    for (const GroupDesc& group : scene.groups)
        names += (names.empty() ? "" : ", ") + quotedName(group.name);
    return names.empty() ? std::string("none") : names;
}

/// Applies one --preset "group=name" to the scene's group, from `shelf`.
std::optional<Error> applyPresetOption(SceneDesc& scene, const QString& assignment,
                                       const presets::Shelf& shelf)
{
    const std::string where = "--preset " + assignment.toStdString() + ": ";
    const int equals = assignment.indexOf(QLatin1Char('='));
    if (equals <= 0 || equals == assignment.size() - 1)
        return Error{where + "expected GROUP=NAME (see shoal-cli presets)"};
    const std::string groupName = assignment.left(equals).toStdString();
    const std::string presetName = assignment.mid(equals + 1).toStdString();
    const auto group = std::find_if(scene.groups.begin(), scene.groups.end(),
                                    [&](const GroupDesc& g) { return g.name == groupName; });
    if (group == scene.groups.end())
        return Error{where + "the scene has no group " + quotedName(groupName) +
                     "; groups: " + groupNames(scene)};
    const Preset* preset = findPreset(shelf.presets, group->kind, presetName);
    if (!preset) {
        std::string names, elsewhere;
        for (const Preset& p : shelf.presets) {
            if (p.kind == group->kind)
                names += (names.empty() ? "" : ", ") + p.name;
            else if (p.name == presetName)
                elsewhere = "; " + quotedName(presetName) + " is a " +
                            std::string(behaviourKey(p.kind)) + " preset";
        }
        return Error{where + "no " + std::string(behaviourKey(group->kind)) + " preset " +
                     quotedName(presetName) + " for group " + quotedName(groupName) + elsewhere +
                     "; " + std::string(behaviourKey(group->kind)) + " presets: " + names};
    }
    Expected<ParamValues> values = applyPreset(*preset, group->kind, group->params);
    if (!values)
        return Error{where + "group " + quotedName(groupName) + ": " + values.error().message};
    group->params = std::move(*values);
    return std::nullopt;
}

/// What run and replay share: what they write besides the summary (--metrics, --trajectory
/// and --json) and the threads they step on (which change nothing they write).
struct OutputOptions
{
    const QCommandLineOption metrics{QStringLiteral("metrics"),
                                     QStringLiteral("Writes per-step, per-group metrics (.csv or "
                                                    ".json)."),
                                     QStringLiteral("file")};
    const QCommandLineOption trajectory{QStringLiteral("trajectory"),
                                        QStringLiteral("Writes every agent's pose at every step "
                                                       "as CSV."),
                                        QStringLiteral("file.csv")};
    const QCommandLineOption json{QStringLiteral("json"),
                                  QStringLiteral("Prints the summary as one JSON object.")};
    const QCommandLineOption threads{
        QStringLiteral("threads"),
        QStringLiteral("Threads each step runs on (default 0: every core); the results are the "
                       "same for any number."),
        QStringLiteral("N")};
};

/// The run command's options, declared on a parser.
struct RunCommandLine
{
    explicit RunCommandLine(QCommandLineParser& parser);

    const QCommandLineOption steps{QStringLiteral("steps"),
                                   QStringLiteral("Steps to run (default 600 = 10 s at 60 Hz)."),
                                   QStringLiteral("N")};
    const QCommandLineOption seed{QStringLiteral("seed"),
                                  QStringLiteral("Replaces the scene's simulation.seed."),
                                  QStringLiteral("S")};
    const QCommandLineOption set{QStringLiteral("set"),
                                 QStringLiteral("Sets a group's (or the player's) parameter "
                                                "before the first step; repeatable, applied in "
                                                "order."),
                                 QStringLiteral("group.param=value")};
    const QCommandLineOption preset{QStringLiteral("preset"),
                                    QStringLiteral("Applies a preset to a group before the first "
                                                   "step (before any --set); repeatable. "
                                                   "'shoal-cli presets' lists them."),
                                    QStringLiteral("GROUP=NAME")};
    const QCommandLineOption input{QStringLiteral("input"),
                                   QStringLiteral("Replays a scripted input file (pointer and "
                                                  "squad-target events by step)."),
                                   QStringLiteral("script")};
    const QCommandLineOption record{QStringLiteral("record"),
                                    QStringLiteral("Writes a recording of the run (its scene, "
                                                   "seed, presets, --set and input by step) "
                                                   "that 'shoal-cli replay' runs again."),
                                    QStringLiteral("file.shoalrec")};
    const OutputOptions output;
};

RunCommandLine::RunCommandLine(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Runs a scene headless for N fixed steps and prints per-group metrics and the state "
        "hash (line 'hash: <16 hex digits>').\n"
        "Exit code 0 ok; 1 when a check failed (an agent crossed a wall, a body was in a wall, "
        "or bodies overlapped longer than allowed; each is listed); 2 bad input."));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("Scene file; 'demo' or none: the embedded demo."),
                                 QStringLiteral("[FILE]"));
    parser.addOptions({steps, seed, preset, set, input, output.metrics, output.trajectory,
                       output.json, record, output.threads});
}

/// The replay command's options, declared on a parser: those of run that do not change what
/// runs (the recording decides the scene, the seed and the input).
struct ReplayCommandLine
{
    explicit ReplayCommandLine(QCommandLineParser& parser);

    const QCommandLineOption steps{QStringLiteral("steps"),
                                   QStringLiteral("Steps to run (default: as many as the "
                                                  "recorded run made; the hash is checked "
                                                  "then)."),
                                   QStringLiteral("N")};
    const OutputOptions output;
};

ReplayCommandLine::ReplayCommandLine(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Runs a recording ('shoal-cli run --record') again and prints what run printed, ending "
        "with the same 'hash:' line.\n"
        "Exit code 0 ok; 1 when the replay ends with another hash than the recorded run (or a "
        "check failed, as in run); 2 bad input."));
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Recording file."),
                                 QStringLiteral("FILE"));
    parser.addOptions({steps, output.metrics, output.trajectory, output.json, output.threads});
}

/// No output replaces an input or another output: each file named on the command line is
/// one thing (the same file by another spelling, a link, counts as the same).
std::optional<Error> checkOutputPaths(const RunOptions& options)
{
    struct Named
    {
        const char* what;
        QString path;
    };
    std::vector<Named> inputs, outputs;
    if (!options.scene.path.startsWith(QLatin1Char(':'))) // the embedded demo is no file
        inputs.push_back({"the scene file", options.scene.path});
    if (!options.inputPath.isEmpty())
        inputs.push_back({"the --input script", options.inputPath});
    if (!options.replayPath.isEmpty())
        inputs.push_back({"the recording", options.replayPath});
    if (!options.recordPath.isEmpty())
        outputs.push_back({"--record", options.recordPath});
    if (!options.metricsPath.isEmpty())
        outputs.push_back({"--metrics", options.metricsPath});
    if (!options.trajectoryPath.isEmpty())
        outputs.push_back({"--trajectory", options.trajectoryPath});
    for (std::size_t o = 0; o < outputs.size(); ++o) {
        for (const Named& input : inputs)
            if (sameFile(outputs[o].path, input.path))
                return Error{std::string(outputs[o].what) + " '" + outputs[o].path.toStdString() +
                             "' is " + input.what +
                             "; an output never replaces an input, name another file"};
        for (std::size_t other = 0; other < o; ++other)
            if (sameFile(outputs[o].path, outputs[other].path))
                return Error{std::string(outputs[other].what) + " and " + outputs[o].what +
                             " both name '" + outputs[o].path.toStdString() +
                             "'; give each output a file of its own"};
    }
    return std::nullopt;
}

std::optional<Error> parseSteps(const QCommandLineParser& parser, const QCommandLineOption& steps,
                                RunOptions& options);
std::optional<Error> parseOutputs(const QCommandLineParser& parser, const OutputOptions& output,
                                  RunOptions& options);

std::optional<Error> parseOptions(const QCommandLineParser& parser,
                                  const RunCommandLine& commandLine, RunOptions& options)
{
    const QCommandLineOption& steps = commandLine.steps;
    const QCommandLineOption& seed = commandLine.seed;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return Error{"run takes one scene file, got " + std::to_string(positional.size()) + " ('" +
                     positional.join(QStringLiteral("', '")).toStdString() + "')"};
    options.scene = sceneSource(positional.isEmpty() ? QString() : positional.first());

    if (auto error = parseSteps(parser, steps, options))
        return error;
    if (parser.isSet(seed)) {
        options.seed = parseSeed(parser.value(seed));
        if (!options.seed)
            return Error{"--seed '" + parser.value(seed).toStdString() +
                         "' must be a whole number in [0, 2^64 - 1] (decimal or 0x hex)"};
    }
    options.presets = parser.values(commandLine.preset);
    options.sets = parser.values(commandLine.set);
    options.inputPath = parser.value(commandLine.input);
    if (parser.isSet(commandLine.input) && options.inputPath.isEmpty())
        return Error{"--input needs a script file name"};
    options.recordPath = parser.value(commandLine.record);
    if (parser.isSet(commandLine.record) && options.recordPath.isEmpty())
        return Error{"--record needs a file name"};
    if (auto error = parseOutputs(parser, commandLine.output, options))
        return error;
    return checkOutputPaths(options);
}

std::optional<Error> parseSteps(const QCommandLineParser& parser, const QCommandLineOption& steps,
                                RunOptions& options)
{
    if (!parser.isSet(steps))
        return std::nullopt;
    bool ok = false;
    options.steps = parser.value(steps).toLongLong(&ok);
    if (!ok || options.steps < 0 || options.steps > kMaxSteps)
        return Error{"--steps '" + parser.value(steps).toStdString() +
                     "' must be a whole number in [0, " + std::to_string(kMaxSteps) + "]"};
    options.stepsGiven = true;
    return std::nullopt;
}

/// --metrics, --trajectory, --json and --threads, shared by run and replay.
std::optional<Error> parseOutputs(const QCommandLineParser& parser, const OutputOptions& output,
                                  RunOptions& options)
{
    if (parser.isSet(output.threads)) {
        bool ok = false;
        options.threads = parser.value(output.threads).toInt(&ok);
        if (!ok || options.threads < 0 || options.threads > World::kMaxThreads)
            return Error{"--threads '" + parser.value(output.threads).toStdString() +
                         "' must be a whole number in [0, " + std::to_string(World::kMaxThreads) +
                         "] (0: every core)"};
    }
    const QCommandLineOption& metrics = output.metrics;
    const QCommandLineOption& trajectory = output.trajectory;
    options.metricsPath = parser.value(metrics);
    if (parser.isSet(metrics)) {
        if (options.metricsPath.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
            options.metricsFormat = MetricsFormat::Csv;
        else if (options.metricsPath.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            options.metricsFormat = MetricsFormat::Json;
        else
            return Error{"--metrics '" + options.metricsPath.toStdString() +
                         "': the file name must end in .csv or .json (it picks the format)"};
    }
    options.trajectoryPath = parser.value(trajectory);
    if (parser.isSet(trajectory) && options.trajectoryPath.isEmpty())
        return Error{"--trajectory needs a file name"};
    options.json = parser.isSet(output.json);
    return std::nullopt;
}

std::optional<Error> parseReplayOptions(const QCommandLineParser& parser,
                                        const ReplayCommandLine& commandLine, RunOptions& options)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return Error{"replay takes one recording file, got " + std::to_string(positional.size()) +
                     (positional.isEmpty()
                          ? std::string()
                          : " ('" + positional.join(QStringLiteral("', '")).toStdString() + "')")};
    options.replayPath = positional.first();
    if (auto error = parseSteps(parser, commandLine.steps, options))
        return error;
    if (auto error = parseOutputs(parser, commandLine.output, options))
        return error;
    return checkOutputPaths(options);
}

/// The metrics CSV header; the JSON rows use the same names as keys.
constexpr const char* kMetricsHeader =
    "step,group,kind,agents,active,nearestMin,nearestMean,nearestMedian,insideKeep,outsideBand,"
    "polarization,meanSpeed,maxSpeed,penetrations,maxPenetration,crossPenetrations,"
    "crossMaxPenetration,overlapSeconds,wallOverlaps,wallOverlapMax,wallCrossings,"
    "totalWallCrossings,stuck,blocked,goalDistanceMean,goalDistanceMax,atGoal\n";

/// Per-step metrics rows, as CSV or as the rows array of a JSON document.
class MetricsWriter
{
public:
    MetricsWriter(const QString& path, MetricsFormat format) : m_file(path), m_format(format) {}

    std::optional<Error> open(const World& world, const std::string& sceneName,
                              const std::string& fileName)
    {
        if (auto error = m_file.open())
            return error;
        if (m_format == MetricsFormat::Csv) {
            m_file.write(kMetricsHeader);
        } else {
            m_json.beginObject();
            m_json.key("format").value("shoal-metrics");
            m_json.key("version").value(2);
            m_json.key("scene").value(sceneName);
            m_json.key("file").value(fileName);
            m_json.key("dt").value(world.dt());
            m_json.key("seed").value(static_cast<unsigned long long>(world.seed()));
            m_json.key("rows").beginArray();
        }
        return std::nullopt;
    }

    void writeStep(const World& world)
    {
        for (int g = 0; g < world.groupCount(); ++g) {
            const GroupState& group = world.group(g);
            const GroupMetrics& m = group.metrics;
            if (m_format == MetricsFormat::Csv)
                writeCsvRow(world.stepCount(), group, m);
            else
                writeJsonRow(world.stepCount(), group, m);
        }
        if (m_format == MetricsFormat::Json) {
            m_file.write(m_json.text());
            m_json.text().clear();
        }
    }

    std::optional<Error> finish()
    {
        if (m_format == MetricsFormat::Json) {
            m_json.endArray().endObject();
            m_file.write(m_json.text());
            m_file.write("\n");
        }
        return m_file.commit();
    }

private:
    void writeCsvRow(std::uint64_t step, const GroupState& group, const GroupMetrics& m)
    {
        std::string& out = m_file.buffer();
        out += std::to_string(step);
        out += ',';
        out += csvField(group.name);
        out += ',';
        out += behaviourKey(group.kind);
        for (const long long v :
             {static_cast<long long>(m.agents), static_cast<long long>(m.active)})
            out += ',' + std::to_string(v);
        for (const float v : {m.nearestMin, m.nearestMean, m.nearestMedian})
            out += ',' + formatFloat(v);
        for (const int v : {m.insideKeep, m.outsideBand})
            out += ',' + std::to_string(v);
        for (const float v : {m.polarization, m.meanSpeed, m.maxSpeed})
            out += ',' + formatFloat(v);
        out += ',' + std::to_string(m.penetrations);
        out += ',' + formatFloat(m.maxPenetration);
        out += ',' + std::to_string(m.crossPenetrations);
        out += ',' + formatFloat(m.crossMaxPenetration);
        out += ',' + formatFloat(m.overlapSeconds);
        out += ',' + std::to_string(m.wallOverlaps);
        out += ',' + formatFloat(m.wallOverlapMax);
        out += ',' + std::to_string(m.wallCrossings);
        out += ',' + std::to_string(m.totalWallCrossings);
        out += ',' + std::to_string(m.stuck);
        out += ',' + std::to_string(m.blocked);
        out += ',' + formatFloat(m.goalDistanceMean);
        out += ',' + formatFloat(m.goalDistanceMax);
        out += ',' + std::to_string(m.atGoal);
        out += '\n';
        m_file.flushIfLarge();
    }

    void writeJsonRow(std::uint64_t step, const GroupState& group, const GroupMetrics& m)
    {
        m_json.newline().beginObject();
        m_json.key("step").value(static_cast<unsigned long long>(step));
        m_json.key("group").value(group.name);
        m_json.key("kind").value(std::string(behaviourKey(group.kind)));
        m_json.key("agents").value(m.agents);
        m_json.key("active").value(m.active);
        m_json.key("nearestMin").value(m.nearestMin);
        m_json.key("nearestMean").value(m.nearestMean);
        m_json.key("nearestMedian").value(m.nearestMedian);
        m_json.key("insideKeep").value(m.insideKeep);
        m_json.key("outsideBand").value(m.outsideBand);
        m_json.key("polarization").value(m.polarization);
        m_json.key("meanSpeed").value(m.meanSpeed);
        m_json.key("maxSpeed").value(m.maxSpeed);
        m_json.key("penetrations").value(m.penetrations);
        m_json.key("maxPenetration").value(m.maxPenetration);
        m_json.key("crossPenetrations").value(m.crossPenetrations);
        m_json.key("crossMaxPenetration").value(m.crossMaxPenetration);
        m_json.key("overlapSeconds").value(m.overlapSeconds);
        m_json.key("wallOverlaps").value(m.wallOverlaps);
        m_json.key("wallOverlapMax").value(m.wallOverlapMax);
        m_json.key("wallCrossings").value(m.wallCrossings);
        m_json.key("totalWallCrossings").value(static_cast<long long>(m.totalWallCrossings));
        m_json.key("stuck").value(m.stuck);
        m_json.key("blocked").value(m.blocked);
        m_json.key("goalDistanceMean").value(m.goalDistanceMean);
        m_json.key("goalDistanceMax").value(m.goalDistanceMax);
        m_json.key("atGoal").value(m.atGoal);
        m_json.endObject();
    }

    OutputFile m_file;
    MetricsFormat m_format;
    JsonWriter m_json;
};

/// step,group,agent,x,y,heading,speed rows for every agent (and the free player).
class TrajectoryWriter
{
public:
    explicit TrajectoryWriter(const QString& path) : m_file(path) {}

    std::optional<Error> open()
    {
        if (auto error = m_file.open())
            return error;
        m_file.write("step,group,agent,x,y,heading,speed\n");
        return std::nullopt;
    }

    void writeStep(const World& world)
    {
        const std::string step = std::to_string(world.stepCount());
        std::string& out = m_file.buffer();
        for (int g = 0; g < world.groupCount(); ++g) {
            const GroupState& group = world.group(g);
            const std::string name = csvField(group.name);
            const AgentArrays& a = group.agents;
            // `agent` is the agent's stable id: the world keeps agents in cell order, so an
            // agent's index may change between steps.
            for (std::size_t i = 0; i < a.size(); ++i)
                appendRow(out, step, name, a.id[i], a.px[i], a.py[i], a.heading[i], a.speed[i]);
            m_file.flushIfLarge();
        }
        const PlayerState& player = world.player();
        if (player.enabled && player.group < 0)
            appendRow(out, step, kPlayerRowName, 0, player.position.x, player.position.y,
                      player.heading, player.speed);
        m_file.flushIfLarge();
    }

    std::optional<Error> finish() { return m_file.commit(); }

private:
    static void appendRow(std::string& out, const std::string& step, const std::string& group,
                          std::size_t agent, float x, float y, float heading, float speed)
    {
        char numbers[128];
        std::snprintf(numbers, sizeof numbers, ",%zu,%.4f,%.4f,%.2f,%.4f\n", agent,
                      static_cast<double>(x), static_cast<double>(y),
                      static_cast<double>(radToDeg(wrapAngle(heading))),
                      static_cast<double>(speed));
        out += step;
        out += ',';
        out += group;
        out += numbers;
    }

    OutputFile m_file;
};

/// The worst a group did during a run: what the summary reports beyond the last step.
struct GroupPeaks
{
    int penetrations = 0;
    float penetrationDepth = 0.0f;
    int crossPenetrations = 0;
    float crossPenetrationDepth = 0.0f;
    float overlapSeconds = 0.0f;
    int wallOverlaps = 0;
    float wallOverlapDepth = 0.0f;
};

/// One broken promise: a wall crossed, a body in a wall, bodies overlapping too long.
struct RunFailure
{
    std::string what; ///< the message, naming the group, agent, step and place
};

/// What the summary reports beyond the last step's metrics, and the run's verdict: the
/// first failure of each kind in each group (the rest are counted, not listed).
struct RunTotals
{
    std::vector<GroupPeaks> peaks;
    std::vector<RunFailure> failures;
    std::int64_t failedChecks = 0;
    /// --json: each group's SteerBench-style scores (steerscores.h); empty otherwise.
    std::vector<GroupScores> scores;
    bool passed() const { return failedChecks == 0; }
};

std::string placeText(Vec2 p)
{
    return "(" + formatFixed(p.x, 2) + ", " + formatFixed(p.y, 2) + ")";
}

/// Checks one group after one step against the runtime's promises. A failure of a kind the
/// group has already reported is counted, not listed again.
void checkStep(const GroupState& group, std::uint64_t step, RunTotals& totals,
               std::vector<std::uint8_t>& reported)
{
    const GroupMetrics& m = group.metrics;
    const std::string who = "group " + quotedName(group.name) + " agent ";
    auto fail = [&](int kind, const std::string& what) {
        ++totals.failedChecks;
        if (reported[static_cast<std::size_t>(kind)])
            return;
        reported[static_cast<std::size_t>(kind)] = 1;
        totals.failures.push_back({what});
    };
    if (m.wallCrossings > 0)
        fail(0, who + std::to_string(m.crossingAgent) + " crossed a wall or obstacle at step " +
                    std::to_string(step) + ", moving from " + placeText(m.crossingFrom) + " to " +
                    placeText(m.crossingTo) + " m");
    if (m.wallOverlapMax > kPenetrationTolerance)
        fail(1, who + std::to_string(m.wallOverlapAgent) + " overlaps a wall or obstacle by " +
                    formatFixed(m.wallOverlapMax, 3) + " m at step " + std::to_string(step) +
                    ", at " + placeText(m.wallOverlapAt) + " m (at most " +
                    formatFixed(kPenetrationTolerance, 2) + " m is allowed)");
    if (m.overlapSeconds > kOverlapSeconds + 1e-6f)
        fail(2, who + std::to_string(m.overlapAgent) +
                    " has overlapped another body by more than " +
                    formatFixed(kPenetrationTolerance, 2) + " m for " +
                    formatFixed(m.overlapSeconds, 3) + " s at step " + std::to_string(step) +
                    ", at " + placeText(m.overlapAt) + " m (at most " +
                    formatFixed(kOverlapSeconds, 1) + " s is allowed)");
}

void printTextSummary(const World& world, const RunOptions& options, const SceneDesc& scene,
                      const RunTotals& totals, std::int64_t crossings)
{
    // A scene without a name is known by its file.
    const std::string named =
        scene.name.empty() ? options.scene.displayName
                           : displayText(scene.name) + " (" + options.scene.displayName + ")";
    std::printf("scene: %s, seed %llu, dt %s s\n", named.c_str(),
                static_cast<unsigned long long>(world.seed()), formatFloat(world.dt()).c_str());
    std::printf(
        "ran %llu steps (%s s simulated)\n", static_cast<unsigned long long>(world.stepCount()),
        formatFixed(static_cast<double>(world.stepCount()) * scene.simulation.dt, 3).c_str());
    const PlayerState& player = world.player();
    if (player.enabled) {
        const std::string leads =
            player.group >= 0 ? ", leading " + quotedName(world.group(player.group).name) : "";
        std::printf("player: at (%s, %s) m, heading %s deg, speed %s m/s%s\n",
                    formatFixed(player.position.x, 2).c_str(),
                    formatFixed(player.position.y, 2).c_str(),
                    formatFixed(radToDeg(wrapAngle(player.heading)), 1).c_str(),
                    formatFixed(player.speed, 2).c_str(), leads.c_str());
    }
    for (int g = 0; g < world.groupCount(); ++g) {
        const GroupState& group = world.group(g);
        const GroupMetrics& m = group.metrics;
        std::printf("group %s (%s): %d agents, %d active\n", quotedName(group.name).c_str(),
                    std::string(behaviourKey(group.kind)).c_str(), m.agents, m.active);
        if (m.withNeighbour == 0)
            std::printf("  nearest neighbour: none within its neighbour radius\n");
        else
            std::printf("  nearest neighbour: min %s m, mean %s m, median %s m\n",
                        formatFixed(m.nearestMin, 3).c_str(), formatFixed(m.nearestMean, 3).c_str(),
                        formatFixed(m.nearestMedian, 3).c_str());
        std::printf("  inside keep distance: %d, outside band: %d\n", m.insideKeep, m.outsideBand);
        std::printf("  polarization: %s, speed: mean %s m/s, max %s m/s\n",
                    formatFixed(m.polarization, 3).c_str(), formatFixed(m.meanSpeed, 3).c_str(),
                    formatFixed(m.maxSpeed, 3).c_str());
        const GroupPeaks& peak = totals.peaks[static_cast<std::size_t>(g)];
        std::printf("  penetrations: %d now (max depth %s m), peak %d during the run (max depth "
                    "%s m)\n",
                    m.penetrations, formatFixed(m.maxPenetration, 3).c_str(), peak.penetrations,
                    formatFixed(peak.penetrationDepth, 3).c_str());
        std::printf("  against other groups: %d now (max depth %s m), peak %d (max depth %s m); "
                    "longest overlap %s s\n",
                    m.crossPenetrations, formatFixed(m.crossMaxPenetration, 3).c_str(),
                    peak.crossPenetrations, formatFixed(peak.crossPenetrationDepth, 3).c_str(),
                    formatFixed(peak.overlapSeconds, 3).c_str());
        std::printf("  body-wall overlap: %d now (max %s m), peak %d (max %s m)\n", m.wallOverlaps,
                    formatFixed(m.wallOverlapMax, 3).c_str(), peak.wallOverlaps,
                    formatFixed(peak.wallOverlapDepth, 3).c_str());
        std::printf("  wall crossings: %lld total; stuck: %d; blocked: %d\n",
                    static_cast<long long>(m.totalWallCrossings), m.stuck, m.blocked);
        std::printf("  goal distance: mean %s m, max %s m, at goal: %d\n",
                    formatFixed(m.goalDistanceMean, 3).c_str(),
                    formatFixed(m.goalDistanceMax, 3).c_str(), m.atGoal);
    }
    std::printf("wall crossings: %lld\n", static_cast<long long>(crossings));
    std::printf("checks: %s\n", totals.passed() ? "passed" : "FAILED");
    std::printf("hash: %s\n", formatHash(world.stateHash()).c_str());
}

void printJsonSummary(const World& world, const RunOptions& options, const SceneDesc& scene,
                      const RunTotals& totals, std::int64_t crossings)
{
    JsonWriter json;
    json.beginObject();
    json.key("scene").value(scene.name);
    json.key("file").value(options.scene.displayName);
    json.key("seed").value(static_cast<unsigned long long>(world.seed()));
    json.key("dt").value(world.dt());
    json.key("steps").value(static_cast<unsigned long long>(world.stepCount()));
    json.key("time").value(static_cast<double>(world.stepCount()) * scene.simulation.dt);
    const PlayerState& player = world.player();
    json.key("player").beginObject();
    json.key("enabled").value(player.enabled);
    json.key("group");
    if (player.group >= 0)
        json.value(world.group(player.group).name);
    else
        json.null();
    json.key("x").value(player.position.x);
    json.key("y").value(player.position.y);
    json.key("heading").value(radToDeg(wrapAngle(player.heading)));
    json.key("speed").value(player.speed);
    json.endObject();
    json.key("groups").beginArray();
    for (int g = 0; g < world.groupCount(); ++g) {
        const GroupState& group = world.group(g);
        const GroupMetrics& m = group.metrics;
        json.beginObject();
        json.key("name").value(group.name);
        json.key("kind").value(std::string(behaviourKey(group.kind)));
        json.key("agents").value(m.agents);
        json.key("active").value(m.active);
        json.key("nearestMin").value(m.nearestMin);
        json.key("nearestMean").value(m.nearestMean);
        json.key("nearestMedian").value(m.nearestMedian);
        json.key("insideKeep").value(m.insideKeep);
        json.key("outsideBand").value(m.outsideBand);
        json.key("polarization").value(m.polarization);
        json.key("meanSpeed").value(m.meanSpeed);
        json.key("maxSpeed").value(m.maxSpeed);
        const GroupPeaks& peak = totals.peaks[static_cast<std::size_t>(g)];
        json.key("penetrations").value(m.penetrations);
        json.key("maxPenetration").value(m.maxPenetration);
        json.key("peakPenetrations").value(peak.penetrations);
        json.key("peakPenetrationDepth").value(peak.penetrationDepth);
        json.key("crossPenetrations").value(m.crossPenetrations);
        json.key("crossMaxPenetration").value(m.crossMaxPenetration);
        json.key("peakCrossPenetrations").value(peak.crossPenetrations);
        json.key("peakCrossPenetrationDepth").value(peak.crossPenetrationDepth);
        json.key("peakOverlapSeconds").value(peak.overlapSeconds);
        json.key("wallOverlaps").value(m.wallOverlaps);
        json.key("wallOverlapMax").value(m.wallOverlapMax);
        json.key("peakWallOverlaps").value(peak.wallOverlaps);
        json.key("peakWallOverlapDepth").value(peak.wallOverlapDepth);
        json.key("wallCrossings").value(static_cast<long long>(m.totalWallCrossings));
        json.key("stuck").value(m.stuck);
        json.key("blocked").value(m.blocked);
        json.key("goalDistanceMean").value(m.goalDistanceMean);
        json.key("goalDistanceMax").value(m.goalDistanceMax);
        json.key("atGoal").value(m.atGoal);
        if (static_cast<std::size_t>(g) < totals.scores.size()) {
            const GroupScores& score = totals.scores[static_cast<std::size_t>(g)];
            json.key("scores").beginObject();
            json.key("collisions").value(static_cast<long long>(score.collisions));
            json.key("timeToGoal");
            if (score.timeToGoal)
                json.value(*score.timeToGoal);
            else
                json.null();
            json.key("pathLength").value(score.pathLength);
            json.key("energy").value(score.energy);
            json.endObject();
        }
        json.endObject();
    }
    json.endArray();
    json.key("wallCrossings").value(static_cast<long long>(crossings));
    json.key("failedChecks").value(static_cast<long long>(totals.failedChecks));
    json.key("failures").beginArray();
    for (const RunFailure& failure : totals.failures)
        json.value(failure.what);
    json.endArray();
    json.key("warnings").beginArray();
    for (const WorldWarning& warning : world.warnings())
        json.value(warning.message);
    json.endArray();
    json.key("passed").value(totals.passed());
    json.key("hash").value(formatHash(world.stateHash()));
    json.endObject();
    std::printf("%s\n", json.text().c_str());
}

/// The scene as run (--seed and --preset applied), its world (--set applied) and the input
/// script.
struct RunSetup
{
    SceneDesc scene;
    std::unique_ptr<World> world;
    InputScript script;
    /// The --set options as the step-0 events a recording keeps, in order.
    std::vector<InputEvent> setEvents;
    /// replay: the recorded run's steps and hash.
    std::uint64_t recordedSteps = 0;
    std::uint64_t recordedHash = 0;
};

/// Loads the scene, applies --seed and every --preset, builds the world and applies every
/// --set in order.
std::optional<Error> buildWorld(const RunOptions& options, RunSetup& setup)
{
    auto loaded = loadScene(options.scene);
    if (!loaded)
        return loaded.error();
    if (options.seed)
        loaded->setSeed(*options.seed);
    setup.scene = loaded->scene();
    try {
        if (options.presets.isEmpty()) {
            setup.world = World::create(*loaded); // checked once, by the loader
        } else {
            const presets::Shelf shelf = presets::load();
            for (const std::string& problem : shelf.problems)
                printError("warning: " + problem);
            for (const QString& assignment : options.presets)
                if (auto error = applyPresetOption(setup.scene, assignment, shelf))
                    return error;
            auto world = World::create(setup.scene);
            if (!world)
                return Error{options.scene.displayName + ": " + world.error().message};
            setup.world = std::move(*world);
        }
    } catch (const std::bad_alloc&) {
        return outOfMemory(options.scene.displayName);
    }

    for (const QString& assignment : options.sets) {
        InputEvent event;
        if (auto error = applySet(*setup.world, assignment, event))
            return error;
        setup.setEvents.push_back(std::move(event));
    }
    return std::nullopt;
}

/// replay: the world and the script from the recording (--steps: as many as it made, unless
/// given).
std::optional<Error> buildReplay(RunOptions& options, RunSetup& setup)
{
    const std::string name = options.replayPath.toStdString();
    SceneReadOptions readOptions;
    readOptions.maxFileBytes = maxFileBytes();
    Expected<Recording> recording = loadRecordingFile(name, readOptions);
    if (!recording)
        return recording.error();
    setup.scene = std::move(recording->scene);
    setup.script = std::move(recording->input);
    setup.recordedSteps = recording->steps;
    setup.recordedHash = recording->hash;
    options.scene.displayName = name;
    if (!options.stepsGiven) {
        if (setup.recordedSteps > static_cast<std::uint64_t>(kMaxSteps))
            return Error{name + ": steps " + std::to_string(setup.recordedSteps) +
                         " is more than a run makes (" + std::to_string(kMaxSteps) + ")"};
        options.steps = static_cast<qint64>(setup.recordedSteps);
    }
    try {
        auto world = World::create(setup.scene);
        if (!world)
            return Error{name + ": scene: " + world.error().message};
        setup.world = std::move(*world);
    } catch (const std::bad_alloc&) {
        return outOfMemory(name);
    }
    return checkInputScript(setup.script, *setup.world);
}

/// run --record: the run as a recording, with the events it applied (those of its last steps
/// and beyond never were), into `file` (opened before the run, as every output is).
std::optional<Error> writeRecording(const RunOptions& options, const RunSetup& setup,
                                    AtomicFileWriter& file)
{
    Recording recording;
    recording.scene = setup.scene;
    recording.input.events = setup.setEvents;
    for (const InputEvent& event : setup.script.events)
        if (event.step < static_cast<std::uint64_t>(options.steps))
            recording.input.events.push_back(event);
    recording.steps = static_cast<std::uint64_t>(options.steps);
    recording.hash = setup.world->stateHash();
    file.write(serializeRecording(recording));
    return file.commit();
}

/// Reads, parses and checks the --input script (none: an empty script).
std::optional<Error> loadScript(const RunOptions& options, RunSetup& setup)
{
    if (options.inputPath.isEmpty())
        return std::nullopt;
    const std::string name = options.inputPath.toStdString();
    auto text = readTextFile(options.inputPath, name);
    if (!text)
        return text.error();
    auto parsed = parseInputScript(*text, name);
    if (!parsed)
        return parsed.error();
    setup.script = std::move(*parsed);
    return checkInputScript(setup.script, *setup.world);
}

/// The run's --metrics and --trajectory files; either may be absent.
class RunOutputs
{
public:
    std::optional<Error> open(const RunOptions& options, const RunSetup& setup)
    {
        if (!options.metricsPath.isEmpty()) {
            m_metrics = std::make_unique<MetricsWriter>(options.metricsPath, options.metricsFormat);
            if (auto error =
                    m_metrics->open(*setup.world, setup.scene.name, options.scene.displayName))
                return error;
        }
        if (!options.trajectoryPath.isEmpty()) {
            m_trajectory = std::make_unique<TrajectoryWriter>(options.trajectoryPath);
            if (auto error = m_trajectory->open())
                return error;
        }
        return std::nullopt;
    }

    void writeStep(const World& world)
    {
        if (m_metrics)
            m_metrics->writeStep(world);
        if (m_trajectory)
            m_trajectory->writeStep(world);
    }

    std::optional<Error> finish()
    {
        if (m_metrics) {
            if (auto error = m_metrics->finish())
                return error;
        }
        if (m_trajectory)
            return m_trajectory->finish();
        return std::nullopt;
    }

private:
    std::unique_ptr<MetricsWriter> m_metrics;
    std::unique_ptr<TrajectoryWriter> m_trajectory;
};

/// Steps the world `steps` times on `threads` threads with the script's input, recording step 0
/// (the world as built) and every step after it into `outputs` and the peaks into the totals, and
/// into `scores` when given (run --json).
RunTotals simulate(World& world, const InputScript& script, qint64 steps, int threads,
                   RunOutputs& outputs, SteerScores* scores)
{
    world.setThreads(threads);
    RunTotals totals;
    const auto groups = static_cast<std::size_t>(world.groupCount());
    totals.peaks.assign(groups, GroupPeaks{});
    std::vector<std::vector<std::uint8_t>> reported(groups, std::vector<std::uint8_t>(3, 0));
    const auto record = [&]() {
        for (std::size_t g = 0; g < groups; ++g) {
            const GroupState& group = world.group(static_cast<int>(g));
            const GroupMetrics& m = group.metrics;
            GroupPeaks& peak = totals.peaks[g];
            peak.penetrations = std::max(peak.penetrations, m.penetrations);
            peak.penetrationDepth = std::max(peak.penetrationDepth, m.maxPenetration);
            peak.crossPenetrations = std::max(peak.crossPenetrations, m.crossPenetrations);
            peak.crossPenetrationDepth =
                std::max(peak.crossPenetrationDepth, m.crossMaxPenetration);
            peak.overlapSeconds = std::max(peak.overlapSeconds, m.overlapSeconds);
            peak.wallOverlaps = std::max(peak.wallOverlaps, m.wallOverlaps);
            peak.wallOverlapDepth = std::max(peak.wallOverlapDepth, m.wallOverlapMax);
            checkStep(group, world.stepCount(), totals, reported[g]);
        }
        outputs.writeStep(world);
        if (scores)
            scores->observe(world);
    };

    record();
    std::size_t cursor = 0;
    for (qint64 s = 0; s < steps; ++s) {
        applyInputEvents(world, script, world.stepCount(), cursor);
        world.step();
        record();
    }
    if (scores)
        totals.scores = scores->scores();
    return totals;
}

/// Prints the summary (text or JSON) and returns the exit code: the runtime's checks (no
/// wall crossed, no body in a wall, no lasting overlap of bodies).
int report(const World& world, const RunOptions& options, const SceneDesc& scene,
           const RunTotals& totals)
{
    std::int64_t crossings = 0;
    for (int g = 0; g < world.groupCount(); ++g)
        crossings += world.group(g).metrics.totalWallCrossings;
    if (options.json)
        printJsonSummary(world, options, scene, totals, crossings);
    else
        printTextSummary(world, options, scene, totals, crossings);
    std::fflush(stdout);
    if (!totals.passed()) {
        for (const RunFailure& failure : totals.failures)
            printError("check failed: " + failure.what);
        printError("check failed: " + std::to_string(totals.failedChecks) +
                   " failed checks in all (the first of each kind per group is listed)");
        return kExitCheckFailed;
    }
    return kExitOk;
}

/// Prints a refusal and gives its exit code.
int refuse(const Error& error)
{
    printError(error.message);
    return kExitBadInput;
}

} // namespace

int runCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    const RunCommandLine commandLine(parser);
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("run"),
                                     QStringLiteral("shoal-cli run [FILE] [options]")))
        return *exit;

    RunOptions options;
    if (auto error = parseOptions(parser, commandLine, options))
        return refuse(Error{"run: " + error->message});
    RunSetup setup;
    if (auto error = buildWorld(options, setup))
        return refuse(*error);
    for (const WorldWarning& warning : setup.world->warnings())
        printError(options.scene.displayName + ": warning: " + warning.message);
    if (auto error = loadScript(options, setup))
        return refuse(*error);
    RunOutputs outputs;
    if (auto error = outputs.open(options, setup))
        return refuse(*error);
    std::optional<AtomicFileWriter> recordFile;
    if (!options.recordPath.isEmpty()) {
        recordFile.emplace(options.recordPath.toStdString());
        if (auto error = recordFile->open())
            return refuse(*error);
    }
    std::optional<SteerScores> scores;
    if (options.json)
        scores.emplace(setup.scene);
    const RunTotals totals = simulate(*setup.world, setup.script, options.steps, options.threads,
                                      outputs, scores ? &*scores : nullptr);
    if (auto error = outputs.finish())
        return refuse(*error);
    if (recordFile) {
        if (auto error = writeRecording(options, setup, *recordFile))
            return refuse(*error);
    }
    return report(*setup.world, options, setup.scene, totals);
}

int replayCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    const ReplayCommandLine commandLine(parser);
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("replay"),
                                     QStringLiteral("shoal-cli replay FILE [options]")))
        return *exit;

    RunOptions options;
    if (auto error = parseReplayOptions(parser, commandLine, options))
        return refuse(Error{"replay: " + error->message});
    RunSetup setup;
    if (auto error = buildReplay(options, setup))
        return refuse(*error);
    for (const WorldWarning& warning : setup.world->warnings())
        printError(options.scene.displayName + ": warning: " + warning.message);
    RunOutputs outputs;
    if (auto error = outputs.open(options, setup))
        return refuse(*error);
    std::optional<SteerScores> scores;
    if (options.json)
        scores.emplace(setup.scene);
    const RunTotals totals = simulate(*setup.world, setup.script, options.steps, options.threads,
                                      outputs, scores ? &*scores : nullptr);
    if (auto error = outputs.finish())
        return refuse(*error);
    const int exit = report(*setup.world, options, setup.scene, totals);
    // The promise of a recording: the same steps end in the same state.
    const std::uint64_t hash = setup.world->stateHash();
    if (static_cast<std::uint64_t>(options.steps) == setup.recordedSteps &&
        hash != setup.recordedHash) {
        printError("replay: " + options.scene.displayName + ": the replay ends with hash " +
                   formatHash(hash) + " after " + std::to_string(options.steps) +
                   " steps, the recorded run with " + formatHash(setup.recordedHash) +
                   " (the recording was edited, or this build's behaviours differ from those of "
                   "the build that recorded it)");
        return kExitCheckFailed;
    }
    return exit;
}

} // namespace shoal::cli
