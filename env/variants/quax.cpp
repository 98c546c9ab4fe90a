// Quax (docs/RULES.md section 2): stones and chosen links on a square board.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo quax() {
  VariantInfo v = basic_facts(Variant::kQuax, "quax", BoardShape::kSquare, 11, 3, 26, make_game<SquareGame>);
  v.swap_by_default = true;
  v.links = LinkRule::kChosen;
  return v;
}

const GameRegistration registered(quax());

}  // namespace
}  // namespace quax
