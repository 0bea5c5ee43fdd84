// shoal-cli: headless validation, runs and benchmarks of Shoal scenes (docs/cli.md).

#include "clisupport.h"
#include "commands.h"

#include <QCoreApplication>

#include <clocale>
#include <cstdio>
#include <new>

namespace {

constexpr const char* kUsage =
    "Usage: shoal-cli <command> [options]\n"
    "\n"
    "Commands:\n"
    "  validate [FILE...]   load scene files and report each one (no FILE: the embedded demo)\n"
    "  run [FILE] [options] run a scene headless; print summary metrics and the state hash\n"
    "  replay FILE [options] run a recording (run --record) again to the same hash\n"
    "  check [FILE...]      run scenes and decide the checks they carry (--junit FILE)\n"
    "  sweep [FILE] --vary GROUP.PARAM=FROM:TO:STEP... --out FILE  run every combination\n"
    "  sweep merge FILE... --out FILE  join a sharded sweep's files\n"
    "  tune [FILE] --param GROUP.PARAM=MIN:MAX... --objective checks|METRIC --out FILE\n"
    "                       search values that pass the checks (NLopt), write the scene\n"
    "  bench [options]      time every behaviour family at several agent counts\n"
    "  presets [FAMILY]     list the presets (built-in and yours) with the values they set\n"
    "  import steersuite CASE.xml --out FILE  convert a SteerSuite test case to a scene\n"
    "\n"
    "A FILE of 'demo' (or none) is the embedded demo scene.\n"
    "'shoal-cli <command> --help' lists a command's options. Exit codes: 0 ok, 1 a check\n"
    "failed (run: a wall crossed, a body in a wall, a lasting overlap; replay: another\n"
    "hash than the recorded run; check: a scene's check), 2 bad input.\n";

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("shoal-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SHOAL_VERSION));
    // QCoreApplication adopts the user's locale; numbers in outputs and files always use '.'.
    std::setlocale(LC_NUMERIC, "C");

    const QStringList arguments = QCoreApplication::arguments();
    if (arguments.size() < 2) {
        std::fputs(kUsage, stderr);
        return shoal::cli::kExitBadInput;
    }
    const QString command = arguments.at(1);
    if (command == QLatin1String("--help") || command == QLatin1String("-h") ||
        command == QLatin1String("help")) {
        std::fputs(kUsage, stdout);
        return shoal::cli::kExitOk;
    }
    if (command == QLatin1String("--version")) {
        std::printf("shoal-cli %s\n", SHOAL_VERSION);
        return shoal::cli::kExitOk;
    }

    QStringList rest = arguments.mid(2);
    rest.prepend(arguments.at(0));
    // The commands catch running out of memory where they can name the file; a level that
    // runs out of it later still ends with a message and exit 2, not an abort.
    try {
        if (command == QLatin1String("validate"))
            return shoal::cli::validateCommand(rest);
        if (command == QLatin1String("run"))
            return shoal::cli::runCommand(rest);
        if (command == QLatin1String("replay"))
            return shoal::cli::replayCommand(rest);
        if (command == QLatin1String("check"))
            return shoal::cli::checkCommand(rest);
        if (command == QLatin1String("sweep"))
            return shoal::cli::sweepCommand(rest);
        if (command == QLatin1String("tune"))
            return shoal::cli::tuneCommand(rest);
        if (command == QLatin1String("bench"))
            return shoal::cli::benchCommand(rest);
        if (command == QLatin1String("presets"))
            return shoal::cli::presetsCommand(rest);
        if (command == QLatin1String("import"))
            return shoal::cli::importCommand(rest);
    } catch (const std::bad_alloc&) {
        shoal::cli::printError("not enough memory to go on with '" + command.toStdString() +
                               "': the level needs more memory than this machine can give");
        return shoal::cli::kExitBadInput;
    }

    shoal::cli::printError("unknown command '" + command.toStdString() +
                           "'; allowed: validate, run, replay, check, sweep, tune, bench, presets, "
                           "import (see shoal-cli --help)");
    return shoal::cli::kExitBadInput;
}
