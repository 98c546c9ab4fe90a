// The one way the program reads JSON text from outside (files, messages, request bodies):
// nlohmann::json parses iteratively, but what it builds is copied, compared and written out
// (dump) by recursion, so a document nested 100,000 levels deep (200 KB of '[') would end the
// process on a stack overflow far from the reader. Here nesting is bounded while parsing:
// such a document is refused before it is built, with one line naming what was read.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace quax {

// Deep enough for every file the program writes (the deepest, a balance report, nests 5).
inline constexpr int kMaxJsonDepth = 64;

// What parse_json throws: one line, and for a syntax error the byte (from 1) where the parser
// stopped (0 for a document nested too deep): a reader of lines can tell a line cut short.
struct JsonError : std::runtime_error {
  JsonError(const std::string& message, size_t at) : std::runtime_error(message), byte(at) {}
  size_t byte;
};

// Parses `text`, refusing a document nested deeper than `max_depth` arrays and objects (a
// top-level array of numbers is depth 1). Throws JsonError with one line: "<what>: nested
// deeper than N levels", or "<what>: <json_error_text of the parse error>" (no hostile text
// quoted).
nlohmann::json parse_json(const std::string& text, const std::string& what, int max_depth = kMaxJsonDepth);

// The same without exceptions: a discarded value (is_discarded()) for text that parse_json
// would refuse; *error (when given) gets its line.
nlohmann::json parse_json_or_discarded(const std::string& text, const std::string& what, std::string* error = nullptr,
                                       int max_depth = kMaxJsonDepth);

}  // namespace quax
