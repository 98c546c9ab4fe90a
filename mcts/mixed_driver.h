// Self-play over several games at once, e.g. the board sizes one network trains on
// (game.sizes of a training config): one GameDriver per game, stepped one at a time, so every
// evaluator call holds positions of one game (one board size), and the finished games follow
// the games' weights.
//
// Which driver steps: the one whose finished games are furthest below its weighted share,
// i.e. the smallest games_finished / weight (ties to the earlier game). A game on a larger
// board takes more steps, so its driver is stepped more often; the games, not the steps or
// the positions, are shared out by weight. The games of a driver that is not stepped wait.
// With one game it is that game's driver alone: the same games, step for step.
//
// Threading and determinism as GameDriver (mcts/selfplay_driver.h).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mcts/selfplay_driver.h"

namespace quax {

class MixedDriver {
 public:
  // options[i] (with its own spec and seed) and evaluators[i] make the i-th driver; an
  // evaluator may serve several drivers (they run on one thread, one call at a time).
  // weights[i] > 0 is the i-th game's share. Throws std::invalid_argument (one line) for
  // lists of different lengths, no games, a weight that is not positive, or bad options.
  MixedDriver(const std::vector<DriverOptions>& options, const std::vector<std::vector<Evaluator*>>& evaluators,
              const std::vector<double>& weights);

  // Steps the driver furthest below its share (one evaluator call of one game). Returns
  // false when no driver has anything left to do (all their games_to_play finished).
  bool step();
  // Finished games of every driver since the last call; GameRecord::spec names the game.
  std::vector<GameRecord> take_finished();

  // GameDriver::set_simulations of the first player, for every game.
  void set_simulations(int simulations);

  size_t games() const { return drivers_.size(); }
  const GameDriver& driver(size_t i) const { return *drivers_[i]; }
  int64_t games_finished(size_t i) const { return finished_counts_[i]; }

 private:
  std::vector<std::unique_ptr<GameDriver>> drivers_;
  std::vector<double> weights_;
  std::vector<int64_t> finished_counts_;
  std::vector<bool> exhausted_;
  std::vector<GameRecord> finished_;
};

}  // namespace quax
