// The schema of SearchSettings: one entry per key a user may set (in a config's `search:`
// section, with --set search.<key>=, in a model player's description `model.pt:<key>=...`,
// as a keyword of Python's quax.Search), with its range and a one-line description. Every
// door reads a value through this table, so a key has the same range, the same default
// (SearchSettings' own) and the same error line wherever it is given. Torch-free.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mcts/search_settings.h"

namespace quax {

struct SearchField {
  enum class Kind {
    kInteger,  // an int member, in [lo, hi]
    kNumber,   // a float member, in [lo, hi] (NaN is outside every range)
    kBoolean,  // a bool member: true or false
    kRule,     // root_rule: puct or gumbel
  };
  const char* key;  // as in a config's search section: "simulations"
  Kind kind;
  double lo = 0, hi = 0;  // kInteger and kNumber: the accepted values, bounds included
  const char* doc;        // one line, for configs/README.md's key table and --print-config
  int SearchSettings::*integer = nullptr;
  float SearchSettings::*number = nullptr;
  bool SearchSettings::*boolean = nullptr;
};

// Every settable key, in the order of configs and dumps. prior_temperature is not one: the
// play levels (mcts/play_levels.h) set it.
const std::vector<SearchField>& search_fields();

// The field of `key`, or null.
const SearchField* find_search_field(std::string_view key);

// What a value of `field` must be, for error lines: "an integer in [1, 1000000]",
// "a number in [0, 100]", "true or false", "puct or gumbel".
std::string search_field_expected(const SearchField& field);

// Typed setters, for doors whose parser already produced a typed value (YAML). Each returns
// "" and sets the member, or returns the one-line error "expected <search_field_expected>"
// (for a rule: "expected puct or gumbel, got '<name>'") and leaves *s as it was.
std::string set_search_integer(SearchSettings* s, const SearchField& field, long long value);
std::string set_search_number(SearchSettings* s, const SearchField& field, double value);
void set_search_boolean(SearchSettings* s, const SearchField& field, bool value);
std::string set_search_rule(SearchSettings* s, std::string_view name);

// The text doors (player descriptions, Python keywords, JSON): parses `text` as the field's
// kind and sets it. Integers and numbers are plain decimal text ("400", "0.25", "1e-3"),
// booleans true or false. Errors as the typed setters; text that is no integer or number at
// all gives "expected an integer" or "expected a number", as a config's does.
std::string set_search_field(SearchSettings* s, const SearchField& field, std::string_view text);

// The value of `field` in `s` as configs and dumps write it ("1.25", "true", "gumbel").
std::string search_field_text(const SearchSettings& s, const SearchField& field);

// "bad value for '<key>': <error>": how every door names a bad value of a search key (YAML
// and --set write the key as search.<key>, and put the file and line or "override" first).
std::string bad_search_value(std::string_view key, std::string_view error);

// The settings of a search that plays a game rather than generating training data: no root
// noise of either kind (no Dirichlet noise, no Gumbel sample), everything else as `s`.
// Evaluation, matches, analysis and every interactive player search with these.
SearchSettings play_settings(SearchSettings s);

}  // namespace quax
