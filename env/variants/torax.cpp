// Torax (docs/RULES.md section 2): quax on a torus after an auction.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules torax() {
  Rules r;
  r.name = "torax";
  r.wrap = Wrap::kTorus;
  r.diagonal = LinkRule::kChosen;
  r.pie_rule = false;
  r.default_size = 9;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kTorax, torax());

}  // namespace
}  // namespace quax
