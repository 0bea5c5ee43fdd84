#pragma once
/// Scene files: the versioned JSON form of a SceneDesc (docs/scene-format.md), read with
/// every problem reported as an Error a user can act on, and written in a stable order so
/// that load -> save -> load gives the same scene and the same bytes.

#include <shoal/expected.h>
#include <shoal/scenedesc.h>

#include <optional>
#include <string>

namespace shoal {

/// The format version this build writes, and the newest it reads. Older files are migrated
/// one version at a time on load; newer ones are refused.
constexpr int kSceneFormatVersion = 1;

/// Parses a whole scene file held in `text`. `fileName` is only used to start every error
/// message (e.g. "demo.json:3:14: ..." or "demo.json: groups[2].spawn.count: ...").
/// On success the scene is complete and has passed validateScene(); on any problem only the
/// Error is returned, never part of a scene.
Expected<SceneDesc> parseScene(const std::string& text, const std::string& fileName);

/// Reads the file at `path` and parses it; errors start with `path`.
Expected<SceneDesc> loadSceneFile(const std::string& path);

/// The file text of `scene`: every field in a fixed order, 2-space indent, numbers in
/// shortest round-trip form. Ends with "\n". Meant for a scene that passes validateScene();
/// a parameter list of the wrong length is written with defaults filling the gaps.
std::string serializeScene(const SceneDesc& scene);

/// Writes serializeScene(scene) to `path` atomically: a temporary file in the same folder is
/// written, flushed and checked, then renamed over `path`. On failure `path` is untouched
/// and the Error says why.
std::optional<Error> saveSceneFile(const SceneDesc& scene, const std::string& path);

} // namespace shoal
