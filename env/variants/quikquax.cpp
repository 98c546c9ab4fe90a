// QuikQuax (docs/RULES.md section 2): a quickway board with turns of 1, 3, then 4 stones.
// Its rules, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"

namespace quax {
namespace {

Rules quikquax() {
  Rules r;
  r.name = "quikquax";
  // Quadrants need an even size; the 1-3-4 start replaces the pie rule.
  r.diagonal = LinkRule::kAutomatic;
  r.stones_per_turn = {1, 3, 4};
  r.one_stone_per_quadrant = true;
  r.pie_rule = false;
  r.default_size = 14;
  r.min_size = 4;
  r.max_size = 26;
  return r;
}

const GameRegistration registered(Variant::kQuikQuax, quikquax());

}  // namespace
}  // namespace quax
