#include "env/game_state.h"
#include "env/hex_game.h"
#include "env/quikquax_game.h"
#include "env/square_game.h"
#include "env/stymie_game.h"
#include "env/torax_game.h"

namespace quax {

std::unique_ptr<GameState> new_game(const GameSpec& spec) {
  switch (spec.variant) {
    case Variant::kQuax:
    case Variant::kLink:
    case Variant::kQuickway:
    case Variant::kCrossway:
    case Variant::kQuadrex:
      return std::make_unique<SquareGame>(spec);
    case Variant::kQuikQuax:
      return std::make_unique<QuikQuaxGame>(spec);
    case Variant::kTorax:
      return std::make_unique<ToraxGame>(spec);
    case Variant::kStymie:
      return std::make_unique<StymieGame>(spec);
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
