// QuikQuax (docs/RULES.md section 2): a quickway board with turns of 1, 3, then 4 stones.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/quikquax_game.h"

namespace quax {
namespace {

VariantInfo quikquax() {
  VariantInfo v = basic_facts(Variant::kQuikQuax, "quikquax", BoardShape::kSquare, 14, 4, 26,
                              make_game<QuikQuaxGame>);
  // Quadrants need an even size; the 1-3-4 start replaces the pie rule.
  v.even_sizes_only = true;
  v.swap_by_default = false;
  v.pie_rule_replaced_by = "the 1-3-4 start";
  v.links = LinkRule::kAutomatic;
  v.turns = TurnRule::kSeveralActions;
  return v;
}

const GameRegistration registered(quikquax());

}  // namespace
}  // namespace quax
