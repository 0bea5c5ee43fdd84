#include <shoal/preset.h>

#include "jsonreading.h"

#include <shoal/displaytext.h>
#include <shoal/scenefile.h>

#include <algorithm>
#include <new>

namespace shoal {
namespace {

using namespace jsonread;

/// A preset file is a name and a few dozen numbers; anything far bigger is not one.
constexpr std::size_t kMaxPresetBytes = 64 * 1024;

bool isNameChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == ' ' ||
           c == '-' || c == '_' || c == '.';
}

std::string kindText(BehaviourKind kind)
{
    return std::string(behaviourKey(kind));
}

Keys familyKeys()
{
    Keys keys;
    for (BehaviourKind kind : kAllBehaviourKinds)
        keys.push_back(kindText(kind));
    return keys;
}

Preset readPreset(const Json& root)
{
    checkKeys(root, {}, {"format", "version", "name", "family", "description", "params"});
    const Json& format = required(root, {}, "format");
    if (!format.is_string() || format.get_ref<const std::string&>() != "shoal-preset")
        fail("format",
             "this is not a Shoal preset: expected \"shoal-preset\", got " + describe(format));
    const Json& version = required(root, {}, "version");
    if (version.is_number_unsigned() &&
        version.get<std::uint64_t>() > std::uint64_t(kPresetFormatVersion))
        fail({}, "this preset was written by a newer Shoal (format version " + version.dump() +
                     "); this build reads up to version " + std::to_string(kPresetFormatVersion));
    readInteger(version, "version", 1, kPresetFormatVersion);

    Preset preset;
    preset.name = readString(required(root, {}, "name"), "name");
    if (std::optional<Error> error = checkPresetName(preset.name))
        fail("name", error->message);
    const std::string family = readString(required(root, {}, "family"), "family");
    const std::optional<BehaviourKind> kind = behaviourFromKey(family);
    if (!kind)
        fail("family", "unknown behaviour family " + quoted(family) +
                           suggestion(family, familyKeys()) +
                           "; allowed: " + joinKeys(familyKeys()));
    preset.kind = *kind;
    if (const Json* description = optionalField(root, "description"))
        preset.description = readString(*description, "description");

    const Json& params = expectObject(required(root, {}, "params"), "params");
    const std::vector<ParamSpec>& specs = paramSpecs(preset.kind);
    checkKeys(params, "params", keysOf(specs));
    if (params.empty())
        fail("params", "a preset sets at least one parameter");
    for (const ParamSpec& spec : specs) {
        const Json* field = optionalField(params, spec.key);
        if (!field)
            continue;
        const std::string path = childPath("params", spec.key);
        const double value = readNumber(*field, path);
        if (std::optional<Error> error = checkParamValue(spec, value))
            fail(path, error->message);
        preset.values.push_back({spec.key, value});
    }
    return preset;
}

} // namespace

std::optional<Error> checkPresetName(const std::string& name)
{
    const std::string allowed = "; a name is 1 to " + std::to_string(kMaxPresetNameLength) +
                                " letters, digits, spaces, '-', '_' or '.', with no space at "
                                "either end and no '.' first";
    if (name.empty())
        return Error{"the preset name is empty" + allowed};
    if (name.size() > kMaxPresetNameLength)
        return Error{"the preset name " + quotedName(name) + " is " + std::to_string(name.size()) +
                     " bytes long" + allowed};
    const auto bad = std::find_if_not(name.begin(), name.end(), isNameChar);
    if (bad != name.end())
        return Error{"the preset name " + quotedName(name) + " holds " +
                     quotedName(std::string(1, *bad)) + allowed};
    if (name.front() == '.')
        return Error{"the preset name " + quotedName(name) + " starts with '.'" + allowed};
    if (name.front() == ' ' || name.back() == ' ')
        return Error{"the preset name " + quotedName(name) + " starts or ends with a space" +
                     allowed};
    return std::nullopt;
}

Preset presetFromValues(std::string name, BehaviourKind kind, const ParamValues& values,
                        std::string description)
{
    Preset preset;
    preset.name = std::move(name);
    preset.kind = kind;
    preset.description = std::move(description);
    const std::vector<ParamSpec>& specs = paramSpecs(kind);
    for (std::size_t i = 0; i < specs.size() && i < values.size(); ++i)
        preset.values.push_back({specs[i].key, values[i]});
    return preset;
}

Expected<ParamValues> applyPreset(const Preset& preset, BehaviourKind kind,
                                  const ParamValues& current)
{
    const std::string who = "preset " + quotedName(preset.name);
    if (preset.kind != kind)
        return Error{who + " is for " + kindText(preset.kind) + " groups, not " + kindText(kind)};
    const std::vector<ParamSpec>& specs = paramSpecs(kind);
    ParamValues values = current;
    values.resize(specs.size(), 0.0);
    for (const PresetValue& entry : preset.values) {
        const int index = paramIndex(specs, entry.key);
        if (index < 0)
            return Error{who + ": " + kindText(kind) + " has no parameter " +
                         quotedName(entry.key)};
        if (std::optional<Error> error =
                checkParamValue(specs[std::size_t(index)], entry.value, who))
            return *error;
        values[std::size_t(index)] = entry.value;
    }
    if (std::optional<Error> error = checkParamRelations(kind, values))
        return Error{who + " with the group's other values: " + error->message};
    return values;
}

Expected<Preset> parsePreset(const std::string& text, const std::string& fileName)
{
    if (text.size() > kMaxPresetBytes)
        return Error{fileName + ": the file is " + describeBytes(text.size()) +
                     "; a preset file is at most " + describeBytes(kMaxPresetBytes)};
    if (std::optional<Error> error = nulByteError(fileName, text, 0))
        return *error;
    try {
        Expected<Json> document = parseObjectText(text, fileName, "preset");
        if (!document)
            return document.error();
        return readPreset(*document);
    } catch (const ReadFailure& failure) {
        return Error{fileName + ": " + failure.message};
    } catch (const Json::exception& error) {
        return Error{fileName + ": " + cleanParseMessage(error.what())};
    } catch (const std::bad_alloc&) {
        return Error{fileName + ": out of memory while reading the preset"};
    }
}

std::string serializePreset(const Preset& preset)
{
    const auto text = [](const std::string& s) { return Json(s).dump(); };
    std::string out = "{\n  \"format\": \"shoal-preset\",\n  \"version\": " +
                      std::to_string(kPresetFormatVersion) + ",\n  \"name\": " + text(preset.name) +
                      ",\n  \"family\": " + text(kindText(preset.kind)) + ",\n";
    if (!preset.description.empty())
        out += "  \"description\": " + text(preset.description) + ",\n";
    out += "  \"params\": {";
    for (std::size_t i = 0; i < preset.values.size(); ++i)
        out += std::string(i == 0 ? "\n" : ",\n") + "    " + text(preset.values[i].key) + ": " +
               formatNumber(preset.values[i].value);
    out += preset.values.empty() ? "}\n}\n" : "\n  }\n}\n";
    return out;
}

const Preset* findPreset(const std::vector<Preset>& presets, BehaviourKind kind,
                         const std::string& name)
{
    for (const Preset& preset : presets)
        if (preset.kind == kind && preset.name == name)
            return &preset;
    return nullptr;
}

} // namespace shoal
