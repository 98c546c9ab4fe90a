// Quax (docs/RULES.md section 2): stones and chosen links on a square board.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kQuax;
  v.name = "quax";
  v.default_size = 11;
  v.min_size = 3;
  v.max_size = 26;
  v.swap_by_default = true;
  v.shape = BoardShape::kSquare;
  v.links = LinkRule::kChosen;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<SquareGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
