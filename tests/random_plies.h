// A position reached by uniformly random legal moves, for tests that need positions of a
// real game without caring which.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"

namespace quax {

// A board size and the random positions a property test draws on it: `positions` of them,
// the i-th after min_plies + i % (max_plies - min_plies + 1) random plies.
struct RandomBoard {
  int size;
  int min_plies, max_plies;
  int positions;
};

// The game of `spec` after `plies` random moves from `seed` (fewer if it ends first).
inline std::unique_ptr<GameState> after_random_plies(const GameSpec& spec, int plies, uint64_t seed) {
  auto s = new_game(spec);
  Rng rng(seed);
  std::vector<int> legal;
  for (int i = 0; i < plies && !s->is_over(); ++i) {
    s->legal_actions(&legal);
    s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
  }
  return s;
}

}  // namespace quax
