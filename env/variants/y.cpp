// Y (docs/RULES.md section 4) on a triangle of side N.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kY;
  v.name = "y";
  v.default_size = 15;
  v.min_size = 3;
  v.max_size = 26;
  v.swap_by_default = true;
  v.shape = BoardShape::kTriangle;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<HexGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
