#pragma once
/// Text from a file or a command line, made fit to show in a message: a name, a key or a token
/// may hold control characters (a NUL cuts a C string short, an escape sequence drives the
/// terminal), bytes that are no UTF-8, or a megabyte of one word.

#include <cstddef>
#include <shoal/export.h>
#include <string>
#include <string_view>

namespace shoal {

/// Characters of a value a message shows before it cuts it short.
constexpr std::size_t kShownChars = 60;

/// `text` with every control character (C0, DEL, C1) written as an escape (\n, \t, \r, \0,
/// \xNN, \u0085) and every byte that is not part of a valid UTF-8 character as \xNN; longer
/// than `maxChars` characters, cut there with "…" (and `*cut` set). maxChars 0: never cut.
SHOAL_API std::string displayText(std::string_view text, std::size_t maxChars = kShownChars,
                                  bool* cut = nullptr);

/// displayText() between `quote` characters, and the length when it was cut:
/// `'abc…' (1048576 bytes)`.
SHOAL_API std::string quotedName(std::string_view text, std::size_t maxChars = kShownChars,
                                 char quote = '\'');

} // namespace shoal
