#include "clisupport.h"

#include "embeddedscenes.h"
#include <shoal/displaytext.h>
#include <shoal/paramspec.h>
#include <shoal/scenefile.h>

#include <QFile>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

namespace shoal::cli {

namespace {

constexpr std::size_t kFlushSize = 1 << 20;
/// The largest --max-file-size, MB.
constexpr long long kMaxFileSizeMegabytes = 16384;

/// What readTextFile() takes in (--max-file-size).
std::size_t g_maxFileBytes = kDefaultMaxSceneBytes;

} // namespace

std::size_t maxFileBytes()
{
    return g_maxFileBytes;
}

bool sameFile(const QString& a, const QString& b)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path pa = fs::absolute(a.toStdString(), ec), pb = fs::absolute(b.toStdString(), ec);
    if (fs::exists(pa, ec) && fs::exists(pb, ec))
        return fs::equivalent(pa, pb, ec);
    const fs::path ca = fs::weakly_canonical(pa, ec);
    if (ec)
        return a == b;
    const fs::path cb = fs::weakly_canonical(pb, ec);
    return ec ? a == b : ca == cb;
}

Error outOfMemory(const std::string& displayName)
{
    return Error{displayName +
                 ": not enough memory to build and run this level: it keeps every limit of "
                 "docs/scene-format.md but needs more memory than this machine can give "
                 "(fewer agents, worms, routed groups or smaller bounds need less)"};
}

void printError(const std::string& message)
{
    // Whatever a message quotes from a file or the command line reaches a terminal: control
    // characters and bytes that are no UTF-8 are escaped (core quotes its values that way; this
    // catches the rest), and a NUL no longer ends it. Line breaks a message makes stay.
    std::string shown;
    std::size_t from = 0;
    for (std::size_t at; (at = message.find('\n', from)) != std::string::npos; from = at + 1)
        shown += displayText(std::string_view(message).substr(from, at - from), 0) + "\n";
    shown += displayText(std::string_view(message).substr(from), 0);
    std::fprintf(stderr, "shoal-cli: %s\n", shown.c_str());
    std::fflush(stderr);
}

std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                    const QString& command, const QString& usage)
{
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help and exit."));
    const QCommandLineOption maxFileSize(
        QStringLiteral("max-file-size"),
        QStringLiteral("Read scene and input files of up to <MB> megabytes (default %1).")
            .arg(static_cast<qulonglong>(kDefaultMaxSceneBytes >> 20)),
        QStringLiteral("MB"));
    parser.addOption(maxFileSize);
    parser.addOption(help);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    if (!parser.parse(arguments)) {
        printError(command.toStdString() + ": " + parser.errorText().toStdString() +
                   "; see 'shoal-cli " + command.toStdString() + " --help'");
        return kExitBadInput;
    }
    if (parser.isSet(maxFileSize)) {
        bool ok = false;
        const long long megabytes = parser.value(maxFileSize).toLongLong(&ok);
        if (!ok || megabytes < 1 || megabytes > kMaxFileSizeMegabytes) {
            printError(command.toStdString() + ": --max-file-size '" +
                       parser.value(maxFileSize).toStdString() +
                       "' must be a whole number of megabytes in [1, " +
                       std::to_string(kMaxFileSizeMegabytes) + "]");
            return kExitBadInput;
        }
        g_maxFileBytes = static_cast<std::size_t>(megabytes) << 20;
    }
    if (parser.isSet(help)) {
        // Qt's first line names only the program; ours shows the command and its arguments.
        QString text = parser.helpText();
        const int firstNewline = text.indexOf(QLatin1Char('\n'));
        text = QStringLiteral("Usage: ") + usage + text.mid(firstNewline);
        std::fputs(text.toLocal8Bit().constData(), stdout);
        return kExitOk;
    }
    return std::nullopt;
}

std::optional<std::uint64_t> parseSeed(const QString& text)
{
    const QString trimmed = text.trimmed();
    const bool hex = trimmed.startsWith(QLatin1String("0x"), Qt::CaseInsensitive);
    const QString digits = hex ? trimmed.mid(2) : trimmed;
    if (digits.isEmpty() || digits.startsWith(QLatin1Char('-')) ||
        digits.startsWith(QLatin1Char('+')))
        return std::nullopt;
    bool ok = false;
    const qulonglong value = digits.toULongLong(&ok, hex ? 16 : 10);
    if (!ok)
        return std::nullopt;
    return static_cast<std::uint64_t>(value);
}

SceneSource sceneSource(const QString& argument)
{
    if (argument.isEmpty() || argument == QLatin1String("demo"))
        return {"demo", resources::demoScenePath()};
    return {argument.toStdString(), argument};
}

Expected<std::string> readTextFile(const QString& path, const std::string& displayName)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Error{displayName + ": cannot open: " + file.errorString().toStdString()};
    // A file's size is known at once; a device or a pipe is read until one byte past the
    // limit, never to the end (/dev/zero has none).
    const std::size_t limit = g_maxFileBytes;
    if (!file.isSequential() && static_cast<std::size_t>(file.size()) > limit)
        return fileTooBig(displayName, describeBytes(static_cast<std::size_t>(file.size())), limit);
    std::string text;
    QByteArray block;
    for (;;) {
        block = file.read(1 << 16);
        if (block.isEmpty())
            break;
        if (text.size() + static_cast<std::size_t>(block.size()) > limit)
            return fileTooBig(displayName, "more than " + describeBytes(limit), limit);
        text.append(block.constData(), static_cast<std::size_t>(block.size()));
        // Text never holds a NUL byte: a binary file or a device of zeros stops here.
        if (auto error = nulByteError(displayName, text, text.size() - block.size()))
            return *error;
    }
    if (file.error() != QFileDevice::NoError)
        return Error{displayName + ": cannot read: " + file.errorString().toStdString()};
    return text;
}

Expected<CheckedScene> loadScene(const SceneSource& source)
{
    auto text = readTextFile(source.path, source.displayName);
    if (!text)
        return text.error();
    SceneReadOptions options;
    options.maxFileBytes = g_maxFileBytes;
    return parseCheckedScene(*text, source.displayName, options);
}

OutputFile::OutputFile(const QString& path) : m_file(path.toStdString()) {}

std::optional<Error> OutputFile::open()
{
    return m_file.open();
}

void OutputFile::write(std::string_view text)
{
    m_buffer.append(text);
    flushIfLarge();
}

void OutputFile::flushIfLarge()
{
    if (m_buffer.size() >= kFlushSize)
        flushBuffer();
}

void OutputFile::flushBuffer()
{
    m_file.write(m_buffer);
    m_buffer.clear();
}

std::optional<Error> OutputFile::commit()
{
    flushBuffer();
    return m_file.commit();
}

std::string formatFixed(double value, int decimals)
{
    if (!std::isfinite(value))
        return formatNumber(value);
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    // "-0.000" reads as a sign error in a table.
    if (buffer[0] == '-' && std::strtod(buffer, nullptr) == 0.0)
        return buffer + 1;
    return buffer;
}

std::string formatHash(std::uint64_t hash)
{
    char buffer[17];
    std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(hash));
    return buffer;
}

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char escaped[8];
                std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(c));
                out += escaped;
            } else {
                out += c;
            }
        }
    }
    out += '"';
}

void JsonWriter::separator()
{
    if (m_afterKey) {
        m_afterKey = false;
        return;
    }
    if (!m_first.empty()) {
        if (!m_first.back())
            m_text += ',';
        m_first.back() = false;
    }
    if (m_newlinePending) {
        m_text += '\n';
        m_newlinePending = false;
    }
}

JsonWriter& JsonWriter::beginObject()
{
    separator();
    m_text += '{';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endObject()
{
    m_text += '}';
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::beginArray()
{
    separator();
    m_text += '[';
    m_first.push_back(true);
    return *this;
}

JsonWriter& JsonWriter::endArray()
{
    m_text += ']';
    m_first.pop_back();
    return *this;
}

JsonWriter& JsonWriter::key(std::string_view name)
{
    separator();
    appendJsonString(m_text, name);
    m_text += ':';
    m_afterKey = true;
    return *this;
}

JsonWriter& JsonWriter::value(std::string_view text)
{
    separator();
    appendJsonString(m_text, text);
    return *this;
}

JsonWriter& JsonWriter::value(double number)
{
    separator();
    m_text += std::isfinite(number) ? formatNumber(number) : "null";
    return *this;
}

JsonWriter& JsonWriter::value(float number)
{
    separator();
    m_text += std::isfinite(number) ? formatFloat(number) : "null";
    return *this;
}

JsonWriter& JsonWriter::value(long long number)
{
    separator();
    m_text += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(unsigned long long number)
{
    separator();
    m_text += std::to_string(number);
    return *this;
}

JsonWriter& JsonWriter::value(bool flag)
{
    separator();
    m_text += flag ? "true" : "false";
    return *this;
}

JsonWriter& JsonWriter::null()
{
    separator();
    m_text += "null";
    return *this;
}

JsonWriter& JsonWriter::newline()
{
    m_newlinePending = true;
    return *this;
}

// A CSV field: quoted when it holds a comma, quote or line break.
std::string csvField(const std::string& text)
{
    if (text.find_first_of(",\"\r\n") == std::string::npos)
        return text;
    std::string quoted = "\"";
    for (const char c : text)
        quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

} // namespace shoal::cli
