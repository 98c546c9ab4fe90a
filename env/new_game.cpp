#include "env/game_state.h"
#include "env/hex_game.h"
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
    case Variant::kHex:
    case Variant::kQuadhex:
    case Variant::kY:
    case Variant::kQuady:
    case Variant::kQuady2:
      return std::make_unique<HexGame>(spec);
  }
  return nullptr;
}

}  // namespace quax
