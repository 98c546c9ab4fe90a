// Quadrant Hex (docs/RULES.md section 4): the rhombus and its four quadrants, 3 of 5 games win.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo quadhex() {
  VariantInfo v = basic_facts(Variant::kQuadhex, "quadhex", BoardShape::kRhombus, 10, 6, 26, make_game<HexGame>);
  v.even_sizes_only = true;  // four equal quadrants
  v.swap_by_default = true;
  v.split_depth = 1;
  return v;
}

const GameRegistration registered(quadhex());

}  // namespace
}  // namespace quax
