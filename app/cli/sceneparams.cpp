// Scene parameters by name, default run lengths, and the scene-in/file-out start that sweep and
// tune share.

#include "sceneparams.h"

#include <shoal/checks.h>
#include <shoal/displaytext.h>

#include <cmath>

namespace shoal::cli {

double& SceneParam::in(SceneDesc& scene) const
{
    ParamValues& values = groupIndex < 0
                              ? scene.player.params
                              : scene.groups[static_cast<std::size_t>(groupIndex)].params;
    return values[static_cast<std::size_t>(paramIndex)];
}

double SceneParam::in(const SceneDesc& scene) const
{
    return in(const_cast<SceneDesc&>(scene));
}

Expected<SceneParam> findSceneParam(const SceneDesc& scene, const std::string& target,
                                    const std::string& where)
{
    SceneParam param;
    const std::size_t dot = target.rfind('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 == target.size())
        return Error{where + ": expected GROUP.PARAM (or player.PARAM), got " + quotedName(target)};
    param.group = target.substr(0, dot);
    param.key = target.substr(dot + 1);
    const std::vector<ParamSpec>* specs = &playerParamSpecs();
    if (param.group != "player") {
        std::string names;
        for (std::size_t g = 0; g < scene.groups.size(); ++g) {
            if (scene.groups[g].name == param.group)
                param.groupIndex = static_cast<int>(g);
            names += (names.empty() ? "" : ", ") + quotedName(scene.groups[g].name);
        }
        if (param.groupIndex < 0)
            return Error{where + ": the scene has no group " + quotedName(param.group) +
                         "; groups: " + (names.empty() ? std::string("none") : names)};
        specs = &paramSpecs(scene.groups[static_cast<std::size_t>(param.groupIndex)].kind);
    }
    param.paramIndex = paramIndex(*specs, param.key);
    if (param.paramIndex < 0) {
        std::string keys;
        for (const ParamSpec& spec : *specs)
            keys += (keys.empty() ? "" : ", ") + spec.key;
        return Error{where + ": " + quotedName(param.group) + " has no parameter " +
                     quotedName(param.key) + "; known: " + keys};
    }
    param.spec = &(*specs)[static_cast<std::size_t>(param.paramIndex)];
    return param;
}

qint64 defaultRunSteps(const SceneDesc& scene)
{
    if (scene.checks.empty())
        return 600;
    return static_cast<qint64>(
        std::ceil(CheckRunner::secondsNeeded(scene.checks) / scene.simulation.dt - 1e-4));
}

Expected<qint64> wholeOption(const QCommandLineParser& parser, const QCommandLineOption& option,
                             qint64 low, qint64 high, qint64 fallback)
{
    if (!parser.isSet(option))
        return fallback;
    bool ok = false;
    const qint64 value = parser.value(option).toLongLong(&ok);
    if (!ok || value < low || value > high)
        return Error{"--" + option.names().first().toStdString() + " '" +
                     parser.value(option).toStdString() + "' must be a whole number in [" +
                     std::to_string(low) + ", " + std::to_string(high) + "]"};
    return value;
}

std::optional<CheckedScene> loadSceneWithOutput(const QCommandLineParser& parser,
                                                const QString& outPath, const std::string& command)
{
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        printError(command + ": takes one scene, got " + std::to_string(positional.size()));
        return std::nullopt;
    }
    const SceneSource source = sceneSource(positional.isEmpty() ? QString() : positional.first());
    if (outPath.isEmpty()) {
        printError(command + ": needs --out FILE");
        return std::nullopt;
    }
    if (sameFile(outPath, source.path)) {
        printError(command + ": --out " + outPath.toStdString() +
                   " is the scene; it would be overwritten");
        return std::nullopt;
    }
    auto loaded = loadScene(source);
    if (!loaded) {
        printError(loaded.error().message);
        return std::nullopt;
    }
    return std::move(*loaded);
}

} // namespace shoal::cli
