#include "env/game_state.h"
#include "env/square_game.h"

namespace quax {

std::unique_ptr<GameState> new_game(const GameSpec& spec) {
  switch (spec.variant) {
    case Variant::kQuax:
    case Variant::kLink:
    case Variant::kQuickway:
    case Variant::kCrossway:
    case Variant::kQuadrex:
      return std::make_unique<SquareGame>(spec);
  }
  return nullptr;
}

}  // namespace quax
