// Quady2 (docs/RULES.md section 4): quadrant Y with the split applied twice, 11 of 21 games win.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo quady2() {
  VariantInfo v = basic_facts(Variant::kQuady2, "quady2", BoardShape::kTriangle, 17, 5, 25, make_game<HexGame>);
  // Sides 4k+1 (docs/RULES.md), so that the sub-triangles split again.
  v.swap_by_default = true;
  v.size_modulus = 4;
  v.size_remainder = 1;
  v.split_depth = 2;
  return v;
}

const GameRegistration registered(quady2());

}  // namespace
}  // namespace quax
