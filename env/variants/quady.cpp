// Quadrant Y (docs/RULES.md section 4): the triangle and its four sub-triangles, 3 of 5 games win.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo quady() {
  VariantInfo v = basic_facts(Variant::kQuady, "quady", BoardShape::kTriangle, 15, 5, 25, make_game<HexGame>);
  // Sides stop at 25 (one letter a column; the server range 5..31 loses 27..31), odd so that
  // the triangle splits into four.
  v.swap_by_default = true;
  v.size_modulus = 2;
  v.size_remainder = 1;
  v.split_depth = 1;
  return v;
}

const GameRegistration registered(quady());

}  // namespace
}  // namespace quax
