// Stymie (docs/RULES.md section 3): octagons and squares, turns of one to three pieces.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/stymie_game.h"

namespace quax {
namespace {

VariantInfo stymie() {
  VariantInfo v = basic_facts(Variant::kStymie, "stymie", BoardShape::kOctagons, 8, 3, 12, make_game<StymieGame>);
  v.swap_by_default = true;
  v.links = LinkRule::kNone;  // octagons connect through squares, which are pieces
  v.turns = TurnRule::kSeveralActions;
  return v;
}

const GameRegistration registered(stymie());

}  // namespace
}  // namespace quax
