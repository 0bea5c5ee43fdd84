#pragma once
/// Binds a family's ParamSpec table to the named fields of its params struct, so each
/// parameter is described once and read into the struct without index bookkeeping.

#include <shoal/paramspec.h>
#include <shoal/vec2.h>

#include <cstddef>
#include <vector>

namespace shoal {

/// How a file value converts to the runtime field.
enum class ParamScale {
    None,    ///< stored as is
    Degrees, ///< authored in degrees (or deg/s), used in radians
};

template <class Params>
struct ParamField
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

/// The authored value (as in the file, e.g. degrees) of the field `member`, for messages.
template <class Params, std::size_t N>
double authoredValue(const ParamField<Params> (&fields)[N], const ParamValues& values,
                     float Params::*member)
{
    for (std::size_t i = 0; i < N && i < values.size(); ++i)
        if (fields[i].member == member)
            return values[i];
    return 0.0;
}

} // namespace shoal
