// Quickway (docs/RULES.md section 2): stones only, diagonal pairs linked automatically.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quickway() {
  Rules r;
  r.name = "quickway";
  r.diagonal = LinkRule::kAutomatic;
  r.pie_rule = true;
  r.default_size = 11;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kQuickway, quickway());

}  // namespace
}  // namespace quax
