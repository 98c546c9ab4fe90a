#include "solve/symmetric_key.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "env/hex_game.h"
#include "env/square_game.h"
#include "env/symmetry.h"

namespace quax {

namespace {

// Hex's rhombus: the half turn keeps each player's edges; the two reflections that exchange
// them (across either diagonal) keep the value with the colours and the mover exchanged. The
// half turn commutes with the swap's reflection, so it keeps the pie rule's game tree too; the
// colour exchanges are left out while the swap may still come (its mover is Black's opponent).
uint64_t hex_symmetric_key(const HexGame& game) {
  const GameSpec& spec = game.spec();
  const int n = spec.size, nn = n * n;
  std::vector<Player> stones(static_cast<size_t>(nn));
  uint64_t best = game.position_key();
  for (int image = 1; image < 4; ++image) {
    const bool exchange = image >= 2;
    if (exchange && spec.swap && game.move_number() < 2) break;
    for (int c = 0; c < nn; ++c) {
      const int x = c % n, y = c / n;
      int u = x, v = y;
      if (image == 1 || image == 3) u = n - 1 - x, v = n - 1 - y;
      if (exchange) std::swap(u, v);
      const Player p = game.stone(c);
      stones[static_cast<size_t>(v * n + u)] = exchange && p != Player::kNone ? opponent(p) : p;
    }
    const Player mover = exchange ? opponent(game.to_move()) : game.to_move();
    best = std::min(best, HexGame::from_position(spec, stones, mover, game.move_number())->position_key());
  }
  return best;
}

}  // namespace

uint64_t symmetric_key(const GameState& state) {
  if (const auto* hex = dynamic_cast<const HexGame*>(&state); hex && state.spec().variant == Variant::kHex)
    return hex_symmetric_key(*hex);
  const auto* square = dynamic_cast<const SquareGame*>(&state);
  if (!square) return state.position_key();
  uint64_t best = state.position_key();
  for (int i = 1; i < kNumSymmetries; ++i)
    best = std::min(best, transform_position(Symmetry::from_index(i), *square)->position_key());
  return best;
}

}  // namespace quax
