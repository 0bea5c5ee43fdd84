#pragma once
/// Binds a family's ParamSpec table to the named fields of its params struct, so each
/// parameter is described once and read into the struct without index bookkeeping; and the
/// family's rules between parameters, written once each in the same terms.

#include <shoal/paramspec.h>
#include <shoal/vec2.h>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shoal {

/// How a file value converts to the runtime field.
enum class ParamScale
{
    None,    ///< stored as is
    Degrees, ///< authored in degrees (or deg/s), used in radians
};

template <class Params> struct ParamField
{
    ParamSpec spec;
    float Params::*member;
    ParamScale scale = ParamScale::None;
};

template <class Params, std::size_t N>
std::vector<ParamSpec> specsOf(const ParamField<Params> (&fields)[N])
{
    std::vector<ParamSpec> specs;
    specs.reserve(N);
    for (const auto& field : fields)
        specs.push_back(field.spec);
    return specs;
}

/// `specs` with the view handles of `handles` (key, handle) set on the parameters they name.
inline std::vector<ParamSpec>
withHandles(std::vector<ParamSpec> specs,
            const std::vector<std::pair<std::string, ParamHandle>>& handles)
{
    for (const auto& [key, handle] : handles)
        for (ParamSpec& spec : specs)
            if (spec.key == key)
                spec.handle = handle;
    return specs;
}

/// Reads values (table order, already validated) into a params struct.
template <class Params, std::size_t N>
Params paramsFrom(const ParamField<Params> (&fields)[N], const ParamValues& values)
{
    Params params;
    for (std::size_t i = 0; i < N && i < values.size(); ++i) {
        float v = static_cast<float>(values[i]);
        if (fields[i].scale == ParamScale::Degrees)
            v = degToRad(v);
        params.*(fields[i].member) = v;
    }
    return params;
}

/// One set of values as a rule reads it: the params struct in runtime units (floats,
/// radians) and each field's authored value (a double as in the file, e.g. degrees).
template <class Params> class ParamReading
{
public:
    template <std::size_t N>
    ParamReading(const ParamField<Params> (&fields)[N], const ParamValues& values)
        : m_params(paramsFrom(fields, values)), m_fields(fields), m_count(N), m_values(values)
    {
    }

    /// The values in runtime units, as the family runs on them.
    const Params& params() const { return m_params; }

    /// The authored value of the field `member` (its default when `values` is short).
    double authored(float Params::*member) const
    {
        for (std::size_t i = 0; i < m_count; ++i)
            if (m_fields[i].member == member)
                return i < m_values.size() ? m_values[i] : m_fields[i].spec.defaultValue;
        return 0.0;
    }
    /// authored(member) as a message shows it.
    std::string text(float Params::*member) const { return formatNumber(authored(member)); }

private:
    Params m_params;
    const ParamField<Params>* m_fields;
    std::size_t m_count;
    const ParamValues& m_values;
};

/// A rule between parameters of one family: `holds` tells whether a reading keeps it;
/// `message` says why one does not, naming every parameter involved.
template <class Params> struct ParamRule
{
    bool (*holds)(const ParamReading<Params>& reading);
    std::string (*message)(const ParamReading<Params>& reading);
};

/// The first of `rules` that `values` break, or nothing: every family checks its rules
/// between parameters through this one function.
template <class Params, std::size_t N, std::size_t R>
std::optional<Error> checkRules(const ParamField<Params> (&fields)[N],
                                const std::array<ParamRule<Params>, R>& rules,
                                const ParamValues& values)
{
    if (rules.empty())
        return std::nullopt;
    const ParamReading<Params> reading(fields, values);
    for (const ParamRule<Params>& rule : rules)
        if (!rule.holds(reading))
            return Error{rule.message(reading)};
    return std::nullopt;
}

} // namespace shoal
