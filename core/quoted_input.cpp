#include "core/quoted_input.h"

#include <cstdio>

namespace quax {

namespace {

// `text` cut to kQuotedInputLimit bytes, escaped, between `quote`s (none when it is '\0').
std::string escaped(std::string_view text, char quote) {
  const bool cut = text.size() > kQuotedInputLimit;
  if (cut) text = text.substr(0, kQuotedInputLimit);
  std::string out;
  if (quote) out += quote;
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (quote && (ch == '\\' || ch == quote)) {
      out += '\\';
      out += ch;
    } else if (byte < 0x20 || byte >= 0x7f) {
      char escaped[5];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      out += escaped;
    } else {
      out += ch;
    }
  }
  if (quote) out += quote;
  if (cut) out += "...";
  return out;
}

}  // namespace

std::string quoted_input(std::string_view text) { return escaped(text, '\''); }

std::string printable_line(std::string_view text) { return escaped(text, '\0'); }

}  // namespace quax
