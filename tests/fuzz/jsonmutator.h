#pragma once
/// Structure-aware mutation of scene files for the fuzzers: the text is parsed as JSON, one
/// value, key or element is changed with the scene format in mind (its keys, its kinds, the
/// parameter tables' keys and ranges, the limits of scenelimits.h, the group names the file
/// uses), and the document is written back. Byte flips mostly stop at the first syntax error;
/// these mutants are well-formed JSON and reach the scene checks and the runtime.

#include <cstdint>
#include <random>
#include <string>

namespace shoal::fuzz {

/// What the mutations aim at.
enum class MutationStyle
{
    /// Every way a file can go wrong: wrong types, unknown and misspelt keys, values on and
    /// past every limit. For the parser.
    Anything,
    /// Scenes that still load, mostly: values moved within their ranges, elements copied or
    /// dropped, a group's family changed with its parameters, groups and walls from other
    /// scenes. For the runtime, which sees only what loads.
    MostlyValid,
};

/// The style of the harness this is linked into: each harness that links the scene mutator
/// defines it.
extern const MutationStyle kSceneMutationStyle;

/// Changes `text` (a JSON document) by one structural mutation drawn from `random`. Returns
/// false, leaving `text` as it was, when `text` is not JSON (the caller mutates bytes instead).
bool mutateJsonText(std::string& text, std::mt19937_64& random, MutationStyle style);

/// Replaces a random value of `into` with a random value of `from` (both JSON documents): a
/// group, a wall or a parameter block moves from one scene into another. Returns false when
/// either is not JSON.
bool crossOverJsonTexts(std::string& into, const std::string& from, std::mt19937_64& random);

} // namespace shoal::fuzz
