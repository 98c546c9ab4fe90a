// Link (docs/RULES.md section 2): quax under its first name, 8x8 without the pie rule by default.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kLink;
  v.name = "link";
  v.default_size = 8;
  v.min_size = 3;
  v.max_size = 26;
  v.swap_by_default = false;
  v.shape = BoardShape::kSquare;
  v.links = LinkRule::kChosen;
  v.plays_by = Variant::kQuax;  // the same moves, connections and goal; only the defaults differ
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<SquareGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
