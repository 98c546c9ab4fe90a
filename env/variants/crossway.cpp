// Crossway (docs/RULES.md section 2): diagonal neighbours connect, no checkerboard, forced passes.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kCrossway;
  v.name = "crossway";
  v.default_size = 19;
  v.min_size = 3;
  v.max_size = 26;
  v.swap_by_default = true;
  v.shape = BoardShape::kSquare;
  v.links = LinkRule::kDiagonal;
  v.can_draw = true;  // when neither player can place
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<SquareGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
