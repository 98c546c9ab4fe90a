// The learner's view of the self-play data: the newest positions of the shards it has read,
// in a window that grows with the data, and batches sampled uniformly from it with a random
// goal-keeping symmetry. Torch-free: a batch is plain float buffers.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
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
  // With ownership targets on (else empty): env/ownership.h's planes (owner, chain) of the
  // game's end, [size, 2, n, n], and per sample 1, or 0 (planes all 0) when the game did not
  // end on the board (resigned, or stopped at selfplay.max_moves).
  std::vector<float> ownership;
  std::vector<float> ownership_weight;
};

// Counts over the games read since the last take_game_stats().
struct GameStats {
  int64_t games = 0;
  int64_t plies = 0;
  int64_t black_wins = 0, white_wins = 0, draws = 0;
  int64_t resigned = 0;
  int64_t played_out_would_resign = 0;  // resignation disabled, would have resigned
  int64_t false_resignations = 0;       // ... and the would-be resigner won

  GameStats& operator+=(const GameStats& o) {
    games += o.games;
    plies += o.plies;
    black_wins += o.black_wins;
    white_wins += o.white_wins;
    draws += o.draws;
    resigned += o.resigned;
    played_out_would_resign += o.played_out_would_resign;
    false_resignations += o.false_resignations;
    return *this;
  }
};

class ReplayWindow {
 public:
  // `ownership_targets`: sample() fills the batch's ownership planes (for an ownership head);
  // each game's final board is then worked out once, when the game enters the window.
  ReplayWindow(const GameSpec& spec, const ReplayConfig& config, bool ownership_targets = false);

  // Reads the shards of `dir` not read before, oldest first; returns the positions added.
  // A shard that fails to read (read_shard: damaged, truncated, another spec) is skipped with
  // one warning on stderr naming it and set aside in <dir>/bad/.
  int64_t ingest_new(const std::string& dir);
  // The same for the shards at `paths` (oldest first): those of this window's spec when a
  // run of several sizes shares a directory (train/replay_windows.h).
  int64_t ingest(const std::vector<std::string>& paths);
  // Restores the state saved by a checkpoint: the shards read (file names, in order; paths
  // saved by older checkpoints are cut to their names), found in `dir`, and the total
  // positions. Reads only the newest of them, enough to fill the window. A shard that fails to
  // read is skipped with a warning and set aside; one that is gone (deleted by prune_shards for
  // a smaller window) ends the reading there with a warning. The window is then smaller.
  void restore(const std::string& dir, const std::vector<std::string>& ingested, int64_t total_positions);
  // Deletes from `dir` the shards read that hold no game of the window, except the newest
  // `keep` shards read; keep <= 0 keeps all. Returns how many files were deleted. Called right
  // after a checkpoint is saved, it deletes none that a restore() from it reads.
  int prune_shards(const std::string& dir, int keep);

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
  // The shard's games, or nullopt after a warning when it fails to read (a bad file is set
  // aside; a missing one is only reported).
  std::optional<std::vector<GameRecord>> read_or_set_aside(const std::string& path);
  // Adds the games of ingested_[shard].
  void add_games(std::vector<GameRecord>&& games, size_t shard, bool count_stats);
  void evict_and_index();

  GameSpec spec_;
  ReplayConfig config_;
  std::deque<GameRecord> games_;
  std::deque<int64_t> game_positions_;
  std::deque<size_t> game_shards_;  // index in ingested_ of each game's shard
  bool ownership_targets_ = false;
  // Per game with ownership targets on: its final_ownership(), empty when it did not end on
  // the board.
  std::deque<std::vector<CellOwnership>> final_boards_;
  size_t pruned_ = 0;               // ingested_[0, pruned_) were considered by prune_shards
  int64_t held_positions_ = 0;
  int64_t total_positions_ = 0;
  std::vector<std::string> ingested_;
  // Shards that failed to read and stayed where they were (they could not be moved): not
  // tried again.
  std::set<std::string> rejected_;
  // (game in games_, ply) of each trainable position of the window.
  std::vector<std::pair<uint32_t, uint16_t>> index_;
  GameStats stats_;
};

}  // namespace quax
