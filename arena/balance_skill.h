// The skill depth of the balance lab (`quax balance`, docs/BALANCE.md): how much a game
// rewards thinking longer. The model at twice the simulations plays the model at once them,
// colour-balanced, for each doubling from a small count up to a cap; a game in which the
// doubled search still wins clearly at large counts has room for skill left. The same for a
// baseline without a model (uct:N: its playouts doubled). Torch-free.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "arena/balance_player.h"
#include "env/types.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"

namespace quax {

// One doubling: `sims` * 2 simulations against `sims`, from the doubled side.
struct SkillPoint {
  int sims = 0;
  int wins = 0, draws = 0, losses = 0;
  double score = 0, low = 0, high = 0;  // (wins + draws / 2) / games and its 95% Wilson interval
  int games() const { return wins + draws + losses; }
};

// The counts of the doublings: first, 2 first, 4 first, ... while twice the count is at most
// `cap` (none when cap < 2 first).
std::vector<int> skill_counts(int first, int cap);

// Plays `games` (rounded up to even, half with each colour) between `player` at 2 * sims and
// at sims simulations (uct: playouts). A tree search over an evaluator (a model, mcts:N) plays
// them batched with `search`'s other settings, the first plies of each game sampled from the
// visits as in the arena (arena/batched_games.h); a player that searches alone (uct:N) plays
// them as the arena's agents do (arena/match.h, one game at a time, so that the figures do not
// depend on threads), its random playouts making every game its own.
SkillPoint skill_point(const GameSpec& spec, const BalancePlayer& player, const SearchSettings& search, int sims,
                       int games, uint64_t seed);

// The summary numbers of a curve: how many doublings score above `gain` (0.55: the doubled
// search still wins clearly), and the mean score of the doubled side over the doublings
// (0 without points).
struct SkillDepth {
  int doublings_gaining = 0;
  double gain = 0.55;
  double mean_score = 0;
};
SkillDepth skill_depth(const std::vector<SkillPoint>& curve, double gain = 0.55);

}  // namespace quax
