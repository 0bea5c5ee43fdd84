#pragma once
/// Scripted input: a text file of pointer, squad-target and parameter events, each tagged with
/// the step before which it is applied, so a headless run (shoal-cli run --input) replays
/// exactly what a user did with the mouse and the property panel. Format, one event per line,
/// `#` starts a comment:
///
///     <step> pointer <x> <y> down|up|move
///     <step> target <group> <x> <y>
///     <step> set <group> <param> <value>
///     <step> set player <param> <value>
///
/// Steps are whole numbers >= 0 and never decrease; x and y are metres (y up). A group name
/// with spaces is written in double quotes (a group named player, too: "player"). `move`
/// keeps the button state it finds.

#include <shoal/expected.h>
#include <shoal/export.h>
#include <shoal/scenedesc.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace shoal {

class World;

enum class InputEventKind
{
    Pointer,   ///< the pointer moves and/or its button changes
    Target,    ///< a tank squad's target moves
    Set,       ///< a group's parameter takes a value (World::setParam)
    PlayerSet, ///< a player parameter takes a value (World::setPlayerParam)
};

enum class PointerAction
{
    Down, ///< button pressed at the position
    Up,   ///< button released at the position
    Move, ///< moved; the button stays as it was
};

struct SHOAL_API InputEvent
{
    std::uint64_t step = 0; ///< applied just before the world computes this step (0 = first)
    InputEventKind kind = InputEventKind::Pointer;
    PointerAction action = PointerAction::Move; ///< Pointer only
    std::string group;                          ///< Target and Set: the group's name
    Point2 position;                            ///< Pointer and Target: metres
    std::string key;                            ///< Set and PlayerSet: the parameter's key
    double value = 0.0;                         ///< Set and PlayerSet: its new value
    int line = 0;                               ///< 1-based line in the script, for messages

    bool operator==(const InputEvent& o) const
    {
        return step == o.step && kind == o.kind && action == o.action && group == o.group &&
               position == o.position && key == o.key && value == o.value && line == o.line;
    }
};

struct SHOAL_API InputScript
{
    std::string fileName;           ///< as given to parseInputScript, for messages
    std::vector<InputEvent> events; ///< in file order (steps non-decreasing)
    /// The events are a recording's events array (InputEvent::line is the index in it):
    /// messages read "<file>: events[i]: ..." instead of "<file>:<line>: ...".
    bool fromRecording = false;
};

/// Parses a script. Errors read "file:line: ..." and say what the line may contain.
SHOAL_API Expected<InputScript> parseInputScript(const std::string& text,
                                                 const std::string& fileName);

/// Checks the script against a built world: every target event names a tank squad, and every
/// set event a group (or the player) with that parameter, its value allowed where it comes
/// (each edit checked with those before it in place, as the world will take them). The error
/// names the file, the line and what is allowed.
SHOAL_API std::optional<Error> checkInputScript(const InputScript& script, const World& world);

/// Applies, in order, the events from `cursor` on whose step is <= `step`, and advances
/// `cursor` past them. Call it with world.stepCount() before each World::step(); start with
/// cursor = 0. Events checkInputScript refuses (a target for what is not a squad, a parameter
/// the group does not have or a value it does not take) are skipped.
SHOAL_API void applyInputEvents(World& world, const InputScript& script, std::uint64_t step,
                                std::size_t& cursor);

} // namespace shoal
