// Stymie (docs/RULES.md section 3): octagons and squares, turns of one to three pieces.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules stymie() {
  Rules r;
  r.name = "stymie";
  r.board = Tiling::kOctagons;
  r.pie_rule = true;
  r.default_size = 8;
  r.min_size = 3;
  r.max_size = 12;
  return r;
}

const GameRegistration registered(Variant::kStymie, stymie());

}  // namespace
}  // namespace quax
