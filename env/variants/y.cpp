// Y (docs/RULES.md section 4) on a triangle of side N.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules y_rules() {
  Rules r;
  r.name = "y";
  r.board = Tiling::kHexTriangle;
  r.goal = Goal::kThreeSides;
  r.pie_rule = true;
  r.default_size = 15;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kY, y_rules());

}  // namespace
}  // namespace quax
