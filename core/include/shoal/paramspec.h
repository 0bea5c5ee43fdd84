#pragma once
/// Parameter descriptions: one table per behaviour family (and one for the player).
/// A table is the single description of a parameter: it drives the editor's property panel,
/// the scene file, `shoal-cli --set group.param=value` and validation.

#include <shoal/behaviourkind.h>
#include <shoal/expected.h>
#include <shoal/export.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shoal {

enum class ParamType
{
    Real,    ///< any value in [minValue, maxValue]
    Integer, ///< a whole number in [minValue, maxValue]
    Choice,  ///< an index into `choices`
};

/// How a viewer lets the designer drag a parameter in the view, drawn on one agent of the
/// group (its leader, or agent 0) as the family uses it: a ring round the agent or the goal, a
/// reach ahead of or behind its heading, a half-width beside it, a cone either side of it.
struct SHOAL_API ParamHandle
{
    enum class Shape : std::uint8_t
    {
        None,   ///< no handle
        Radius, ///< a ring of the value round the anchor; its knob at knobAngle off the heading
        Ahead,  ///< a line of the value ahead of the agent, its knob at the end
        Behind, ///< the same behind it
        Side,   ///< half the value beside the agent (a width)
        Cone,   ///< two rays at +-value degrees off the heading, `reach` long
    };
    enum class Anchor : std::uint8_t
    {
        Agent,   ///< the agent itself
        Goal,    ///< where the group heads (World::goal): a squad's target, a swarm's prey
        AheadBy, ///< `anchorKey`'s value ahead of the agent (the wander circle's centre)
    };
    Shape shape = Shape::None;
    Anchor anchor = Anchor::Agent;
    std::string anchorKey;
    float knobAngle = 45.0f; ///< Radius: where its knob sits, degrees counter-clockwise
    float reach = 2.0f;      ///< Cone: length of its rays, m

    static ParamHandle radius(float knobAngle, Anchor anchor = Anchor::Agent,
                              std::string anchorKey = {})
    {
        ParamHandle h;
        h.shape = Shape::Radius;
        h.anchor = anchor;
        h.anchorKey = std::move(anchorKey);
        h.knobAngle = knobAngle;
        return h;
    }
    static ParamHandle line(Shape shape)
    {
        ParamHandle h;
        h.shape = shape;
        return h;
    }
    static ParamHandle cone(float reach)
    {
        ParamHandle h;
        h.shape = Shape::Cone;
        h.reach = reach;
        return h;
    }
};

/// One tunable parameter. Angles are authored in degrees; lengths in metres; times in seconds.
struct SHOAL_API ParamSpec
{
    ParamSpec() = default;
    ParamSpec(std::string key_, std::string label_, std::string unit_, double min, double max,
              double step_, double defaultValue_, std::string tooltip_,
              ParamType type_ = ParamType::Real, std::vector<std::string> choices_ = {})
        : key(std::move(key_)), label(std::move(label_)), unit(std::move(unit_)), minValue(min),
          maxValue(max), step(step_), defaultValue(defaultValue_), tooltip(std::move(tooltip_)),
          type(type_), choices(std::move(choices_))
    {
    }

    std::string key; ///< stable name in files and on the command line (the seed's name where good)
    std::string label; ///< short label for the property panel
    std::string unit;  ///< "m", "m/s", "deg", "deg/s", "" ...
    double minValue = 0.0;
    double maxValue = 1.0;
    double step = 0.01; ///< slider / spin box increment
    double defaultValue = 0.0;
    std::string tooltip; ///< meaning, units and the trade-off of raising or lowering it
    ParamType type = ParamType::Real;
    std::vector<std::string> choices; ///< labels for ParamType::Choice, value = index
    ParamHandle handle;               ///< how the view lets it be dragged (Shape::None: not)
};

/// Values in table order (one double per ParamSpec).
using ParamValues = std::vector<double>;

/// The table of a behaviour family.
SHOAL_API const std::vector<ParamSpec>& paramSpecs(BehaviourKind kind);
/// The player's table (its speed, wall ray and body radius).
SHOAL_API const std::vector<ParamSpec>& playerParamSpecs();

/// Every parameter at its default, in table order.
SHOAL_API ParamValues defaultParamValues(const std::vector<ParamSpec>& specs);
/// Index of `key` in `specs`, or -1.
SHOAL_API int paramIndex(const std::vector<ParamSpec>& specs, const std::string& key);

/// Checks one value against its spec: finite, inside [min, max], whole for Integer,
/// a valid index for Choice. The message names the parameter, the value and what is allowed;
/// `context` (e.g. "group 'school'") is put in front of it.
SHOAL_API std::optional<Error> checkParamValue(const ParamSpec& spec, double value,
                                               const std::string& context = {});

/// The one check of a live edit: parameter `index` of a `kind` group, whose values are
/// `current`, set to `value`. The value is checked against its spec (checkParamValue), then
/// the family's rules between parameters with the new value in place. The property panel runs
/// it before an edit reaches the undo stack, World::setParam before the running world takes
/// it. The message names the parameter; callers put the group in front.
SHOAL_API std::optional<Error> checkParamEdit(BehaviourKind kind, const ParamValues& current,
                                              int index, double value);
/// The same for the player's table (no rules between its parameters); the message starts
/// with "player: ".
SHOAL_API std::optional<Error> checkPlayerParamEdit(int index, double value);

/// The one number formatter of files, messages and tables: the shortest text that reads back
/// as the same double, in plain decimals for everyday magnitudes ("30", "0.25", 1e-4 to 1e15)
/// and in %g form otherwise ("1e-07"); "nan", "inf" and "-inf" for the rest.
SHOAL_API std::string formatNumber(double value);
/// The same for a float: the shortest text that reads back as the same float ("0.016666668").
SHOAL_API std::string formatFloat(float value);
/// `value` rounded to `significantDigits` in %g form ("0.804"): a derived value in a message.
SHOAL_API std::string formatNumber(double value, int significantDigits);

} // namespace shoal

namespace shoal {
/// Rules between parameters of one family (e.g. keepMinDistance < keepMaxDistance): checked
/// on load and on every live change (checkParamEdit). The message names both parameters.
SHOAL_API std::optional<Error> checkParamRelations(BehaviourKind kind, const ParamValues& values);
} // namespace shoal
