// Link (docs/RULES.md section 2): quax under its first name, 8x8 without the pie rule by default.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules link_rules() {
  Rules r;
  r.name = "link";
  r.diagonal = LinkRule::kChosen;
  r.pie_rule = false;
  r.default_size = 8;
  r.min_size = 3;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kLink, link_rules());

}  // namespace
}  // namespace quax
