// shoal-cli validate: load each scene and build its world, report ok or the first error.

#include "clisupport.h"
#include "commands.h"

#include <shoal/world.h>

#include <cstdio>
#include <new>
#include <string>

namespace shoal::cli {

namespace {

/// "1 group", "3 groups".
std::string counted(std::size_t count, const char* noun)
{
    return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace

int validateCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Loads each scene file and builds its world. Prints 'FILE: ok (N groups, "
                       "M agents)' per good file and the loader's error for a bad one, and a "
                       "warning for what the build could not do as the file asks (a spawn area "
                       "that places fewer agents than its count).\n"
                       "Exit code 0 when every file is good, 2 otherwise (with --strict, also "
                       "when a file has a warning)."));
    const QCommandLineOption strict(QStringLiteral("strict"),
                                    QStringLiteral("Treat warnings as errors (exit 2)."));
    parser.addOption(strict);
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Scene files; 'demo' or none: the embedded demo."),
                                 QStringLiteral("[FILE...]"));
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("validate"),
                                     QStringLiteral("shoal-cli validate [--strict] [FILE...]")))
        return *exit;

    QStringList files = parser.positionalArguments();
    if (files.isEmpty())
        files.append(QString());

    int exitCode = kExitOk;
    for (const QString& file : files) {
        const SceneSource source = sceneSource(file);
        auto scene = loadScene(source);
        if (!scene) {
            printError(scene.error().message);
            exitCode = kExitBadInput;
            continue;
        }
        // The built world gives the real agent count, the player included; the loader has
        // checked the scene, so the build does not check it again.
        std::unique_ptr<World> world;
        try {
            world = World::create(*scene);
        } catch (const std::bad_alloc&) {
            printError(outOfMemory(source.displayName).message);
            exitCode = kExitBadInput;
            continue;
        }
        for (const WorldWarning& warning : world->warnings())
            printError(source.displayName + ": warning: " + warning.message);
        if (parser.isSet(strict) && !world->warnings().empty()) {
            printError(source.displayName +
                       ": refused: " + std::to_string(world->warnings().size()) + " warning" +
                       (world->warnings().size() == 1 ? "" : "s") + " (--strict)");
            exitCode = kExitBadInput;
            continue;
        }
        std::printf("%s: ok (%s, %s%s)\n", source.displayName.c_str(),
                    counted(std::size_t(world->groupCount()), "group").c_str(),
                    counted(world->agentCount(), "agent").c_str(),
                    world->warnings().empty()
                        ? ""
                        : (", " + std::to_string(world->warnings().size()) + " warning" +
                           (world->warnings().size() == 1 ? "" : "s"))
                              .c_str());
    }
    std::fflush(stdout);
    return exitCode;
}

} // namespace shoal::cli
