#pragma once
/// A parameter of a scene named GROUP.PARAM (or player.PARAM), and the steps a run of a scene
/// takes by default: what sweeps and tuning (shoal-cli and the editor) share.

#include <shoal/expected.h>
#include <shoal/paramspec.h>
#include <shoal/scenedesc.h>

#include <cstdint>
#include <string>

namespace shoal::experiments {

/// A parameter of a scene's group or of its player, found by name.
struct SceneParam
{
    std::string group, key; ///< group "player": the player's parameters
    int groupIndex = -1;    ///< in the scene's groups; -1: the player
    int paramIndex = -1;    ///< in the group's (or player's) ParamValues
    const ParamSpec* spec = nullptr;

    /// "GROUP.PARAM", as the user wrote it.
    std::string name() const { return group + "." + key; }
    /// The value in `scene` (a scene of the same groups as the one it was found in).
    double& in(SceneDesc& scene) const;
    double in(const SceneDesc& scene) const;
};

/// Finds "GROUP.PARAM" in `scene`; the Error starts with `where` and names the groups or the
/// parameters there are.
Expected<SceneParam> findSceneParam(const SceneDesc& scene, const std::string& target,
                                    const std::string& where);

/// The steps a run of `scene` takes unless told: what its checks need
/// (CheckRunner::secondsNeeded), or 600 for a scene without checks. A hair over a whole
/// number of steps is that number (10 s of a float 0.02 s is 500 steps).
std::int64_t defaultRunSteps(const SceneDesc& scene);

} // namespace shoal::experiments
