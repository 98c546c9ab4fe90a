// Torax (docs/RULES.md section 2): quax on a torus after an auction.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/torax_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kTorax;
  v.name = "torax";
  v.default_size = 9;
  v.min_size = 3;
  v.max_size = 26;
  v.swap_by_default = false;
  v.pie_rule_replaced_by = "the auction";
  v.shape = BoardShape::kTorus;
  v.links = LinkRule::kChosen;
  v.turns = TurnRule::kSeveralActions;  // the auction: blocks, then end
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<ToraxGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
