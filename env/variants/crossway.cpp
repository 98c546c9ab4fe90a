// Crossway (docs/RULES.md section 2): diagonal neighbours connect, no checkerboard, forced passes.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo crossway() {
  VariantInfo v = basic_facts(Variant::kCrossway, "crossway", BoardShape::kSquare, 19, 3, 26,
                              make_game<SquareGame>);
  v.swap_by_default = true;
  v.links = LinkRule::kDiagonal;
  v.can_draw = true;  // when neither player can place
  return v;
}

const GameRegistration registered(crossway());

}  // namespace
}  // namespace quax
