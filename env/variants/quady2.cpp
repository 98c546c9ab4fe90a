// Quady2 (docs/RULES.md section 4): quadrant Y with the split applied twice, 11 of 21 games win.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kQuady2;
  v.name = "quady2";
  v.default_size = 17;
  v.min_size = 5;
  v.max_size = 25;
  // Sides 4k+1 (docs/RULES.md), so that the sub-triangles split again.
  v.swap_by_default = true;
  v.size_modulus = 4;
  v.size_remainder = 1;
  v.shape = BoardShape::kTriangle;
  v.split_depth = 2;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<HexGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
