#include "jsonreading.h"

#include <shoal/displaytext.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

namespace shoal::jsonread {
namespace {

/// Builds the document from nlohmann's SAX events. Going through SAX rather than
/// Json::parse gives the byte position of every error (a number overflow included, which
/// Json::parse reports without one) and lets us refuse duplicate keys, which Json::parse
/// silently resolves by keeping the last value.
class DocumentBuilder
{
public:
    explicit DocumentBuilder(Json& root) : m_root(root) {}

    bool null() { return place(Json(nullptr)); }
    bool boolean(bool value) { return place(Json(value)); }
    bool number_integer(Json::number_integer_t value) { return place(Json(value)); }
    bool number_unsigned(Json::number_unsigned_t value) { return place(Json(value)); }
    bool number_float(Json::number_float_t value, const std::string&) { return place(Json(value)); }
    bool string(std::string& value) { return place(Json(std::move(value))); }
    bool binary(Json::binary_t& value) { return place(Json::binary(std::move(value))); }
    bool start_object(std::size_t) { return open(Json::object()); }
    bool start_array(std::size_t) { return open(Json::array()); }
    bool end_object() { return close(); }
    bool end_array() { return close(); }
    bool key(std::string& name)
    {
        m_key = name;
        if (m_stack.back().value->contains(name) && !m_duplicate) {
            const std::string& path = m_stack.back().path;
            m_duplicate = (path.empty() ? std::string() : path + ": ") + "duplicate key " +
                          quotedName(name) + "; each key may appear only once in an object";
        }
        return true;
    }
    bool parse_error(std::size_t position, const std::string&, const Json::exception& error)
    {
        m_errorPosition = position;
        m_errorMessage = error.what();
        return false;
    }

    /// Far deeper than any scene (which nests 6 levels: groups[i].agents[j].position); refusing
    /// early keeps a hostile file from costing quadratic time in the path bookkeeping.
    static constexpr std::size_t kMaxDepth = 64;

    bool tooDeep() const { return m_tooDeep; }
    std::size_t errorPosition() const { return m_errorPosition; }
    const std::string& errorMessage() const { return m_errorMessage; }
    const std::optional<std::string>& duplicate() const { return m_duplicate; }

private:
    struct Open
    {
        Json* value;
        std::string path;
    };

    /// Path of the value about to be placed, e.g. "groups[2].spawn".
    std::string nextPath() const
    {
        if (m_stack.empty())
            return {};
        const Open& parent = m_stack.back();
        if (parent.value->is_array())
            return parent.path + "[" + std::to_string(parent.value->size()) + "]";
        return parent.path.empty() ? m_key : parent.path + "." + m_key;
    }

    Json* insert(Json value)
    {
        if (m_stack.empty()) {
            m_root = std::move(value);
            return &m_root;
        }
        Json& parent = *m_stack.back().value;
        if (parent.is_array()) {
            parent.push_back(std::move(value));
            return &parent.back();
        }
        Json& slot = parent[m_key];
        slot = std::move(value);
        return &slot;
    }

    bool place(Json value)
    {
        insert(std::move(value));
        return true;
    }

    bool open(Json value)
    {
        if (m_stack.size() >= kMaxDepth) {
            m_tooDeep = true;
            return false;
        }
        std::string path = nextPath();
        // Only the last element of an array is ever open, so this pointer stays valid until
        // the container is closed.
        m_stack.push_back({insert(std::move(value)), std::move(path)});
        return true;
    }

    bool close()
    {
        m_stack.pop_back();
        return true;
    }

    Json& m_root;
    std::vector<Open> m_stack;
    std::string m_key;
    std::size_t m_errorPosition = 0;
    std::string m_errorMessage;
    std::optional<std::string> m_duplicate;
    bool m_tooDeep = false;
};

bool isWordChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' ||
           c == '-' || c == '.';
}

/// Byte offset where the token that nlohmann stopped in begins. nlohmann reports the last
/// character it read (the closing quote of a string, the last digit of a number); a reader
/// looks for the start of the word, so step back over the string or word it ends.
std::size_t tokenStart(const std::string& text, std::size_t position)
{
    if (position == 0 || position > text.size())
        return std::min(position == 0 ? 0 : position - 1, text.size());
    std::size_t at = position - 1;
    if (text[at] == '"') {
        for (std::size_t i = at; i-- > 0 && text[i] != '\n';) {
            std::size_t backslashes = 0;
            while (backslashes < i && text[i - 1 - backslashes] == '\\')
                ++backslashes;
            if (text[i] == '"' && backslashes % 2 == 0)
                return i;
        }
        return at;
    }
    while (at > 0 && isWordChar(text[at]) && isWordChar(text[at - 1]))
        --at;
    return at;
}

} // namespace

/// nlohmann's message without its "[json.exception...]" tag, its own "at line L, column C"
/// (we print ours in front) and its "last read" dump, which shows the whole token buffer.
std::string cleanParseMessage(std::string message)
{
    if (message.rfind("[json.exception.", 0) == 0) {
        const std::size_t end = message.find("] ");
        if (end != std::string::npos)
            message.erase(0, end + 2);
    }
    if (message.rfind("parse error", 0) == 0) {
        const std::size_t colon = message.find(": ");
        if (colon != std::string::npos)
            message.erase(0, colon + 2);
    }
    const std::string lastRead = "; last read: '";
    const std::size_t from = message.find(lastRead);
    if (from != std::string::npos) {
        const std::size_t expected = message.find("'; expected", from + lastRead.size());
        if (expected != std::string::npos)
            message.erase(from, expected + 1 - from);
        else
            message.erase(from);
    }
    // A token nlohmann quotes ("number overflow parsing '1e400'") may be a megabyte long.
    const std::string parsing = "parsing '";
    const std::size_t token = message.find(parsing);
    if (token != std::string::npos) {
        const std::size_t begin = token + parsing.size() - 1;
        const std::size_t end = message.rfind('\'');
        if (end > begin)
            message.replace(
                begin, end + 1 - begin,
                quotedName(std::string_view(message).substr(begin + 1, end - begin - 1)));
    }
    return message;
}

/// Line and column (1-based; the column counts UTF-8 characters) of byte offset `offset`.
std::pair<std::size_t, std::size_t> lineAndColumn(const std::string& text, std::size_t offset)
{
    const std::size_t end = std::min(offset, text.size());
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i < end; ++i) {
        const auto byte = static_cast<unsigned char>(text[i]);
        if (byte == '\n') {
            ++line;
            column = 1;
        } else if ((byte & 0xC0) != 0x80) {
            ++column;
        }
    }
    return {line, column};
}

[[noreturn]] void fail(const std::string& path, const std::string& what)
{
    throw ReadFailure{path.empty() ? what : path + ": " + what};
}

std::string childPath(const std::string& path, const std::string& key)
{
    return path.empty() ? key : path + "." + key;
}

std::string elementPath(const std::string& path, std::size_t index)
{
    return path + "[" + std::to_string(index) + "]";
}

/// Shortest form that reads back as the same double; whole numbers without ".0"; -0 as 0.
std::string formatDouble(double value)
{
    if (value == 0.0)
        return "0";
    std::string text = Json(value).dump();
    if (text.size() > 2 && text.compare(text.size() - 2, 2, ".0") == 0)
        text.resize(text.size() - 2);
    return text;
}

std::string quoted(const std::string& text)
{
    return quotedName(text, 40, '"');
}

/// What a value is, for "expected X, got Y".
std::string describe(const Json& value)
{
    switch (value.type()) {
    case Json::value_t::null:
        return "null";
    case Json::value_t::boolean:
        return value.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
        return "number " + value.dump();
    case Json::value_t::number_float:
        // As written, near enough: a whole number keeps its ".0" (1.0 is not the integer 1).
        return "number " + value.dump();
    case Json::value_t::string:
        return "string " + quoted(value.get<std::string>());
    case Json::value_t::array:
        return "array";
    case Json::value_t::object:
        return "object";
    default:
        return value.type_name();
    }
}

std::string joinKeys(const Keys& keys)
{
    std::string out;
    for (const std::string& key : keys)
        out += (out.empty() ? "" : ", ") + key;
    return out;
}

namespace {

/// Case-insensitive edit distance, for "did you mean" hints on typos.
std::size_t editDistance(const std::string& a, const std::string& b)
{
    const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; };
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + cost});
            diagonal = above;
        }
    }
    return row[b.size()];
}

} // namespace

std::string suggestion(const std::string& word, const Keys& candidates)
{
    std::size_t best = std::string::npos;
    std::string bestKey;
    for (const std::string& key : candidates) {
        const std::size_t d = editDistance(word, key);
        if (d < best) {
            best = d;
            bestKey = key;
        }
    }
    const std::size_t tolerance =
        std::max<std::size_t>(1, std::min<std::size_t>(3, word.size() / 3));
    return best <= tolerance ? " (did you mean '" + bestKey + "'?)" : "";
}

const Json& expectObject(const Json& value, const std::string& path)
{
    if (!value.is_object())
        fail(path, "expected an object, got " + describe(value));
    return value;
}

const Json& expectArray(const Json& value, const std::string& path)
{
    if (!value.is_array())
        fail(path, "expected an array, got " + describe(value));
    return value;
}

/// Refuses any key outside `allowed`: a typo such as "keepWieght" must not be ignored.
void checkKeys(const Json& object, const std::string& path, const Keys& allowed)
{
    for (auto it = object.begin(); it != object.end(); ++it) {
        if (std::find(allowed.begin(), allowed.end(), it.key()) == allowed.end())
            fail(path, "unknown key " + quotedName(it.key()) + suggestion(it.key(), allowed) +
                           "; allowed keys: " + joinKeys(allowed));
    }
}

const Json& required(const Json& object, const std::string& path, const std::string& key)
{
    const auto it = object.find(key);
    if (it == object.end())
        fail(path, "missing required field '" + key + "'");
    return *it;
}

const Json* optionalField(const Json& object, const std::string& key)
{
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

double readNumber(const Json& value, const std::string& path)
{
    if (!value.is_number())
        fail(path, "expected a number, got " + describe(value));
    return value.get<double>();
}

bool readBool(const Json& value, const std::string& path)
{
    if (!value.is_boolean())
        fail(path, "expected true or false, got " + describe(value));
    return value.get<bool>();
}

std::string readString(const Json& value, const std::string& path)
{
    if (!value.is_string())
        fail(path, "expected a string, got " + describe(value));
    return value.get<std::string>();
}

/// For a number written with a fraction or exponent whose value is whole (1.0, 2e1): why it is
/// not the integer it equals.
std::string wholeFloatHint(const Json& value)
{
    if (!value.is_number_float())
        return {};
    const double v = value.get<double>();
    if (!std::isfinite(v) || std::floor(v) != v)
        return {};
    return " (an integer is written without a fraction or exponent, e.g. " +
           (std::fabs(v) < 1e15 ? formatDouble(v) : std::string("3")) + ")";
}

/// A whole number in [lo, hi].
int readInteger(const Json& value, const std::string& path, int lo, int hi)
{
    if (!value.is_number_integer())
        fail(path, "expected an integer, got " + describe(value) + wholeFloatHint(value));
    const bool fits = value.is_number_unsigned()
                          ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(hi) &&
                                static_cast<std::int64_t>(value.get<std::uint64_t>()) >= lo
                          : value.get<std::int64_t>() >= lo && value.get<std::int64_t>() <= hi;
    if (!fits)
        fail(path, value.dump() + " is out of range; allowed [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]");
    return static_cast<int>(value.get<std::int64_t>());
}

Keys keysOf(const std::vector<ParamSpec>& specs)
{
    Keys keys;
    keys.reserve(specs.size());
    for (const ParamSpec& spec : specs)
        keys.push_back(spec.key);
    return keys;
}

/// Missing parameters keep their default; ranges are checked later by validateScene.
ParamValues readParams(const Json& value, const std::string& path,
                       const std::vector<ParamSpec>& specs)
{
    expectObject(value, path);
    checkKeys(value, path, keysOf(specs));
    ParamValues values = defaultParamValues(specs);
    for (std::size_t i = 0; i < specs.size(); ++i)
        if (const Json* field = optionalField(value, specs[i].key))
            values[i] = readNumber(*field, childPath(path, specs[i].key));
    return values;
}

Expected<Json> parseObjectText(const std::string& text, const std::string& fileName,
                               const std::string& noun)
{
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        return Error{fileName + ": the file is empty; a " + noun +
                     " is a JSON object starting with '{'"};

    Json document;
    DocumentBuilder builder(document);
    if (!Json::sax_parse(text, &builder, Json::input_format_t::json, true, false)) {
        if (builder.tooDeep())
            return Error{fileName + ": arrays and objects are nested more than " +
                         std::to_string(DocumentBuilder::kMaxDepth) +
                         " levels deep; this is not a Shoal " + noun};
        const std::size_t start = tokenStart(text, builder.errorPosition());
        const auto [line, column] = lineAndColumn(text, start);
        std::string message = cleanParseMessage(builder.errorMessage());
        for (const char* word : {"NaN", "Infinity", "-Infinity", "nan", "inf", "-inf"})
            if (text.compare(start, std::strlen(word), word) == 0)
                message += "; NaN and Infinity are not JSON numbers, write a finite number";
        if (text.compare(start, 2, "//") == 0 || text.compare(start, 2, "/*") == 0)
            message += "; comments are not allowed in " + noun + " files";
        return Error{fileName + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                     message};
    }
    if (builder.duplicate())
        return Error{fileName + ": " + *builder.duplicate()};
    if (!document.is_object())
        return Error{fileName + ": expected a JSON object (a Shoal " + noun +
                     ") at the top level, got " + describe(document)};
    return document;
}

} // namespace shoal::jsonread
