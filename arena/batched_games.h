// Arena games between players that search with an Evaluator (models, rollout search), many
// at once through the multi-game driver (mcts/selfplay_driver.h): each step gathers the
// leaves of all games in flight into one evaluator call per player, instead of evaluating
// one position at a time. Torch-free: the caller supplies the evaluators.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "arena/match.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"

namespace quax {

// How one arena player searches. `evaluator` is not owned and must outlive the games.
struct SearchPlayer {
  Evaluator* evaluator = nullptr;
  SearchSettings search;
};

struct BatchedGamesOptions {
  int parallel_games = 32;  // games in flight
  // The actions of the first `sampled_turns` turns of every game (PlayerSettings::
  // temperature_counts_turns) are sampled from the search's visit distribution
  // (temperature 1), later moves are the most visited: two deterministic players would
  // otherwise repeat the same game for each colour assignment. Counted in plies, torax's
  // sampled actions all fell in the first seat's first auction turn, whose blocks the
  // torus's translations make alike: 40 games between two levels were 11 games repeated.
  int sampled_turns = 4;
  uint64_t seed = 1;
};

// Plays `games` (Pairing indices into `players`; every player a game names must be non-null
// in `players`) and calls on_result(g, result) for each as it finishes, g = index into
// `games`, result.black/white = names[...]. `should_stop` is checked between driver steps;
// when it returns true the games in flight are abandoned (not reported).
// Throws std::invalid_argument when a game names a player without a SearchPlayer.
void play_games_batched(const GameSpec& spec, const std::vector<std::string>& names,
                        const std::vector<Pairing>& games, const std::vector<const SearchPlayer*>& players,
                        const BatchedGamesOptions& options,
                        const std::function<void(size_t, const GameResult&)>& on_result,
                        const std::function<bool()>& should_stop = nullptr);

}  // namespace quax
