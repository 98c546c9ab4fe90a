// The learner's metrics record ("kind": "learn" in metrics.jsonl): the mean of the step
// metrics since the last record, the window, the games the learner read, where the learner's
// thread spent its time, and this process's self-play rates over the same span.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "train/config.h"
#include "train/learner.h"
#include "train/replay_windows.h"
#include "train/run_control.h"

namespace quax {

class LearnRecord {
 public:
  // What the learner's thread does, timed for the record's "learner_time".
  enum class Phase { kSample, kTrain, kUpkeep, kWait };

  // Counts from now, and must be built and taken on the learner's thread (whose CPU time it
  // reads): `control`'s self-play counters as they are, `windows` batches none.
  LearnRecord(const TrainConfig& config, const ReplayWindows& windows, const RunControl& control);

  // A step that trained, its batch from window `window`.
  void add_step(const StepMetrics& m, size_t window);
  // A step skipped for a NaN or inf loss or gradient, its batch from window `window`.
  void add_skipped(size_t window) {
    ++skipped_;
    ++batches_by_window_[window];
  }

  // Seconds the learner's thread spent on `phase`: taking batches, training, upkeep (reading
  // new shards, publications, checkpoints, snapshots) or waiting for self-play.
  void add_time(Phase phase, double seconds) { phase_seconds_[static_cast<size_t>(phase)] += seconds; }

  // The record of the steps since the last one (at least one added), then starts over. Takes
  // the windows' game statistics (ReplayWindows::take_game_stats).
  nlohmann::json take(int64_t step, ReplayWindows& windows);

 private:
  void restart(std::chrono::steady_clock::time_point now, double cpu_now);

  const TrainConfig& config_;
  const RunControl& control_;
  StepMetrics sum_;
  int steps_ = 0;
  int64_t skipped_ = 0;
  std::vector<int64_t> batches_by_window_;
  std::chrono::steady_clock::time_point since_;
  std::array<double, 4> phase_seconds_{};
  double cpu_at_ = 0;
  int64_t games_at_ = 0, evals_at_ = 0, positions_at_ = 0;
};

}  // namespace quax
