// Quoting what a user or a peer typed inside an error message. Errors that echo their input
// whole let a 10 MB protocol line come back as a 10 MB reply, and a record with NUL or
// terminal control bytes write them to the terminal; every message that quotes input goes
// through quoted_input so it stays one short printable line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace quax {

// How many bytes of the input a quote keeps before cutting it ("..." marks the cut).
inline constexpr std::size_t kQuotedInputLimit = 60;

// `text` between single quotes, at most kQuotedInputLimit of its bytes, then "..." when it was
// longer. Bytes outside printable ASCII (control bytes, NUL, DEL, and bytes >= 0x80, since a
// cut may split a UTF-8 sequence) are written as \xNN, a backslash and a quote as \\ and \'.
// E.g. quoted_input("c5") == "'c5'", quoted_input("a\nb") == "'a\\x0ab'".
std::string quoted_input(std::string_view text);

// The same escaping and cut without the quotes, for a library's message that may carry an
// input byte (yaml-cpp's "unknown escape character: <the byte>"): one printable line.
std::string printable_line(std::string_view text);

}  // namespace quax
