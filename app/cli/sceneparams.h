#pragma once
/// What sweep and tune share: a parameter of a scene named GROUP.PARAM (or player.PARAM), the
/// steps a run of a scene takes by default, and the one scene such a command reads with the
/// file it writes.

#include "clisupport.h"

#include <QCommandLineParser>

#include <string>

namespace shoal::cli {

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
qint64 defaultRunSteps(const SceneDesc& scene);

/// A whole-number option in [low, high], or `fallback` when it is not given; the Error reads
/// "--NAME 'TEXT' must be a whole number in [low, high]".
Expected<qint64> wholeOption(const QCommandLineParser& parser, const QCommandLineOption& option,
                             qint64 low, qint64 high, qint64 fallback);

/// The one scene a command reads (the positional argument, or the demo) and the --out file it
/// writes, which must be named and must not be the scene; prints the refusal (prefixed with
/// `command`) and returns nothing on bad input.
std::optional<CheckedScene> loadSceneWithOutput(const QCommandLineParser& parser,
                                                const QString& outPath, const std::string& command);

} // namespace shoal::cli
