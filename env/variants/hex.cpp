// Hex (docs/RULES.md section 4) on an N x N rhombus.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules hex() {
  Rules r;
  r.name = "hex";
  r.board = Tiling::kHexRhombus;
  r.pie_rule = true;
  r.default_size = 11;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kHex, hex());

}  // namespace
}  // namespace quax
