// The registry of games, in the manner of OpenSpiel's REGISTER_SPIEL_GAME: each variant states
// its facts and its factory (a VariantInfo, env/types.h) in its own file under env/variants/,
// with a GameRegistration object at namespace scope. The lookups of env/types.h
// (variant_info, parse_variant, check_spec, ...) and new_game() read only this registry, so no
// switch over the variants stands anywhere else.
//
// Adding a variant touches three files: env/variants/<name>.cpp (its facts and factory), its
// test (tests/env_<name>_test.cpp) and its config (configs/<name>_<size>.yaml); a variant with
// rules of its own adds its game class under env/ too, where the existing classes do not play
// it by its facts (SquareGame reads links and fill_cascade, HexGame shape and split_depth,
// ToraxGame the torus, StymieGame the octagons). Nothing else names it: its value needs no
// enumerator in env/types.h, and the lookups, the checks of specs, the solver, the board
// layouts, the server, the shards and the Python module read its facts.
// tests/registry_games_test.cpp registers such a variant (tinyhex) from the test file alone.
// A variant's value is written into shards (train/shard_format.h): it never changes.
//
// Linking: a registration object lives in a file nothing else references, which a linker
// would leave out of a static library; the build links quax_env whole (CMakeLists.txt,
// WHOLE_ARCHIVE), and tests/registry_games_test.cpp checks that every Variant is registered.
#pragma once

#include <memory>

#include "env/types.h"

namespace quax {

using GameFactory = decltype(VariantInfo::new_game);

// The factory of a variant played by the game class G, constructed from the spec.
template <class G>
std::unique_ptr<GameState> make_game(const GameSpec& spec) {
  return std::make_unique<G>(spec);
}

// The facts every variant states, the others at their defaults (VariantInfo): a variant's file
// starts from these and sets what is its own.
VariantInfo basic_facts(Variant variant, const char* name, BoardShape shape, int default_size, int min_size,
                        int max_size, GameFactory factory);

// True when `v` is registered: for readers of files that store a variant's value (shards),
// which may name one this build does not have. The values need not be contiguous.
bool is_registered(Variant v);

class GameRegistration {
 public:
  // Adds `facts` to the registry; runs during static initialisation. A variant value or a
  // name registered twice, a name that is not lower case, an empty size range, a default size
  // that check_spec refuses or a missing factory is a programming error: it is printed and the
  // program aborts before main(), so a broken registration cannot go unnoticed.
  explicit GameRegistration(const VariantInfo& facts);
};

}  // namespace quax
