// The learner's data in a run of several board sizes (game.sizes): one ReplayWindow per size,
// each fed the shards whose header names its game, and batches that each hold positions of
// one size. A run of one size has one window and behaves exactly as that window alone (no
// header is read twice, no random number is drawn for the size).
//
// A batch's size is drawn by the sizes' weights (game.size_weights), among the sizes whose
// window holds positions. Not by the positions held: a game on a larger board has more plies
// (about 2.5 times as many on 11x11 as on 7x7), so the larger boards would take a share of
// the training that grows with their game length, at the cost of the small ones. With weights
// the config says how much each size counts, for self-play's games (mcts/mixed_driver.h) and
// the learner's batches alike.
//
// Each window follows its own size's positions: clamp(window_scale * total^window_exponent,
// window_min, window_max) of the positions of that size.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "train/replay_window.h"

namespace quax {

// What a checkpoint keeps of one window: enough for ReplayWindow::restore.
struct WindowState {
  int size = 0;                              // the board size of the window's games
  std::vector<std::string> ingested_shards;  // shard file names, in the order read
  int64_t total_positions = 0;
};

class ReplayWindows {
 public:
  // One window per spec; weights[i] > 0 is specs[i]'s share of the batches (equal lengths).
  // With ownership_targets the batches carry them (ReplayWindow).
  ReplayWindows(const std::vector<GameSpec>& specs, const std::vector<double>& weights, const ReplayConfig& config,
                bool ownership_targets = false);

  // Reads the new shards of `dir` into the window of their spec (read from the shard's
  // header once per shard). A shard of none of the specs, or without a readable header, goes
  // to the first window, which sets it aside with a warning (ReplayWindow::ingest_new).
  // Returns the positions added.
  int64_t ingest_new(const std::string& dir);
  // ReplayWindow::restore of each window from the entry of `saved` with its size (none: the
  // window starts empty).
  void restore(const std::string& dir, const std::vector<WindowState>& saved);
  // The state of every window, in the order of the specs.
  std::vector<WindowState> state() const;
  // ReplayWindow::prune_shards of every window (each keeps its own newest `keep`).
  int prune_shards(const std::string& dir, int keep);

  // Sums over the windows.
  int64_t total_positions() const;
  int64_t window_positions() const;
  GameStats take_game_stats();

  size_t count() const { return windows_.size(); }
  const GameSpec& spec(size_t i) const { return specs_[i]; }
  const ReplayWindow& window(size_t i) const { return windows_[i]; }

  // Fills `out` with `batch` positions of one window (ReplayWindow::sample), chosen by weight
  // among those holding positions; returns its index. Precondition: window_positions() > 0.
  // Deterministic given the rng state and the windows.
  size_t sample(int batch, Rng& rng, TrainingBatch* out) const;

 private:
  std::vector<GameSpec> specs_;
  std::vector<double> weights_;
  std::vector<ReplayWindow> windows_;
  std::map<std::string, size_t> window_of_shard_;  // shard file name -> window, for those seen
};

}  // namespace quax
