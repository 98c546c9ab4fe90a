// Quadrant Y (docs/RULES.md section 4): the triangle and its four sub-triangles, 3 of 5 games win.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kQuady;
  v.name = "quady";
  v.default_size = 15;
  v.min_size = 5;
  v.max_size = 25;
  // Sides stop at 25 (one letter a column; the server range 5..31 loses 27..31), odd so that
  // the triangle splits into four.
  v.swap_by_default = true;
  v.size_modulus = 2;
  v.size_remainder = 1;
  v.shape = BoardShape::kTriangle;
  v.split_depth = 1;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<HexGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
