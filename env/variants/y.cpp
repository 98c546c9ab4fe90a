// Y (docs/RULES.md section 4) on a triangle of side N.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo y_facts() {
  VariantInfo v = basic_facts(Variant::kY, "y", BoardShape::kTriangle, 15, 3, 26, make_game<HexGame>);
  v.swap_by_default = true;
  return v;
}

const GameRegistration registered(y_facts());

}  // namespace
}  // namespace quax
