// Link (docs/RULES.md section 2): quax under its first name, 8x8 without the pie rule by default.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/square_game.h"

namespace quax {
namespace {

VariantInfo link_facts() {
  VariantInfo v = basic_facts(Variant::kLink, "link", BoardShape::kSquare, 8, 3, 26, make_game<SquareGame>);
  v.swap_by_default = false;
  v.links = LinkRule::kChosen;
  v.plays_by = Variant::kQuax;  // the same moves, connections and goal; only the defaults differ
  return v;
}

const GameRegistration registered(link_facts());

}  // namespace
}  // namespace quax
