// Crossway (docs/RULES.md section 2): diagonal neighbours connect, no checkerboard, forced passes.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules crossway() {
  Rules r;
  r.name = "crossway";
  r.diagonal = LinkRule::kDiagonal;
  r.fourth_point = FourthPoint::kForbidden;
  r.pie_rule = true;
  r.default_size = 19;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kCrossway, crossway());

}  // namespace
}  // namespace quax
