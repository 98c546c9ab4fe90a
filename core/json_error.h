// nlohmann::json's error messages as one short line. Its parse errors end in "; last read:
// '<the text so far>'", which may be most of a hostile line or file: messages that quote JSON
// errors pass them through json_error_text.
#pragma once

#include <exception>
#include <string>

namespace quax {

// `e.what()` without the "[json.exception.x.n] " prefix and the "; last read: ..." quote, a
// parse error on line 1 written "not JSON at column N: ...", and at most 160 characters.
std::string json_error_text(const std::exception& e);

}  // namespace quax
