// The search keys of a request: `"search": {"fpu_reduction": 0.1, "rule": "gumbel", ...}` in
// a game-creation body, read through the search schema (mcts/search_schema.h) with the range
// and the error line a config, a player description and quax.Search give.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "mcts/search_settings.h"

namespace quax {

// Sets every key of `object` (a JSON object of search keys, without "search.") in *s.
// Returns "" or one line: "'search' must be an object of search keys" for another JSON type,
// "unknown search key '<key>' ..." for a key the schema lacks, and
// "bad value for '<key>': expected ..." for a bad value (a JSON number or string read as its
// text, true and false as such). *s may be partly set when an error is returned.
std::string set_search_keys(const nlohmann::json& object, SearchSettings* s);

}  // namespace quax
