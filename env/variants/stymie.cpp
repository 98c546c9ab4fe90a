// Stymie (docs/RULES.md section 3): octagons and squares, turns of one to three pieces.
// Its facts and factory, registered at start-up (env/game_registry.h).
#include "env/game_registry.h"
#include "env/stymie_game.h"

namespace quax {
namespace {

VariantInfo facts() {
  VariantInfo v;
  v.variant = Variant::kStymie;
  v.name = "stymie";
  v.default_size = 8;
  v.min_size = 3;
  v.max_size = 12;
  v.swap_by_default = true;
  v.shape = BoardShape::kOctagons;
  v.links = LinkRule::kNone;  // octagons connect through squares, which are pieces
  v.turns = TurnRule::kSeveralActions;
  v.new_game = [](const GameSpec& spec) -> std::unique_ptr<GameState> {
    return std::make_unique<StymieGame>(spec);
  };
  return v;
}

const GameRegistration registered(facts());

}  // namespace
}  // namespace quax
