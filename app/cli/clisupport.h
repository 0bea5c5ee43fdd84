#pragma once
/// Shared pieces of shoal-cli: exit codes, option parsing per command, loading scenes (files
/// or the embedded demo), safe output files, and a small JSON writer for its outputs.

#include <shoal/expected.h>
#include <shoal/paramspec.h>
#include <shoal/scenedesc.h>
#include <shoal/scenefile.h>

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shoal::cli {

enum ExitCode
{
    kExitOk = 0,
    kExitCheckFailed = 1, ///< the run finished but a check (wall crossings) failed
    kExitBadInput = 2,    ///< bad arguments, unreadable or invalid files, refused values
};

/// Prints "shoal-cli: <message>" on stderr (one line).
/// The refusal when building or running `displayName`'s level ran out of memory: the level
/// keeps every limit (docs/scene-format.md, "Limits") but needs more than this machine gives.
Error outOfMemory(const std::string& displayName);
void printError(const std::string& message);

/// Parses `arguments` (program name first) for one command. Returns kExitOk to go on, or the
/// exit code to return at once: --help printed (0) or an option error printed (2).
std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    const QString& command, const QString& usage);

/// A seed: decimal, or hexadecimal with a 0x prefix (a leading 0 is not octal).
std::optional<std::uint64_t> parseSeed(const QString& text);

/// The name a scene argument is shown under, and where it is read from.
struct SceneSource
{
    std::string displayName; ///< the argument as given, or "demo"
    QString path;            ///< file path, or the demo's resource path
};

/// An empty argument or "demo" is the embedded demo scene; anything else is a file path.
SceneSource sceneSource(const QString& argument);

/// Whether two paths name one file: the same path however spelled (./a, dir/../a), or one
/// file reached both ways (a link), whether or not it exists yet.
bool sameFile(const QString& a, const QString& b);

/// How many bytes readTextFile() takes in (--max-file-size; kDefaultMaxSceneBytes).
std::size_t maxFileBytes();

/// Reads a whole text file (or resource) of at most maxFileBytes(); the error names the file
/// and the reason.
Expected<std::string> readTextFile(const QString& path, const std::string& displayName);

/// Reads and parses a scene; errors start with the display name.
Expected<CheckedScene> loadScene(const SceneSource& source);

/// An output file written through the core's AtomicFileWriter: nothing appears at the path
/// unless commit() succeeds. Text is buffered and written in large blocks.
class OutputFile
{
public:
    explicit OutputFile(const QString& path);
    /// Opens the temporary file; the error names the path.
    std::optional<Error> open();
    void write(std::string_view text);
    std::string& buffer() { return m_buffer; }
    /// Writes out the buffer when it is large (call after appending to buffer()).
    void flushIfLarge();
    /// Flushes and renames into place; the error names the path.
    std::optional<Error> commit();

private:
    void flushBuffer();
    AtomicFileWriter m_file;
    std::string m_buffer;
};

// Numbers in shortest form are core's formatNumber() (doubles) and formatFloat() (floats).

/// Fixed number of decimals (text tables and CSV columns).
std::string formatFixed(double value, int decimals);
/// A CSV field: quoted when it holds a comma, quote or line break.
std::string csvField(const std::string& text);
/// "%016llx": the state hash as 16 lowercase hex digits.
std::string formatHash(std::uint64_t hash);

/// Builds compact JSON text. Non-finite numbers are written as null.
class JsonWriter
{
public:
    JsonWriter& beginObject();
    JsonWriter& endObject();
    JsonWriter& beginArray();
    JsonWriter& endArray();
    JsonWriter& key(std::string_view name);
    JsonWriter& value(std::string_view text);
    JsonWriter& value(const char* text) { return value(std::string_view(text)); }
    JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
    JsonWriter& value(double number);
    JsonWriter& value(float number);
    JsonWriter& value(int number) { return value(static_cast<long long>(number)); }
    JsonWriter& value(long number) { return value(static_cast<long long>(number)); }
    JsonWriter& value(long long number);
    JsonWriter& value(unsigned long long number);
    JsonWriter& value(unsigned long number)
    {
        return value(static_cast<unsigned long long>(number));
    }
    JsonWriter& value(bool flag);
    JsonWriter& null();
    /// Puts the next element on a new line (readable arrays of rows).
    JsonWriter& newline();
    const std::string& text() const { return m_text; }
    std::string& text() { return m_text; }

private:
    void separator();
    std::string m_text;
    std::vector<bool> m_first; ///< per open container: no element written yet
    bool m_afterKey = false;
    bool m_newlinePending = false;
};

/// Appends `text` as a quoted JSON string.
void appendJsonString(std::string& out, std::string_view text);

} // namespace shoal::cli
