// Quax (docs/RULES.md section 2): stones and chosen links on a square board.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quax() {
  Rules r;
  r.name = "quax";
  r.diagonal = LinkRule::kChosen;
  r.pie_rule = true;
  r.default_size = 11;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kQuax, quax());

}  // namespace
}  // namespace quax
