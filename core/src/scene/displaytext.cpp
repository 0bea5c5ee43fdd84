#include <shoal/displaytext.h>

#include <algorithm>
#include <cstdio>

namespace shoal {

namespace {

/// Length of the valid UTF-8 character starting at text[i] (1 to 4), or 0 when the bytes
/// there are not one (overlong forms and surrogates included).
std::size_t utf8Length(std::string_view text, std::size_t i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char b0 = byte(i);
    if (b0 < 0x80)
        return 1;
    std::size_t length = 0;
    unsigned int min = 0, code = 0;
    if ((b0 & 0xE0) == 0xC0) {
        length = 2, min = 0x80, code = b0 & 0x1Fu;
    } else if ((b0 & 0xF0) == 0xE0) {
        length = 3, min = 0x800, code = b0 & 0x0Fu;
    } else if ((b0 & 0xF8) == 0xF0) {
        length = 4, min = 0x10000, code = b0 & 0x07u;
    } else {
        return 0;
    }
    if (i + length > text.size())
        return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return 0;
        code = (code << 6) | (byte(i + k) & 0x3Fu);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
        return 0;
    return length;
}

void appendHex(std::string& out, const char* format, unsigned int value)
{
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, format, value);
    out += buffer;
}

} // namespace

std::string displayText(std::string_view text, std::size_t maxChars, bool* cut)
{
    if (cut)
        *cut = false;
    std::string out;
    out.reserve(std::min<std::size_t>(text.size(), maxChars ? 4 * maxChars + 32 : text.size()));
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size();) {
        if (maxChars != 0 && chars == maxChars) {
            out += "\u2026";
            if (cut)
                *cut = true;
            return out;
        }
        ++chars;
        const auto b = static_cast<unsigned char>(text[i]);
        const std::size_t length = utf8Length(text, i);
        if (length == 0) {
            appendHex(out, "\\x%02X", b);
            ++i;
        } else if (b < 0x20 || b == 0x7F) {
            switch (b) {
            case '\n':
                out += "\\n";
                break;
            case '\t':
                out += "\\t";
                break;
            case '\r':
                out += "\\r";
                break;
            case 0:
                out += "\\0";
                break;
            default:
                appendHex(out, "\\x%02X", b);
            }
            ++i;
        } else if (length == 2 && b == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0) {
            appendHex(out, "\\u%04X", static_cast<unsigned char>(text[i + 1])); // C1 control
            i += 2;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

std::string quotedName(std::string_view text, std::size_t maxChars, char quote)
{
    bool cut = false;
    std::string shown = quote + displayText(text, maxChars, &cut) + quote;
    if (cut)
        shown += " (" + std::to_string(text.size()) + " bytes)";
    return shown;
}

} // namespace shoal
