// Hex (docs/RULES.md section 4) on an N x N rhombus.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/hex_game.h"

namespace quax {
namespace {

VariantInfo hex() {
  VariantInfo v = basic_facts(Variant::kHex, "hex", BoardShape::kRhombus, 11, 3, 26, make_game<HexGame>);
  v.swap_by_default = true;
  return v;
}

const GameRegistration registered(hex());

}  // namespace
}  // namespace quax
