// The registry of games, in the manner of OpenSpiel's REGISTER_SPIEL_GAME: each shipped variant
// states its rules (env/rules.h) in its own file under env/variants/, with a GameRegistration
// object at namespace scope; a rules file read at run time (rules/rules_file.h) registers the
// same way through register_rules(). The registry derives each variant's facts (VariantInfo,
// env/types.h) and its game class from the rules alone, so the lookups of env/types.h
// (variant_info, parse_variant, check_spec, ...) and new_game() read only this registry, and no
// switch over the variants stands anywhere else.
//
// A shipped variant touches three files: env/variants/<name>.cpp (its rules), its test
// (tests/env_<name>_test.cpp) and its config (configs/<name>_<size>.yaml); rules no engine plays
// need a game class under env/ and a case in check_rules() first. Nothing else names it: its
// value needs no enumerator in env/types.h. tests/registry_games_test.cpp registers such a
// variant (tinyhex) from the test file alone. A shipped variant's value is written into shards
// (train/shard_format.h): it never changes. Variants registered at run time take the values
// after the largest registered one, in the order they are registered, so their values are not
// fixed: what is written of them names their rules (rules_text).
//
// Linking: a registration object lives in a file nothing else references, which a linker
// would leave out of a static library; the build links quax_env whole (CMakeLists.txt,
// WHOLE_ARCHIVE), and tests/registry_games_test.cpp checks that every Variant is registered.
#pragma once

#include <string>

#include "env/rules.h"
#include "env/types.h"

namespace quax {

// True when `v` is registered: for readers of files that store a variant's value (shards),
// which may name one this build does not have. The values need not be contiguous.
bool is_registered(Variant v);

// Registers a variant read at run time (a rules file) and returns its value: the value it
// already has when a variant of that name is registered with the same rules, else the next
// free one. Throws std::invalid_argument with one line when check_rules refuses the rules,
// when the name is taken by other rules (e.g. a file named "quax" that changes quax), or when
// no value is left (127 variants). Safe while other threads read the registry; registrations
// themselves are serialized.
Variant register_rules(const Rules& rules);

class GameRegistration {
 public:
  // Adds the variant to the registry; runs during static initialisation. Rules that
  // check_rules refuses, or a value or a name registered twice, is a programming error: it is
  // printed and the program aborts before main(), so a broken registration cannot go unnoticed.
  GameRegistration(Variant value, const Rules& rules);
};

}  // namespace quax
