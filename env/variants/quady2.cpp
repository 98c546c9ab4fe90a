// Quady2 (docs/RULES.md section 4): quadrant Y with the split applied twice, 11 of 21 games win.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quady2() {
  Rules r;
  r.name = "quady2";
  // Sides 4k+1 (docs/RULES.md), so that the sub-triangles split again.
  r.board = Tiling::kHexTriangle;
  r.goal = Goal::kQuadrantsOfQuadrants;
  r.pie_rule = true;
  r.default_size = 17;
  r.min_size = 5;
  r.max_size = 25;
  return r;
}

const GameRegistration registered(Variant::kQuady2, quady2());

}  // namespace
}  // namespace quax
