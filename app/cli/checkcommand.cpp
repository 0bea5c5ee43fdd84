// shoal-cli check: run each scene as built and decide the checks it carries (docs/scene-format.md,
// "Checks"): print each with what it measured, write them as JUnit XML for a CI server.

#include "clisupport.h"
#include "commands.h"

#include <shoal/checks.h>
#include <shoal/displaytext.h>
#include <shoal/world.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <new>
#include <optional>

namespace shoal::cli {

namespace {

constexpr qint64 kMaxSteps = 100000000;

/// One scene's outcome, for the summary and the JUnit file.
struct SceneOutcome
{
    std::string name;  ///< as given on the command line
    std::string error; ///< a scene that could not be checked (bad input): why
    std::vector<CheckDesc> checks;
    std::vector<CheckResult> results;
    qint64 steps = 0;
    double seconds = 0.0;
};

const char* stateWord(CheckState state)
{
    switch (state) {
    case CheckState::Passed:
        return "pass";
    case CheckState::Failed:
        return "FAIL";
    case CheckState::Holding:
    case CheckState::Pending:
        break;
    }
    return "open"; // not reached once finish() has run
}

/// "name: condition" or the condition alone.
std::string checkTitle(const CheckDesc& check)
{
    return check.name.empty() ? describeCheck(check)
                              : quotedName(check.name) + ": " + describeCheck(check);
}

/// Text for XML attributes and content: the five reserved characters escaped, control
/// characters (not allowed in XML 1.0) written as U+FFFD.
std::string xmlEscaped(const std::string& text)
{
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
                out += "\xEF\xBF\xBD";
            else
                out += c;
        }
    }
    return out;
}

/// The JUnit XML of every scene: a testsuite per scene, a testcase per check; a scene that
/// could not be run is one testcase with an <error>.
std::string junitXml(const std::vector<SceneOutcome>& outcomes)
{
    int tests = 0, failures = 0, errors = 0;
    for (const SceneOutcome& o : outcomes) {
        if (!o.error.empty()) {
            ++tests;
            ++errors;
            continue;
        }
        tests += static_cast<int>(o.checks.size());
        for (const CheckResult& r : o.results)
            failures += r.state == CheckState::Failed ? 1 : 0;
    }
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    xml += "<testsuites name=\"shoal-cli check\" tests=\"" + std::to_string(tests) +
           "\" failures=\"" + std::to_string(failures) + "\" errors=\"" + std::to_string(errors) +
           "\">\n";
    for (const SceneOutcome& o : outcomes) {
        const std::string suite = xmlEscaped(o.name);
        if (!o.error.empty()) {
            xml += "  <testsuite name=\"" + suite +
                   "\" tests=\"1\" failures=\"0\" errors=\"1\">\n"
                   "    <testcase classname=\"" +
                   suite + "\" name=\"load\">\n      <error message=\"" + xmlEscaped(o.error) +
                   "\"/>\n    </testcase>\n  </testsuite>\n";
            continue;
        }
        int failed = 0;
        for (const CheckResult& r : o.results)
            failed += r.state == CheckState::Failed ? 1 : 0;
        xml += "  <testsuite name=\"" + suite + "\" tests=\"" + std::to_string(o.checks.size()) +
               "\" failures=\"" + std::to_string(failed) + "\" errors=\"0\">\n";
        xml += "    <properties>\n      <property name=\"steps\" value=\"" +
               std::to_string(o.steps) + "\"/>\n      <property name=\"seconds\" value=\"" +
               formatNumber(o.seconds, 6) + "\"/>\n    </properties>\n";
        for (std::size_t k = 0; k < o.checks.size(); ++k) {
            const std::string measured = describeResult(o.checks[k], o.results[k]);
            xml += "    <testcase classname=\"" + suite + "\" name=\"" +
                   xmlEscaped(checkTitle(o.checks[k])) + "\">\n";
            if (o.results[k].state == CheckState::Failed)
                xml += "      <failure message=\"" + xmlEscaped(measured) + "\"/>\n";
            else
                xml += "      <system-out>" + xmlEscaped(measured) + "</system-out>\n";
            xml += "    </testcase>\n";
        }
        xml += "  </testsuite>\n";
    }
    xml += "</testsuites>\n";
    return xml;
}

/// Runs one scene and decides its checks; a scene that cannot be run says why in `error`.
SceneOutcome checkScene(const QString& argument, std::optional<qint64> steps,
                        std::optional<std::uint64_t> seed)
{
    const SceneSource source = sceneSource(argument);
    SceneOutcome outcome;
    outcome.name = source.displayName;
    auto loaded = loadScene(source);
    if (!loaded) {
        outcome.error = loaded.error().message;
        return outcome;
    }
    if (seed)
        loaded->setSeed(*seed);
    outcome.checks = loaded->scene().checks;
    try {
        const std::unique_ptr<World> world = World::create(*loaded);
        auto runner = CheckRunner::create(outcome.checks, *world);
        if (!runner) {
            outcome.error = source.displayName + ": " + runner.error().message;
            return outcome;
        }
        // Enough steps for every window to be decided, unless --steps says how many.
        outcome.steps = steps ? *steps
                              : static_cast<qint64>(std::ceil(
                                    CheckRunner::secondsNeeded(outcome.checks) / world->dt()));
        world->setMetricsEnabled(true);
        world->setMetricsEvery(1);
        for (qint64 s = 0; s < outcome.steps && !outcome.checks.empty(); ++s) {
            world->step();
            runner->observe(*world);
        }
        runner->finish(*world);
        outcome.results = runner->results();
        outcome.seconds = world->time();
    } catch (const std::bad_alloc&) {
        outcome.error = outOfMemory(source.displayName).message;
    }
    return outcome;
}

void printOutcome(const SceneOutcome& o)
{
    if (!o.error.empty()) {
        printError(o.error);
        return;
    }
    if (o.checks.empty()) {
        std::printf("%s: no checks\n", o.name.c_str());
        return;
    }
    int passed = 0;
    for (const CheckResult& r : o.results)
        passed += r.state == CheckState::Passed ? 1 : 0;
    std::printf("%s: %d of %zu passed (%lld steps, %s s)\n", o.name.c_str(), passed,
                o.checks.size(), static_cast<long long>(o.steps),
                formatNumber(o.seconds, 6).c_str());
    for (std::size_t k = 0; k < o.checks.size(); ++k)
        std::printf("  %s  %s: %s\n", stateWord(o.results[k].state),
                    checkTitle(o.checks[k]).c_str(),
                    describeResult(o.checks[k], o.results[k]).c_str());
}

} // namespace

int checkCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs each scene as it is built (no input) and decides the checks it carries: prints "
        "each check with what it measured. A scene runs 2 s past the latest time its checks "
        "name, and at least 10 s, unless --steps says how many steps.\n"
        "Exit code 0 when every check passed, 1 when one failed, 2 when a file could not be "
        "checked (unreadable, invalid, a check naming a group the scene lacks)."));
    const QCommandLineOption stepsOption(
        QStringLiteral("steps"), QStringLiteral("Steps to run each scene."), QStringLiteral("N"));
    const QCommandLineOption seedOption(QStringLiteral("seed"),
                                        QStringLiteral("Overrides each scene's random seed."),
                                        QStringLiteral("SEED"));
    const QCommandLineOption junitOption(
        QStringLiteral("junit"),
        QStringLiteral("Writes the results as JUnit XML (a testsuite per scene, a testcase per "
                       "check) for CI servers."),
        QStringLiteral("FILE"));
    parser.addOptions({stepsOption, seedOption, junitOption});
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Scene files; 'demo' or none: the embedded demo."),
                                 QStringLiteral("[FILE...]"));
    if (auto exit = parseCommandLine(
            parser, arguments, QStringLiteral("check"),
            QStringLiteral("shoal-cli check [FILE...] [--steps N] [--seed SEED] [--junit FILE]")))
        return *exit;

    std::optional<qint64> steps;
    if (parser.isSet(stepsOption)) {
        bool ok = false;
        const qint64 n = parser.value(stepsOption).toLongLong(&ok);
        if (!ok || n < 1 || n > kMaxSteps) {
            printError("check: --steps " + parser.value(stepsOption).toStdString() +
                       ": expected a whole number from 1 to " + std::to_string(kMaxSteps));
            return kExitBadInput;
        }
        steps = n;
    }
    std::optional<std::uint64_t> seed;
    if (parser.isSet(seedOption)) {
        seed = parseSeed(parser.value(seedOption));
        if (!seed) {
            printError("check: --seed " + parser.value(seedOption).toStdString() +
                       ": expected a whole number from 0 to 2^64-1 (decimal, or hex after 0x)");
            return kExitBadInput;
        }
    }
    QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        files.append(QString());
    const QString junitPath = parser.value(junitOption);
    for (const QString& file : files) {
        const SceneSource source = sceneSource(file);
        if (!junitPath.isEmpty() && sameFile(junitPath, source.path)) {
            printError("check: --junit " + junitPath.toStdString() + " is the scene " +
                       source.displayName + "; it would be overwritten");
            return kExitBadInput;
        }
    }
    // The JUnit file is opened before the runs, so a path that cannot be written is said at once.
    std::optional<OutputFile> junit;
    if (!junitPath.isEmpty()) {
        junit.emplace(junitPath);
        if (auto error = junit->open()) {
            printError(error->message);
            return kExitBadInput;
        }
    }

    std::vector<SceneOutcome> outcomes;
    int exitCode = kExitOk;
    for (const QString& file : files) {
        outcomes.push_back(checkScene(file, steps, seed));
        const SceneOutcome& o = outcomes.back();
        printOutcome(o);
        std::fflush(stdout);
        if (!o.error.empty()) {
            exitCode = kExitBadInput;
            continue;
        }
        for (const CheckResult& r : o.results)
            if (r.state != CheckState::Passed && exitCode == kExitOk)
                exitCode = kExitCheckFailed;
    }
    if (junit) {
        junit->write(junitXml(outcomes));
        if (auto error = junit->commit()) {
            printError(error->message);
            return kExitBadInput;
        }
    }
    return exitCode;
}

} // namespace shoal::cli
