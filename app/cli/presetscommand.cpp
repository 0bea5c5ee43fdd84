// shoal-cli presets: list the presets on offer (built-in and the user's), one a line.

#include "clisupport.h"
#include "commands.h"

#include <presetshelf.h>

#include <cstdio>
#include <string>

namespace shoal::cli {

namespace {

/// A name as it is typed on a command line: quoted when it holds a space.
std::string shellName(const std::string& name)
{
    return name.find(' ') == std::string::npos ? name : "\"" + name + "\"";
}

std::string familyList()
{
    std::string out;
    for (BehaviourKind kind : kAllBehaviourKinds)
        out += (out.empty() ? "" : ", ") + std::string(behaviourKey(kind));
    return out;
}

} // namespace

int presetsCommand(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Lists the presets, one a line: its name, its family, then the values it "
                       "sets (key=value), and '(yours)' for one saved by you in %1. 'shoal-cli "
                       "run FILE --preset GROUP=NAME' applies one.")
            .arg(presets::userFolder()));
    parser.addPositionalArgument(QStringLiteral("family"),
                                 QStringLiteral("Only this family's presets (%1).")
                                     .arg(QString::fromStdString(familyList())),
                                 QStringLiteral("[FAMILY]"));
    if (auto exit = parseCommandLine(parser, arguments, QStringLiteral("presets"),
                                     QStringLiteral("shoal-cli presets [FAMILY]")))
        return *exit;

    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        printError("presets takes at most one family, got " + std::to_string(positional.size()));
        return kExitBadInput;
    }
    std::optional<BehaviourKind> only;
    if (!positional.isEmpty()) {
        only = behaviourFromKey(positional.first().toStdString());
        if (!only) {
            printError("presets: unknown family '" + positional.first().toStdString() +
                       "'; allowed: " + familyList());
            return kExitBadInput;
        }
    }

    const presets::Shelf shelf = presets::load();
    for (const std::string& problem : shelf.problems)
        printError("warning: " + problem);
    for (const Preset& preset : shelf.presets) {
        if (only && preset.kind != *only)
            continue;
        std::string line = shellName(preset.name) + "  " + std::string(behaviourKey(preset.kind));
        for (const PresetValue& value : preset.values)
            line += "  " + value.key + "=" + formatNumber(value.value);
        if (!preset.builtIn)
            line += "  (yours)";
        std::printf("%s\n", line.c_str());
    }
    return kExitOk;
}

} // namespace shoal::cli
