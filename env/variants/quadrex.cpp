// Quadrex (docs/RULES.md section 2): orthogonal connections only, and the fill cascade.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quadrex() {
  Rules r;
  r.name = "quadrex";
  r.diagonal = LinkRule::kNone;
  r.fourth_point = FourthPoint::kImposed;
  r.pie_rule = true;
  r.default_size = 19;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kQuadrex, quadrex());

}  // namespace
}  // namespace quax
