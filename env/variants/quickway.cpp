// Quickway (docs/RULES.md section 2): stones only, diagonal pairs linked automatically.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo quickway() {
  VariantInfo v = basic_facts(Variant::kQuickway, "quickway", BoardShape::kSquare, 11, 3, 26,
                              make_game<SquareGame>);
  v.swap_by_default = true;
  v.links = LinkRule::kAutomatic;
  return v;
}

const GameRegistration registered(quickway());

}  // namespace
}  // namespace quax
