// Quadrant Hex (docs/RULES.md section 4): the rhombus and its four quadrants, 3 of 5 games win.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kQuadhex;
  v.name = "quadhex";
  v.default_size = 10;
  v.min_size = 6;
  v.max_size = 26;
  v.even_sizes_only = true;  // four equal quadrants
  v.swap_by_default = true;
  v.shape = BoardShape::kRhombus;
  v.split_depth = 1;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<HexGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
