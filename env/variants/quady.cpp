// Quadrant Y (docs/RULES.md section 4): the triangle and its four sub-triangles, 3 of 5 games win.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quady() {
  Rules r;
  r.name = "quady";
  // Sides stop at 25 (one letter a column; the server range 5..31 loses 27..31), odd so that
  // the triangle splits into four.
  r.board = Tiling::kHexTriangle;
  r.goal = Goal::kQuadrants;
  r.pie_rule = true;
  r.default_size = 15;
  r.min_size = 5;
  r.max_size = 25;
  return r;
}

const GameRegistration registered(Variant::kQuady, quady());

}  // namespace
}  // namespace quax
