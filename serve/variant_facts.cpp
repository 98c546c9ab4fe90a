#include "serve/variant_facts.h"

#include "env/hex_game.h"
#include "env/torax_game.h"

namespace quax {

using nlohmann::json;

json points_json(const GameState& state) {
  const auto* hex = dynamic_cast<const HexGame*>(&state);
  if (!hex || hex->geometry().games.size() < 2) return nullptr;
  json winners = json::array();
  for (size_t g = 0; g < hex->geometry().games.size(); ++g) {
    const Player p = hex->game_winner(static_cast<int>(g));
    winners.push_back(p == Player::kNone ? json(nullptr) : json(player_name(p)));
  }
  return {{"to_win", hex->geometry().points_to_win},
          {"black", hex->points(Player::kBlack)},
          {"white", hex->points(Player::kWhite)},
          {"winners", std::move(winners)},
          {"text", hex->points_text()}};
}

json auction_json(const GameState& state) {
  const auto* torax = dynamic_cast<const ToraxGame*>(&state);
  if (!torax || !torax->in_auction() || state.is_over()) return nullptr;
  return {{"blocks", torax->blocks_this_turn()}, {"max_blocks", state.size()}};
}

}  // namespace quax
