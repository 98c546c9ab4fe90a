#include "core/quoted_input.h"

#include <cstdio>

namespace quax {

std::string quoted_input(std::string_view text) {
  const bool cut = text.size() > kQuotedInputLimit;
  if (cut) text = text.substr(0, kQuotedInputLimit);
  std::string out = "'";
  for (const char ch : text) {
    const auto byte = static_cast<unsigned char>(ch);
    if (ch == '\\' || ch == '\'') {
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
  out += "'";
  if (cut) out += "...";
  return out;
}

}  // namespace quax
