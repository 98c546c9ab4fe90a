// Torax (docs/RULES.md section 2): quax on a torus after an auction.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/torax_game.h"

namespace quax {
namespace {

VariantInfo torax() {
  VariantInfo v = basic_facts(Variant::kTorax, "torax", BoardShape::kTorus, 9, 3, 26, make_game<ToraxGame>);
  v.swap_by_default = false;
  v.pie_rule_replaced_by = "the auction";
  v.links = LinkRule::kChosen;
  v.turns = TurnRule::kSeveralActions;  // the auction: blocks, then end
  return v;
}

const GameRegistration registered(torax());

}  // namespace
}  // namespace quax
