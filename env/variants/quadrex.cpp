// Quadrex (docs/RULES.md section 2): orthogonal connections only, and the fill cascade.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo quadrex() {
  VariantInfo v = basic_facts(Variant::kQuadrex, "quadrex", BoardShape::kSquare, 19, 3, 26, make_game<SquareGame>);
  v.swap_by_default = true;
  v.links = LinkRule::kNone;
  v.fill_cascade = true;
  return v;
}

const GameRegistration registered(quadrex());

}  // namespace
}  // namespace quax
