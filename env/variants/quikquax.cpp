// QuikQuax (docs/RULES.md section 2): a quickway board with turns of 1, 3, then 4 stones.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/quikquax_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kQuikQuax;
  v.name = "quikquax";
  v.default_size = 14;
  v.min_size = 4;
  v.max_size = 26;
  // Quadrants need an even size; the 1-3-4 start replaces the pie rule.
  v.even_sizes_only = true;
  v.swap_by_default = false;
  v.pie_rule_replaced_by = "the 1-3-4 start";
  v.shape = BoardShape::kSquare;
  v.links = LinkRule::kAutomatic;
  v.turns = TurnRule::kSeveralActions;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<QuikQuaxGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
