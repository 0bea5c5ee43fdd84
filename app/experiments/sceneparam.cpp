// Scene parameters by name and default run lengths, which sweeps and tuning share.

#include "sceneparam.h"

#include <shoal/checks.h>
#include <shoal/displaytext.h>

#include <cmath>

namespace shoal::experiments {

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

std::int64_t defaultRunSteps(const SceneDesc& scene)
{
    if (scene.checks.empty())
        return 600;
    return static_cast<std::int64_t>(
        std::ceil(CheckRunner::secondsNeeded(scene.checks) / scene.simulation.dt - 1e-4));
}

} // namespace shoal::experiments
