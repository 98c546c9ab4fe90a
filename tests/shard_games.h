// Self-play games for the shard tests (tests/ml_shard_test.cpp, tests/fuzz_ml_shard_test.cpp),
// played with the uniform evaluator.
#pragma once

#include <vector>

#include "mcts/selfplay_driver.h"
#include "mcts/simple_evaluators.h"

namespace quax {

// Self-play games with every kind of record: resigned, played out with a would-be
// resignation, fast moves without a policy, and (max_moves > 0) truncated.
inline std::vector<GameRecord> play_games(const GameSpec& spec, int games, uint64_t seed, RootRule rule = RootRule::kPuct,
                                   int max_moves = 0) {
  DriverOptions opt;
  opt.spec = spec;
  opt.parallel_games = 4;
  opt.games_to_play = games;
  opt.players[0].search.simulations = 16;
  opt.players[0].search.root_rule = rule;
  opt.players[0].search.dirichlet_fraction = 0.25f;
  opt.players[0].record_policy = true;
  opt.players[0].temperature_moves = 100;
  opt.players[0].full_search_fraction = 0.75f;
  opt.players[0].fast_simulations = 2;
  opt.resign.enabled = true;
  opt.resign.threshold = 0.2f;
  opt.resign.consecutive = 2;
  opt.resign.playout_fraction = 0.5f;
  opt.resign.min_moves = 4;
  opt.max_moves = max_moves;
  opt.seed = seed;
  UniformEvaluator uniform;
  GameDriver driver(opt, {&uniform});
  std::vector<GameRecord> out;
  driver.run(games, [&](GameRecord&& g) { out.push_back(std::move(g)); });
  return out;
}

}  // namespace quax
