#pragma once
// Where presets come from for the editor and the CLI: the built-in ones and the designer's
// own, one JSON file each under <user data>/Shoal/shoal/presets/<family>/<name>.json
// (docs/presets.md). Both programs read the same folder, so a preset saved in the editor is
// there for `shoal-cli run --preset`.

#include <shoal/preset.h>

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace shoal::presets {

/// The folder of the designer's presets: QStandardPaths' generic data location +
/// "/Shoal/shoal/presets" (on Linux ~/.local/share/Shoal/shoal/presets).
QString userFolder();
/// The file `preset` is saved in.
QString fileOf(const Preset& preset);

/// Every preset on offer: the built-ins, then the user's ordered by family and name.
struct Shelf
{
    std::vector<Preset> presets;
    /// One line per user file that could not be read ("<path>: <what is wrong>"): such a file
    /// is left out, never changed.
    std::vector<std::string> problems;
};
Shelf load();

/// Saves `preset` (not built-in) as the user's, atomically; a preset of the same family and
/// name is replaced. A built-in's name, an invalid name or a write failure is refused with a
/// message that names it.
std::optional<Error> saveUserPreset(const Preset& preset);
/// Deletes the user's preset file of `preset`'s family and name.
std::optional<Error> removeUserPreset(const Preset& preset);

} // namespace shoal::presets
