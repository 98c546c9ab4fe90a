// The learner's view of the self-play data: the newest positions of the shards it has read,
// in a window that grows with the data, and batches sampled uniformly from it with a random
// goal-keeping symmetry. Torch-free: a batch is plain float buffers.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "env/rng.h"
#include "mcts/selfplay_driver.h"
#include "train/config.h"

namespace quax {

// A training batch, everything in the network frame.
struct TrainingBatch {
  int size = 0, planes = 0, n = 0, actions = 0;
  std::vector<float> inputs;  // [size, planes, n, n]
  std::vector<float> policy;  // [size, actions] search policy targets, rows sum to 1
  std::vector<uint8_t> mask;  // [size, actions] legal actions
  std::vector<float> value;   // [size] final result from the mover's view: +1, 0, -1
};

// Counts over the games read since the last take_game_stats().
struct GameStats {
  int64_t games = 0;
  int64_t plies = 0;
  int64_t black_wins = 0, white_wins = 0, draws = 0;
  int64_t resigned = 0;
  int64_t played_out_would_resign = 0;  // resignation disabled, would have resigned
  int64_t false_resignations = 0;       // ... and the would-be resigner won
};

class ReplayWindow {
 public:
  ReplayWindow(const GameSpec& spec, const ReplayConfig& config);

  // Reads the shards of `dir` not read before, oldest first; returns the positions added.
  // A shard of another spec throws std::runtime_error naming it.
  int64_t ingest_new(const std::string& dir);
  // Restores the state saved by a checkpoint: the shards read (file names, in order; paths
  // saved by older checkpoints are cut to their names), found in `dir`, and the total
  // positions. Reads only the newest of them, enough to fill the window.
  void restore(const std::string& dir, const std::vector<std::string>& ingested, int64_t total_positions);

  // Trainable positions ever read, and now in the window.
  int64_t total_positions() const { return total_positions_; }
  int64_t window_positions() const { return static_cast<int64_t>(index_.size()); }
  // The window's size for `total` positions: clamp(scale * total^exponent, min, max).
  int64_t window_target(int64_t total) const;
  // File names of the shards read, oldest first.
  const std::vector<std::string>& ingested() const { return ingested_; }

  // Fills `out` with `batch` positions drawn uniformly (with replacement) from the window.
  // Precondition: window_positions() > 0. Deterministic given the rng state and the window.
  void sample(int batch, Rng& rng, TrainingBatch* out) const;

  GameStats take_game_stats();

 private:
  void add_games(std::vector<GameRecord>&& games, bool count_stats);
  void evict_and_index();

  GameSpec spec_;
  ReplayConfig config_;
  std::deque<GameRecord> games_;
  std::deque<int64_t> game_positions_;
  int64_t held_positions_ = 0;
  int64_t total_positions_ = 0;
  std::vector<std::string> ingested_;
  // (game in games_, ply) of each trainable position of the window.
  std::vector<std::pair<uint32_t, uint16_t>> index_;
  GameStats stats_;
};

}  // namespace quax
