// Quadrant Hex (docs/RULES.md section 4): the rhombus and its four quadrants, 3 of 5 games win.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quadhex() {
  Rules r;
  r.name = "quadhex";
  r.board = Tiling::kHexRhombus;
  r.goal = Goal::kQuadrants;
  r.pie_rule = true;
  r.default_size = 10;
  r.min_size = 6;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kQuadhex, quadhex());

}  // namespace
}  // namespace quax
