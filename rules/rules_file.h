// Rules files: a variant written as data (docs/VARIANTS.md), read into env/rules.h's Rules and
// registered (env/game_registry.h), so that every door that takes a variant name takes a file.
//
//   name: twostep
//   board: square            # square | octagons | hex-rhombus | hex-triangle
//   wrap: none               # none | cylinder | torus
//   diagonal: automatic      # none | link | automatic | always (square boards)
//   fourth_point: allowed    # allowed | imposed | forbidden (square boards)
//   goal: opposite-edges     # opposite-edges | three-sides | quadrants | quadrants-of-quadrants
//   stones_per_turn: [1, 2]  # the last count repeats
//   one_stone_per_quadrant: false
//   pie_rule: off            # on | off: the default of a new game
//   sizes: {default: 10, min: 4, max: 26}
//
// Only name and sizes.default are required; the others default as docs/VARIANTS.md says.
// rules_text() writes this form back, every field given.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "env/rules.h"
#include "env/types.h"

namespace quax {

// One line: where, the field and what is wrong with it.
struct RulesFileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The rules in `text` (the YAML of a rules file, or what rules_text wrote), checked with
// check_rules. `where` starts each error ("twostep.yaml: ..."). Throws RulesFileError for
// malformed YAML, an unknown field, a value of the wrong kind or out of its words, and rules
// no engine plays.
Rules parse_rules(const std::string& text, const std::string& where);

// The rules file at `path`, at most 64 KB and a regular file (core/bounded_file.h).
Rules read_rules_file(const std::string& path);

// True when `text` names a file rather than a variant: it ends in .yaml or .yml or holds a '/'.
bool names_rules_file(const std::string& text);

// The variant that `text` names: a registered name ("quax", any case), or a rules file, read and
// registered (register_rules: the same file twice, or a file whose rules equal a variant
// registered under its name, give the same value). Throws RulesFileError with one line for an
// unknown name (listing the names), a file that cannot be read, rules that are refused, or a name
// taken by other rules.
Variant variant_from_name_or_file(const std::string& text);

// Reads and registers every *.yaml and *.yml file in `dir` (in name order), for a server that
// offers them beside the shipped variants. Throws RulesFileError naming the first file refused.
std::vector<Variant> register_rules_dir(const std::string& dir);

}  // namespace quax
