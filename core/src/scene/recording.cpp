#include <shoal/recording.h>

#include "jsonreading.h"

#include <shoal/displaytext.h>
#include <shoal/paramspec.h>
#include <shoal/scenelimits.h>

#include <cmath>
#include <cstdio>
#include <new>

namespace shoal {

namespace {

using namespace jsonread;

constexpr const char* kFormat = "shoal-recording";

std::string jsonString(const std::string& text)
{
    return Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string pointText(Point2 p)
{
    return "[" + formatNumber(p.x) + ", " + formatNumber(p.y) + "]";
}

const char* buttonName(PointerAction action)
{
    switch (action) {
    case PointerAction::Down:
        return "down";
    case PointerAction::Up:
        return "up";
    case PointerAction::Move:
        break;
    }
    return "move";
}

/// One event as a line of the file's events array.
std::string eventText(const InputEvent& event)
{
    std::string out = "{\"step\": " + std::to_string(event.step) + ", ";
    switch (event.kind) {
    case InputEventKind::Pointer:
        out += "\"pointer\": " + pointText(event.position) + ", \"button\": \"" +
               buttonName(event.action) + "\"";
        break;
    case InputEventKind::Target:
        out += "\"target\": " + jsonString(event.group) + ", \"at\": " + pointText(event.position);
        break;
    case InputEventKind::Set:
        out += "\"set\": " + jsonString(event.key) + ", \"group\": " + jsonString(event.group) +
               ", \"value\": " + formatNumber(event.value);
        break;
    case InputEventKind::PlayerSet:
        out += "\"set\": " + jsonString(event.key) +
               ", \"player\": true, \"value\": " + formatNumber(event.value);
        break;
    }
    return out + "}";
}

std::string hashText(std::uint64_t hash)
{
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
    return text;
}

/// A coordinate of an event: finite, within the level's limit.
double readCoordinate(const Json& value, const std::string& path)
{
    const double v = readNumber(value, path);
    if (!std::isfinite(v) || std::fabs(v) > kMaxCoordinate)
        fail(path, formatNumber(v) + " is more than " + formatNumber(kMaxCoordinate) +
                       " m from the origin; every coordinate lies within ±" +
                       formatNumber(kMaxCoordinate) + " m");
    return v;
}

Point2 readPoint(const Json& value, const std::string& path)
{
    const Json& array = expectArray(value, path);
    if (array.size() != 2)
        fail(path, "expected [x, y], got " + std::to_string(array.size()) + " numbers");
    return {readCoordinate(array[0], elementPath(path, 0)),
            readCoordinate(array[1], elementPath(path, 1))};
}

std::uint64_t readStep(const Json& value, const std::string& path)
{
    if (!value.is_number_unsigned())
        fail(path, "expected the step as a whole number >= 0, got " + describe(value) +
                       wholeFloatHint(value));
    return value.get<std::uint64_t>();
}

InputEvent readEvent(const Json& value, const std::string& path, const InputEvent* previous)
{
    const Json& object = expectObject(value, path);
    InputEvent event;
    event.step = readStep(required(object, path, "step"), childPath(path, "step"));
    if (previous && event.step < previous->step)
        fail(childPath(path, "step"), "step " + std::to_string(event.step) + " comes after step " +
                                          std::to_string(previous->step) +
                                          "; steps must not decrease");
    if (object.contains("pointer")) {
        checkKeys(object, path, {"step", "pointer", "button"});
        event.kind = InputEventKind::Pointer;
        event.position = readPoint(object["pointer"], childPath(path, "pointer"));
        const std::string button =
            readString(required(object, path, "button"), childPath(path, "button"));
        if (button == "down")
            event.action = PointerAction::Down;
        else if (button == "up")
            event.action = PointerAction::Up;
        else if (button == "move")
            event.action = PointerAction::Move;
        else
            fail(childPath(path, "button"), quoted(button) + " must be down, up or move");
    } else if (object.contains("target")) {
        checkKeys(object, path, {"step", "target", "at"});
        event.kind = InputEventKind::Target;
        event.group = readString(object["target"], childPath(path, "target"));
        event.position = readPoint(required(object, path, "at"), childPath(path, "at"));
    } else if (object.contains("set")) {
        event.key = readString(object["set"], childPath(path, "set"));
        if (object.contains("player")) {
            checkKeys(object, path, {"step", "set", "player", "value"});
            if (!readBool(object["player"], childPath(path, "player")))
                fail(childPath(path, "player"), "is true for a player parameter; name a "
                                                "group with \"group\" instead");
            event.kind = InputEventKind::PlayerSet;
        } else {
            checkKeys(object, path, {"step", "set", "group", "value"});
            event.kind = InputEventKind::Set;
            event.group = readString(required(object, path, "group"), childPath(path, "group"));
        }
        event.value = readNumber(required(object, path, "value"), childPath(path, "value"));
    } else {
        fail(path, "expected an event with \"pointer\", \"target\" or \"set\"");
    }
    return event;
}

} // namespace

std::string serializeRecording(const Recording& recording)
{
    std::string out = "{\n  \"format\": \"" + std::string(kFormat) + "\",\n";
    out += "  \"version\": " + std::to_string(kRecordingFormatVersion) + ",\n";
    out += "  \"steps\": " + std::to_string(recording.steps) + ",\n";
    out += "  \"hash\": \"" + hashText(recording.hash) + "\",\n";
    out += "  \"events\": [";
    const std::vector<InputEvent>& events = recording.input.events;
    for (std::size_t k = 0; k < events.size(); ++k)
        out += (k == 0 ? "\n    " : ",\n    ") + eventText(events[k]);
    out += events.empty() ? "],\n" : "\n  ],\n";
    // The scene as its file is written, indented one level.
    const std::string scene = serializeScene(recording.scene);
    out += "  \"scene\": ";
    for (std::size_t k = 0; k < scene.size(); ++k) {
        out += scene[k];
        if (scene[k] == '\n' && k + 1 < scene.size())
            out += "  ";
    }
    if (!out.empty() && out.back() == '\n')
        out.pop_back();
    out += "\n}\n";
    return out;
}

Expected<Recording> parseRecording(const std::string& text, const std::string& fileName,
                                   const SceneReadOptions& options)
{
    if (text.size() > options.maxFileBytes)
        return fileTooBig(fileName, describeBytes(text.size()), options.maxFileBytes);
    if (std::optional<Error> error = nulByteError(fileName, text, 0))
        return *error;
    try {
        Expected<Json> parsed = parseObjectText(text, fileName, "recording");
        if (!parsed)
            return parsed.error();
        const Json& document = *parsed;
        const Json& format = required(document, {}, "format");
        if (!format.is_string() || format.get_ref<const std::string&>() != kFormat)
            fail("format", "this is not a Shoal recording: expected \"" + std::string(kFormat) +
                               "\", got " + describe(format));
        const Json& version = required(document, {}, "version");
        if (!version.is_number_integer())
            fail("version", "expected the format version as a whole number such as " +
                                std::to_string(kRecordingFormatVersion) + ", got " +
                                describe(version));
        if (version.is_number_unsigned() &&
            version.get<std::uint64_t>() > std::uint64_t(kRecordingFormatVersion))
            fail({}, "this recording was written by a newer Shoal (format version " +
                         version.dump() + "); this build reads up to version " +
                         std::to_string(kRecordingFormatVersion));
        if (version.get<std::int64_t>() < 1)
            fail("version", version.dump() + " is not a valid format version; versions start at 1");
        checkKeys(document, {}, {"format", "version", "steps", "hash", "events", "scene"});

        Recording recording;
        recording.steps = readStep(required(document, {}, "steps"), "steps");
        const std::string hash = readString(required(document, {}, "hash"), "hash");
        char* end = nullptr;
        recording.hash = std::strtoull(hash.c_str(), &end, 16);
        if (hash.size() != 16 || end != hash.c_str() + hash.size() ||
            hash.find_first_not_of("0123456789abcdef") != std::string::npos)
            fail("hash", quoted(hash) + " must be 16 hexadecimal digits (lower case), as "
                                        "shoal-cli run prints the hash");
        const Json& events = expectArray(required(document, {}, "events"), "events");
        recording.input.fileName = fileName;
        recording.input.fromRecording = true;
        for (std::size_t k = 0; k < events.size(); ++k) {
            const InputEvent* previous =
                recording.input.events.empty() ? nullptr : &recording.input.events.back();
            InputEvent event = readEvent(events[k], elementPath("events", k), previous);
            event.line = static_cast<int>(k);
            recording.input.events.push_back(std::move(event));
        }
        // The scene: checked as its own file would be.
        const std::string sceneText = expectObject(required(document, {}, "scene"), "scene").dump();
        Expected<SceneDesc> scene = parseScene(sceneText, fileName + ": scene", options);
        if (!scene)
            return scene.error();
        recording.scene = std::move(*scene);
        return recording;
    } catch (const ReadFailure& failure) {
        return Error{fileName + ": " + failure.message};
    } catch (const Json::exception& error) {
        return Error{fileName + ": " + cleanParseMessage(error.what())};
    } catch (const std::bad_alloc&) {
        return Error{fileName + ": out of memory while reading the recording"};
    }
}

Expected<Recording> loadRecordingFile(const std::string& path, const SceneReadOptions& options)
{
    std::string text;
    if (std::optional<Error> error = readFileLimited(path, options.maxFileBytes, text))
        return *error;
    return parseRecording(text, path, options);
}

} // namespace shoal
