// shoal-cli validate: load each scene and build its world, report ok or the first error.

#include "clisupport.h"
#include "commands.h"

#include <shoal/world.h>

#include <cstdio>

namespace shoal::cli {

int validateCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Loads each scene file and builds its world. Prints 'FILE: ok (N groups, "
                       "M agents)' per good file and the loader's error for a bad one.\n"
                       "Exit code 0 when every file is good, 2 otherwise."));
    parser.addPositionalArgument(QStringLiteral("files"),
                                 QStringLiteral("Scene files; 'demo' or none: the embedded demo."),
                                 QStringLiteral("[FILE...]"));
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("validate"),
                                     QStringLiteral("shoal-cli validate [FILE...]")))
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
        const std::unique_ptr<World> world = World::create(*scene);
        std::printf("%s: ok (%d groups, %zu agents)\n", source.displayName.c_str(),
                    world->groupCount(), world->agentCount());
    }
    std::fflush(stdout);
    return exitCode;
}

} // namespace shoal::cli
