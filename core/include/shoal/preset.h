#pragma once
/// Presets: a named set of parameter values for one behaviour family. Shoal ships a few per
/// family, each measured to do what its name says (tests/core/test_presets.cpp); designers
/// save their own as small JSON files (docs/presets.md). A preset sets only the parameters it
/// lists; the group's other parameters keep their values.

#include <shoal/behaviourkind.h>
#include <shoal/expected.h>
#include <shoal/export.h>
#include <shoal/paramspec.h>

#include <optional>
#include <string>
#include <vector>

namespace shoal {

/// The preset file format version this build writes, and the newest it reads.
constexpr int kPresetFormatVersion = 1;
/// Longest preset name, in bytes.
constexpr std::size_t kMaxPresetNameLength = 40;

/// One parameter a preset sets.
struct SHOAL_API PresetValue
{
    std::string key; ///< a key of the family's parameter table
    double value = 0.0;
    bool operator==(const PresetValue& o) const { return key == o.key && value == o.value; }
};

struct SHOAL_API Preset
{
    std::string name; ///< unique within its family (see checkPresetName)
    BehaviourKind kind = BehaviourKind::FishSchool;
    std::string description;         ///< one line: what it does
    std::vector<PresetValue> values; ///< in the family's table order, each key once
    bool builtIn = false;            ///< shipped with Shoal (not read from or written to files)
    bool operator==(const Preset& o) const
    {
        return name == o.name && kind == o.kind && description == o.description &&
               values == o.values && builtIn == o.builtIn;
    }
};

/// The presets shipped with Shoal, at least two per family, ordered by family then name.
SHOAL_API const std::vector<Preset>& builtInPresets();

/// A name is 1 to 40 bytes of letters, digits, spaces, '-', '_' and '.', and neither starts
/// nor ends with a space, nor starts with '.': it must survive a command line
/// (`--preset school=tight-school`) and be a file name. The message names the value and what is
/// allowed.
SHOAL_API std::optional<Error> checkPresetName(const std::string& name);

/// Every value of `values` (table order) as a preset: what "Save as preset" stores.
SHOAL_API Preset presetFromValues(std::string name, BehaviourKind kind, const ParamValues& values,
                                  std::string description = {});

/// The parameter values of a `kind` group whose values are `current` after `preset`: its
/// values in place, each checked against its spec and the family's rules between parameters
/// together. The error names the preset and the parameter; callers put the group in front.
/// A preset of another family is refused.
SHOAL_API Expected<ParamValues> applyPreset(const Preset& preset, BehaviourKind kind,
                                            const ParamValues& current);

/// Parses a preset file (`{"format": "shoal-preset", "version": 1, "name": ...}`); every
/// problem names `fileName`, the line and column or the field, the value and what is allowed.
SHOAL_API Expected<Preset> parsePreset(const std::string& text, const std::string& fileName);
/// The file text of `preset`: fixed field order, 2-space indent, shortest round-trip numbers.
SHOAL_API std::string serializePreset(const Preset& preset);

/// The preset named `name` for `kind` in `presets`, or null.
SHOAL_API const Preset* findPreset(const std::vector<Preset>& presets, BehaviourKind kind,
                                   const std::string& name);

} // namespace shoal
