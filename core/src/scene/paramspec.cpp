#include <shoal/paramspec.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace shoal {

const std::vector<ParamSpec>& playerParamSpecs()
{
    static const std::vector<ParamSpec> specs = {
        {"moveSpeed",
         "Move speed",
         "m/s",
         0.1,
         30.0,
         0.1,
         3.4,
         "How fast the player swims toward the pointer while the button is held (the fish "
         "article's 170 px/s). Faster outruns the school; the school catches up at its own "
         "moveSpeed.",
         ParamType::Real,
         {}},
        {"rayLength",
         "Wall ray",
         "m",
         0.05,
         5.0,
         0.05,
         0.8,
         "Length of the ray cast ahead before each move: the player stops this far short of "
         "a wall (the fish article's 40 px). Longer keeps it further from walls; shorter lets it "
         "squeeze through narrow gaps.",
         ParamType::Real,
         {}},
        {"radius",
         "Body radius",
         "m",
         0.05,
         5.0,
         0.05,
         0.35,
         "Size of the player's body, for drawing and the overlap metric.",
         ParamType::Real,
         {}},
        {"arriveDistance",
         "Stop distance",
         "m",
         0.01,
         5.0,
         0.01,
         0.2,
         "The player stops when it is this close to the pointer, so it does not circle the "
         "cursor (the fish article's player never stops: it keeps swimming the way it was "
         "clicked).",
         ParamType::Real,
         {}},
    };
    return specs;
}

ParamValues defaultParamValues(const std::vector<ParamSpec>& specs)
{
    ParamValues values;
    values.reserve(specs.size());
    for (const ParamSpec& spec : specs)
        values.push_back(spec.defaultValue);
    return values;
}

int paramIndex(const std::vector<ParamSpec>& specs, const std::string& key)
{
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (specs[i].key == key)
            return static_cast<int>(i);
    return -1;
}

namespace {

std::string nonFiniteText(double value)
{
    if (std::isnan(value))
        return "nan";
    return value > 0 ? "inf" : "-inf";
}

/// The fewest significant digits (up to `maxPrecision`) for which `readsBack` holds, written
/// in plain decimals when the value is an everyday size (printf's %g turns 1000 into "1e+03").
template <class ReadsBack>
std::string formatShortest(double value, int maxPrecision, ReadsBack readsBack)
{
    char buffer[64];
    int precision = 1;
    for (; precision < maxPrecision; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (readsBack(buffer))
            break;
    }
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
    const double magnitude = std::fabs(value);
    if (std::strchr(buffer, 'e') && magnitude >= 1e-4 && magnitude < 1e15) {
        const int exponent = static_cast<int>(std::floor(std::log10(magnitude)));
        const int decimals = std::max(0, precision - 1 - exponent);
        std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    }
    return buffer;
}

} // namespace

std::string formatNumber(double value)
{
    if (!std::isfinite(value))
        return nonFiniteText(value);
    return formatShortest(
        value, 17, [value](const char* text) { return std::strtod(text, nullptr) == value; });
}

std::string formatFloat(float value)
{
    if (!std::isfinite(value))
        return nonFiniteText(value);
    return formatShortest(
        value, 9, [value](const char* text) { return std::strtof(text, nullptr) == value; });
}

std::string formatNumber(double value, int significantDigits)
{
    if (!std::isfinite(value))
        return nonFiniteText(value);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*g", significantDigits, value);
    return buffer;
}

std::optional<Error> checkParamValue(const ParamSpec& spec, double value,
                                     const std::string& context)
{
    const std::string where = context.empty() ? spec.key : context + ": " + spec.key;
    if (!std::isfinite(value))
        return Error{where + " is " + formatNumber(value) + "; it must be a finite number"};
    if (spec.type == ParamType::Choice) {
        const double count = static_cast<double>(spec.choices.size());
        if (value != std::floor(value) || value < 0 || value >= count) {
            std::string allowed;
            for (std::size_t i = 0; i < spec.choices.size(); ++i)
                allowed += (i ? ", " : "") + std::to_string(i) + " (" + spec.choices[i] + ")";
            return Error{where + " = " + formatNumber(value) +
                         " is not a valid choice; allowed: " + allowed};
        }
        return std::nullopt;
    }
    if (spec.type == ParamType::Integer && value != std::floor(value))
        return Error{where + " = " + formatNumber(value) + " must be a whole number in [" +
                     formatNumber(spec.minValue) + ", " + formatNumber(spec.maxValue) + "]"};
    if (value < spec.minValue || value > spec.maxValue)
        return Error{where + " = " + formatNumber(value) + " is out of range; allowed [" +
                     formatNumber(spec.minValue) + ", " + formatNumber(spec.maxValue) + "]" +
                     (spec.unit.empty() ? "" : " " + spec.unit)};
    return std::nullopt;
}

namespace {

std::optional<Error> checkIndex(const std::vector<ParamSpec>& specs, int index,
                                std::size_t valueCount, const std::string& table)
{
    if (index >= 0 && static_cast<std::size_t>(index) < std::min(specs.size(), valueCount))
        return std::nullopt;
    return Error{"no parameter with index " + std::to_string(index) + "; " + table + " has " +
                 std::to_string(specs.size())};
}

} // namespace

std::optional<Error> checkParamEdit(BehaviourKind kind, const ParamValues& current, int index,
                                    double value)
{
    const std::vector<ParamSpec>& specs = paramSpecs(kind);
    if (auto error = checkIndex(specs, index, current.size(), std::string(behaviourKey(kind))))
        return error;
    const auto i = static_cast<std::size_t>(index);
    if (auto error = checkParamValue(specs[i], value))
        return error;
    ParamValues values = current;
    values[i] = value;
    return checkParamRelations(kind, values);
}

std::optional<Error> checkPlayerParamEdit(int index, double value)
{
    const std::vector<ParamSpec>& specs = playerParamSpecs();
    if (auto error = checkIndex(specs, index, specs.size(), "the player"))
        return Error{"player: " + error->message};
    return checkParamValue(specs[static_cast<std::size_t>(index)], value, "player");
}

} // namespace shoal
