#include "solve/symmetric_key.h"

#include <algorithm>

#include "env/square_game.h"
#include "env/symmetry.h"

namespace quax {

uint64_t symmetric_key(const GameState& state) {
  const auto* square = dynamic_cast<const SquareGame*>(&state);
  if (!square) return state.position_key();
  uint64_t best = state.position_key();
  for (int i = 1; i < kNumSymmetries; ++i)
    best = std::min(best, transform_position(Symmetry::from_index(i), *square)->position_key());
  return best;
}

}  // namespace quax
