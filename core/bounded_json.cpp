#include "core/bounded_json.h"

#include <stdexcept>

#include "core/json_error.h"

namespace quax {

namespace {

struct TooDeep {};

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& what, int max_depth) {
  // The callback sees each array and object start with the number of those it is inside;
  // throwing from it stops the parser before anything deeper is built.
  const nlohmann::json::parser_callback_t bound = [max_depth](int depth, nlohmann::json::parse_event_t event,
                                                              nlohmann::json&) {
    if (depth >= max_depth &&
        (event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start))
      throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text, bound);
  } catch (const TooDeep&) {
    throw JsonError(what + ": nested deeper than " + std::to_string(max_depth) + " levels", 0);
  } catch (const nlohmann::json::parse_error& e) {
    throw JsonError(what + ": " + json_error_text(e), e.byte);
  } catch (const nlohmann::json::exception& e) {
    throw JsonError(what + ": " + json_error_text(e), 0);
  }
}

nlohmann::json parse_json_or_discarded(const std::string& text, const std::string& what, std::string* error,
                                       int max_depth) {
  try {
    return parse_json(text, what, max_depth);
  } catch (const JsonError& e) {
    if (error) *error = e.what();
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

}  // namespace quax
