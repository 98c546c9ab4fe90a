#include "serve/search_json.h"

#include "core/quoted_input.h"
#include "mcts/search_schema.h"

namespace quax {

std::string set_search_keys(const nlohmann::json& object, SearchSettings* s) {
  if (!object.is_object()) return "'search' must be an object of search keys (configs/README.md's search.* keys)";
  for (const auto& [key, value] : object.items()) {
    const SearchField* field = find_search_field(key);
    if (!field) return "unknown search key " + quoted_input(key) + " (configs/README.md's search.* keys, without 'search.')";
    // The schema's text doors read numbers, booleans and names; a JSON number is its own
    // shortest text, so 0.1 reads as 0.1.
    const std::string text = value.is_string() ? value.get<std::string>()
                             : value.is_boolean() || value.is_number() ? value.dump()
                                                                       : "<" + std::string(value.type_name()) + ">";
    if (auto error = set_search_field(s, *field, text); !error.empty()) return bad_search_value(key, error);
  }
  return {};
}

}  // namespace quax
