#include <shoal/inputscript.h>

#include <shoal/world.h>

#include <shoal/displaytext.h>
#include <shoal/paramspec.h>

#include <charconv>
#include <cmath>
#include <string_view>

namespace shoal {

namespace {

constexpr const char* kAllowedLines =
    "expected '<step> pointer <x> <y> down|up|move', '<step> target <group> <x> <y>' or "
    "'<step> set <group>|player <param> <value>'";

struct Token
{
    std::string text;
    bool quoted = false;
};

/// Splits a line into whitespace-separated tokens; "..." is one token. Stops at a `#` that is
/// not inside quotes. Returns false (and sets `error`) on an unterminated quote.
bool tokenize(std::string_view line, std::vector<Token>& tokens, std::string& error)
{
    tokens.clear();
    std::size_t i = 0;
    const auto isSpace = [](char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
    };
    while (i < line.size()) {
        if (isSpace(line[i])) {
            ++i;
            continue;
        }
        if (line[i] == '#')
            break;
        Token token;
        if (line[i] == '"') {
            const std::size_t close = line.find('"', i + 1);
            if (close == std::string_view::npos) {
                error = "a quoted name has no closing '\"'";
                return false;
            }
            token.text = std::string(line.substr(i + 1, close - i - 1));
            token.quoted = true;
            i = close + 1;
        } else {
            const std::size_t start = i;
            while (i < line.size() && !isSpace(line[i]) && line[i] != '#')
                ++i;
            token.text = std::string(line.substr(start, i - start));
        }
        tokens.push_back(std::move(token));
    }
    return true;
}

bool parseStep(const std::string& text, std::uint64_t& out)
{
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    if (begin == end || *begin < '0' || *begin > '9')
        return false;
    const auto result = std::from_chars(begin, end, out);
    return result.ec == std::errc() && result.ptr == end;
}

/// Whether a decimal number from_chars found out of range is too small rather than too
/// large: the power of ten of its first significant digit, plus its exponent, is below 0.
bool underflows(std::string_view number)
{
    std::size_t i = number.empty() || number[0] != '-' ? 0 : 1;
    long long power = -1; // of the first significant digit
    bool seen = false, fraction = false;
    long long integerDigits = 0, leadingFractionZeros = 0;
    for (; i < number.size() && number[i] != 'e' && number[i] != 'E'; ++i) {
        const char c = number[i];
        if (c == '.') {
            fraction = true;
        } else if (!seen && c == '0') {
            if (fraction)
                ++leadingFractionZeros;
        } else if (!seen) {
            seen = true;
            if (!fraction)
                ++integerDigits;
        } else if (!fraction) {
            ++integerDigits;
        }
    }
    if (!seen)
        return true; // zero written with a huge exponent
    power = integerDigits > 0 ? integerDigits - 1 : -(leadingFractionZeros + 1);
    long long exponent = 0;
    if (i < number.size()) {
        const char* begin = number.data() + i + 1;
        const char* end = number.data() + number.size();
        if (begin != end && *begin == '+')
            ++begin;
        if (std::from_chars(begin, end, exponent).ec == std::errc::result_out_of_range)
            return *begin == '-';
    }
    // power + exponent < 0, without the sum: an exponent near the limits of long long would
    // overflow it (power is bounded by the number's length).
    return exponent < -power;
}

/// Locale-independent: "1.5" is one and a half whatever LC_NUMERIC says. As in scene files
/// (and any strtod), a number too small for a double reads as 0; one too large is refused.
bool parseCoordinate(const std::string& text, double& out)
{
    const char* begin = text.data();
    const char* end = begin + text.size();
    if (begin != end && *begin == '+')
        ++begin;
    if (begin == end)
        return false;
    const auto result = std::from_chars(begin, end, out, std::chars_format::general);
    if (result.ec == std::errc::result_out_of_range && result.ptr == end &&
        underflows(std::string_view(begin, static_cast<std::size_t>(end - begin)))) {
        out = *begin == '-' ? -0.0 : 0.0;
        return true;
    }
    return result.ec == std::errc() && result.ptr == end && std::isfinite(out);
}

std::string quote(const std::string& text)
{
    return quotedName(text);
}

std::optional<PointerAction> pointerActionFrom(const std::string& text)
{
    if (text == "down")
        return PointerAction::Down;
    if (text == "up")
        return PointerAction::Up;
    if (text == "move")
        return PointerAction::Move;
    return std::nullopt;
}

/// The rest of a `set` line (its five tokens counted): `<group>|player <param> <value>`.
Expected<InputEvent> parseSet(const std::vector<Token>& tokens, const std::string& where,
                              InputEvent event)
{
    const Token& owner = tokens[2];
    if (owner.text == "player" && !owner.quoted)
        event.kind = InputEventKind::PlayerSet;
    else
        event.group = owner.text;
    if (owner.text.empty())
        return Error{where + "the group name is empty; name a group of the scene or player"};
    event.key = tokens[3].text;
    if (event.key.empty())
        return Error{where + "the parameter key is empty; name one such as keepWeight"};
    const Token& value = tokens[4];
    if (value.quoted || !parseCoordinate(value.text, event.value))
        return Error{where + "value " + quote(value.text) + " must be a finite number"};
    return event;
}

/// The event a line's tokens describe (at least two tokens; `where` prefixes messages).
/// Steps must not decrease from the `previous` event's.
Expected<InputEvent> parseEvent(const std::vector<Token>& tokens, const std::string& where,
                                const InputEvent* previous)
{
    InputEvent event;
    if (tokens[0].quoted || !parseStep(tokens[0].text, event.step))
        return Error{where + "step " + quote(tokens[0].text) +
                     " must be a whole number >= 0 (the step before which the event applies)"};
    if (previous && event.step < previous->step)
        return Error{where + "step " + std::to_string(event.step) + " comes after step " +
                     std::to_string(previous->step) + " on line " + std::to_string(previous->line) +
                     "; steps must not decrease"};
    const std::string& verb = tokens[1].text;
    std::size_t xIndex = 0;
    if (verb == "pointer" && !tokens[1].quoted) {
        event.kind = InputEventKind::Pointer;
        xIndex = 2;
    } else if (verb == "target" && !tokens[1].quoted) {
        event.kind = InputEventKind::Target;
        xIndex = 3;
    } else if (verb == "set" && !tokens[1].quoted) {
        event.kind = InputEventKind::Set;
    } else {
        return Error{where + "unknown event " + quote(verb) + "; " + kAllowedLines};
    }
    constexpr std::size_t kFields = 5; // step, verb and three fields, for every event
    if (tokens.size() < kFields)
        return Error{where + "too few fields for " + quote(verb) + "; " + kAllowedLines};
    if (tokens.size() > kFields)
        return Error{where + "unexpected " + quote(tokens[kFields].text) + " after the event; " +
                     kAllowedLines};
    if (event.kind == InputEventKind::Set)
        return parseSet(tokens, where, event);
    if (event.kind == InputEventKind::Target) {
        event.group = tokens[2].text;
        if (event.group.empty())
            return Error{where + "the group name is empty; name a tank squad of the scene"};
    }
    const char* axes[2] = {"x", "y"};
    double* coordinates[2] = {&event.position.x, &event.position.y};
    for (std::size_t k = 0; k < 2; ++k) {
        const Token& token = tokens[xIndex + k];
        if (token.quoted || !parseCoordinate(token.text, *coordinates[k]))
            return Error{where + axes[k] + " " + quote(token.text) +
                         " must be a finite number (metres)"};
        // A finite double can still be no float at all (3.5e38), or a place the player can
        // never reach: the limit every coordinate of a level keeps.
        if (std::fabs(*coordinates[k]) > kMaxCoordinate)
            return Error{where + axes[k] + " " + quote(token.text) + " is more than " +
                         formatNumber(kMaxCoordinate) + " m from the origin; every coordinate " +
                         "lies within ±" + formatNumber(kMaxCoordinate) + " m"};
    }
    if (event.kind == InputEventKind::Pointer) {
        const Token& action = tokens[4];
        const std::optional<PointerAction> parsed =
            action.quoted ? std::nullopt : pointerActionFrom(action.text);
        if (!parsed)
            return Error{where + "pointer action " + quote(action.text) +
                         " must be down, up or move"};
        event.action = *parsed;
    }
    return event;
}

} // namespace

Expected<InputScript> parseInputScript(const std::string& text, const std::string& fileName)
{
    InputScript script;
    script.fileName = fileName;
    std::vector<Token> tokens;
    std::string tokenError;
    std::size_t lineStart = 0;
    int lineNumber = 0;
    while (lineStart <= text.size()) {
        std::size_t lineEnd = text.find('\n', lineStart);
        if (lineEnd == std::string::npos)
            lineEnd = text.size();
        const std::string_view line(text.data() + lineStart, lineEnd - lineStart);
        lineStart = lineEnd + 1;
        ++lineNumber;

        const std::string where = fileName + ":" + std::to_string(lineNumber) + ": ";
        if (!tokenize(line, tokens, tokenError))
            return Error{where + tokenError};
        if (tokens.empty())
            continue;
        if (tokens.size() < 2)
            return Error{where + kAllowedLines + ", got " + quote(tokens[0].text)};
        Expected<InputEvent> event =
            parseEvent(tokens, where, script.events.empty() ? nullptr : &script.events.back());
        if (!event)
            return event.error();
        event.value().line = lineNumber;
        script.events.push_back(std::move(event.value()));
    }
    return script;
}

namespace {

std::string lineOf(const InputScript& script, const InputEvent& event)
{
    if (script.fromRecording)
        return script.fileName + ": events[" + std::to_string(event.line) + "]: ";
    return script.fileName + ":" + std::to_string(event.line) + ": ";
}

/// A target event: it names a tank squad, and a place within the level's bounds.
std::optional<Error> checkTarget(const InputScript& script, const InputEvent& event,
                                 const World& world)
{
    const Vec2 low = world.boundsMin(), high = world.boundsMax();
    const int index = world.groupIndex(event.group);
    const Point2 p = event.position;
    if (index >= 0 && world.group(index).kind == BehaviourKind::TankSquad) {
        // As a scene's targets: a squad is sent only where it can go.
        if (p.x < low.x || p.x > high.x || p.y < low.y || p.y > high.y)
            return Error{lineOf(script, event) + "target [" + formatNumber(p.x) + ", " +
                         formatNumber(p.y) + "] is outside the level's bounds ([" +
                         formatNumber(low.x) + ", " + formatNumber(low.y) + "] to [" +
                         formatNumber(high.x) + ", " + formatNumber(high.y) + "])"};
        return std::nullopt;
    }
    std::string squads;
    for (int g = 0; g < world.groupCount(); ++g)
        if (world.group(g).kind == BehaviourKind::TankSquad)
            squads += (squads.empty() ? "" : ", ") + quote(world.group(g).name);
    const std::string problem = index < 0 ? "there is no group " + quote(event.group)
                                          : "group " + quote(event.group) + " is a " +
                                                std::string(behaviourKey(world.group(index).kind)) +
                                                ", not a tank squad";
    return Error{lineOf(script, event) + problem + "; target events need a tank squad (" +
                 (squads.empty() ? std::string("the scene has none") : "squads: " + squads) + ")"};
}

/// The keys of a parameter table, for a message: "a, b, c".
std::string keysOf(const std::vector<ParamSpec>& specs)
{
    std::string keys;
    for (const ParamSpec& spec : specs)
        keys += (keys.empty() ? "" : ", ") + spec.key;
    return keys;
}

/// A set event, with the values the events before it left (`values`, per group; filled from
/// the world the first time a group is edited), which it updates.
std::optional<Error> checkSet(const InputScript& script, const InputEvent& event,
                              const World& world, std::vector<ParamValues>& values)
{
    const std::string where = lineOf(script, event);
    if (event.kind == InputEventKind::PlayerSet) {
        const int index = paramIndex(playerParamSpecs(), event.key);
        if (index < 0)
            return Error{where + "the player has no parameter " + quote(event.key) +
                         "; its parameters: " + keysOf(playerParamSpecs())};
        if (auto error = checkPlayerParamEdit(index, event.value))
            return Error{where + error->message};
        return std::nullopt;
    }
    const int group = world.groupIndex(event.group);
    if (group < 0) {
        std::string names;
        for (int g = 0; g < world.groupCount(); ++g)
            names += (names.empty() ? "" : ", ") + quote(world.group(g).name);
        return Error{where + "there is no group " + quote(event.group) +
                     "; groups: " + (names.empty() ? std::string("none") : names) +
                     " (player, unquoted, sets the player's parameters)"};
    }
    const BehaviourKind kind = world.group(group).kind;
    const std::vector<ParamSpec>& specs = paramSpecs(kind);
    const int index = paramIndex(specs, event.key);
    if (index < 0)
        return Error{where + "a " + std::string(behaviourKey(kind)) + " has no parameter " +
                     quote(event.key) + "; its parameters: " + keysOf(specs)};
    ParamValues& current = values[static_cast<std::size_t>(group)];
    if (current.empty())
        for (const ParamSpec& spec : specs)
            current.push_back(world.param(group, spec.key));
    if (auto error = checkParamEdit(kind, current, index, event.value))
        return Error{where + "group " + quote(event.group) + ": " + error->message};
    current[static_cast<std::size_t>(index)] = event.value;
    return std::nullopt;
}

} // namespace

std::optional<Error> checkInputScript(const InputScript& script, const World& world)
{
    std::vector<ParamValues> values(static_cast<std::size_t>(world.groupCount()));
    for (const InputEvent& event : script.events) {
        std::optional<Error> error;
        if (event.kind == InputEventKind::Target)
            error = checkTarget(script, event, world);
        else if (event.kind == InputEventKind::Set || event.kind == InputEventKind::PlayerSet)
            error = checkSet(script, event, world, values);
        if (error)
            return error;
    }
    return std::nullopt;
}

void applyInputEvents(World& world, const InputScript& script, std::uint64_t step,
                      std::size_t& cursor)
{
    while (cursor < script.events.size() && script.events[cursor].step <= step) {
        const InputEvent& event = script.events[cursor++];
        const Vec2 position{static_cast<float>(event.position.x),
                            static_cast<float>(event.position.y)};
        if (event.kind == InputEventKind::Pointer) {
            bool pressed = world.pointer().pressed;
            if (event.action == PointerAction::Down)
                pressed = true;
            else if (event.action == PointerAction::Up)
                pressed = false;
            world.setPointer(position, pressed);
        } else if (event.kind == InputEventKind::Target) {
            const int index = world.groupIndex(event.group);
            if (index >= 0)
                world.setTarget(index, position);
        } else if (event.kind == InputEventKind::Set) {
            const int index = world.groupIndex(event.group);
            if (index >= 0)
                (void)world.setParam(index, event.key, event.value); // refused: left as it was
        } else {
            (void)world.setPlayerParam(event.key, event.value);
        }
    }
}

} // namespace shoal
