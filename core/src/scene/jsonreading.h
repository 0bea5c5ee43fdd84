#pragma once
// Reading Shoal's JSON files (scenes, presets): text to a JSON document with every syntax
// error placed by line and column, and the typed readers that name the field, the value and
// what is allowed. Internal to the core; scenefile.cpp and preset.cpp share it.

#include <shoal/expected.h>
#include <shoal/paramspec.h>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace shoal::jsonread {

using Json = nlohmann::json;
using Keys = std::vector<std::string>;

/// Parses `text` as one JSON object: a syntax error reads "<fileName>:<line>:<column>: ...",
/// duplicate keys and nesting deeper than 64 are refused, and an empty text or a top level
/// that is not an object is named as "not a Shoal <noun>" ("scene", "preset"). The caller
/// checks the size and NUL bytes first; std::bad_alloc may escape.
Expected<Json> parseObjectText(const std::string& text, const std::string& fileName,
                               const std::string& noun);

/// nlohmann's message without its "[json.exception...]" tag, its own "at line L, column C"
/// and its "last read" dump, which shows the whole token buffer.
std::string cleanParseMessage(std::string message);
/// Line and column (1-based; the column counts UTF-8 characters) of byte offset `offset`.
std::pair<std::size_t, std::size_t> lineAndColumn(const std::string& text, std::size_t offset);

/// Thrown by the readers below and caught by the file's parse function: one throw abandons
/// the half-read document, so a caller can never receive one. The message is
/// "path: what is wrong".
struct ReadFailure
{
    std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what);

/// "a.b" from "a" and "b"; "b" from "" and "b".
std::string childPath(const std::string& path, const std::string& key);
/// "a[3]".
std::string elementPath(const std::string& path, std::size_t index);
/// Shortest form that reads back as the same double; whole numbers without ".0"; -0 as 0.
std::string formatDouble(double value);
/// A string as messages quote it (shortened when long).
std::string quoted(const std::string& text);
/// What a value is, for "expected X, got Y".
std::string describe(const Json& value);
/// "a, b, c".
std::string joinKeys(const Keys& keys);
/// " (did you mean 'x'?)" for a near miss of one of `candidates`, else "".
std::string suggestion(const std::string& word, const Keys& candidates);

const Json& expectObject(const Json& value, const std::string& path);
const Json& expectArray(const Json& value, const std::string& path);
/// Refuses any key outside `allowed`: a typo such as "keepWieght" must not be ignored.
void checkKeys(const Json& object, const std::string& path, const Keys& allowed);
const Json& required(const Json& object, const std::string& path, const std::string& key);
const Json* optionalField(const Json& object, const std::string& key);
double readNumber(const Json& value, const std::string& path);
bool readBool(const Json& value, const std::string& path);
std::string readString(const Json& value, const std::string& path);
/// For a number written with a fraction or exponent whose value is whole (1.0, 2e1): why it is
/// not the integer it equals.
std::string wholeFloatHint(const Json& value);
/// A whole number in [lo, hi].
int readInteger(const Json& value, const std::string& path, int lo, int hi);

/// The keys of a parameter table, in order.
Keys keysOf(const std::vector<ParamSpec>& specs);
/// A parameter object: unknown keys refused, missing parameters keep their default; ranges
/// are checked later (validateScene, checkParamValue).
ParamValues readParams(const Json& value, const std::string& path,
                       const std::vector<ParamSpec>& specs);

} // namespace shoal::jsonread
