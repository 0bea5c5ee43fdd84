// shoal-cli import: converts another tool's scenario into a Shoal scene (docs/cli.md,
// "import"). One format so far: SteerSuite test cases (steersuitecase.h).

#include "clisupport.h"
#include "commands.h"
#include "steersuitecase.h"

#include <shoal/scenefile.h>

#include <cstdio>
#include <string>

namespace shoal::cli {

int importCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Converts a SteerSuite test case (SteerBenchTestCase XML) into a scene: each agent a "
        "tank of a tank squad with its own goal, boxes as obstacles, the passing criteria it "
        "recognises as checks. Every part of the case that does not map is printed as a "
        "warning on stderr. Random placements are drawn from --seed.\n"
        "Exit code 0 when the scene is written, 2 on bad input (the error names "
        "file:line:column)."));
    const QCommandLineOption outOption(
        QStringLiteral("out"), QStringLiteral("The scene file to write."), QStringLiteral("FILE"));
    const QCommandLineOption seedOption(
        QStringLiteral("seed"),
        QStringLiteral("Seed of the random placements, and of the scene (default 1)."),
        QStringLiteral("N"));
    parser.addOptions({outOption, seedOption});
    parser.addPositionalArgument(QStringLiteral("format"), QStringLiteral("steersuite"),
                                 QStringLiteral("FORMAT"));
    parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("The case to convert."),
                                 QStringLiteral("FILE"));
    if (auto exit = parseCommandLine(
            parser, arguments, QStringLiteral("import"),
            QStringLiteral("shoal-cli import steersuite CASE.xml --out FILE [--seed N]")))
        return *exit;
    const auto refuse = [](const std::string& message) {
        printError("import: " + message);
        return kExitBadInput;
    };
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 2)
        return refuse("needs a format and a file: import steersuite CASE.xml --out FILE");
    if (positional.at(0) != QLatin1String("steersuite"))
        return refuse("unknown format '" + positional.at(0).toStdString() +
                      "'; allowed: steersuite");
    if (!parser.isSet(outOption) || parser.value(outOption).isEmpty())
        return refuse("needs --out FILE, the scene to write");
    std::uint64_t seed = 1;
    if (parser.isSet(seedOption)) {
        const auto parsed = parseSeed(parser.value(seedOption));
        if (!parsed)
            return refuse("--seed must be a whole number from 0 to 2^64-1, got '" +
                          parser.value(seedOption).toStdString() + "'");
        seed = *parsed;
    }
    const QString inPath = positional.at(1);
    const QString outPath = parser.value(outOption);
    if (sameFile(inPath, outPath))
        return refuse("--out names the case itself; write the scene to another file");

    const std::string name = inPath.toStdString();
    auto text = readTextFile(inPath, name);
    if (!text) {
        printError(text.error().message);
        return kExitBadInput;
    }
    auto imported = importSteerSuiteCase(*text, name, seed);
    if (!imported) {
        printError(imported.error().message);
        return kExitBadInput;
    }
    for (const std::string& warning : imported->warnings)
        printError("warning: " + warning);
    imported->scene.simulation.seed = seed;
    // The scene is checked as the loader would check it: what cannot run is not written.
    auto checked = checkScene(imported->scene);
    if (!checked) {
        printError(name + ": the converted scene is not valid: " + checked.error().message);
        return kExitBadInput;
    }
    OutputFile out(outPath);
    if (auto error = out.open()) {
        printError(error->message);
        return kExitBadInput;
    }
    out.write(serializeScene(checked->scene()));
    if (auto error = out.commit()) {
        printError(error->message);
        return kExitBadInput;
    }
    std::size_t agents = 0;
    for (const GroupDesc& group : checked->scene().groups)
        agents += group.agents.size();
    const auto counted = [](std::size_t n, const char* noun) {
        return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
    };
    std::printf("%s: %s in %s, %s, %s, %s\n", outPath.toStdString().c_str(),
                counted(agents, "agent").c_str(),
                counted(checked->scene().groups.size(), "group").c_str(),
                counted(checked->scene().obstacles.size(), "obstacle").c_str(),
                counted(checked->scene().checks.size(), "check").c_str(),
                counted(imported->warnings.size(), "warning").c_str());
    std::fflush(stdout);
    return kExitOk;
}

} // namespace shoal::cli
