// The main thread's report of a training process, every run.progress_seconds: the progress
// line on stdout (games, positions and evaluations a second, the learner's step and loss or
// how long its window takes to fill, the time left) and the "selfplay" records of
// metrics.jsonl (this process's rates, its model's step and lag).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "train/config.h"
#include "train/metrics_file.h"
#include "train/run_control.h"
#include "train/train_loop.h"

namespace quax {

class RunProgress {
 public:
  // Counts from now. `process_id` names this process in the records (host and pid).
  RunProgress(const TrainConfig& config, const TrainOptions& options, const RunControl& control, MetricsFile& metrics,
              const std::string& process_id);

  // Whether run.progress_seconds have passed since the last report.
  bool due() const;
  // Writes the self-play record (when games ended since the last report) and prints the line
  // (unless options.quiet). `elapsed`: this invocation's seconds.
  void report(double elapsed);

 private:
  using Clock = std::chrono::steady_clock;
  // This process's self-play counters, read once per report.
  struct Counts {
    int64_t games = 0, positions = 0, evals = 0, moves = 0, net_micros = 0, played = 0;
  };
  static Counts read(const RunControl& control);
  void write_selfplay_record(const Counts& now, double dt);
  // The learner's part of the line: its step and loss, or the window it waits for.
  std::string learner_text(double seconds_left_by_time) const;
  // What the learner's window holds or will as soon as the shards are written: this process's
  // finished games, or (self-play in other processes) what the learner has read.
  int64_t window_filled() const;

  const TrainConfig& config_;
  const TrainOptions& options_;
  const RunControl& control_;
  MetricsFile& metrics_;
  const std::string process_id_;

  const Clock::time_point start_;
  const int64_t step0_, evals0_, filled0_;
  Clock::time_point last_;
  Counts at_last_;  // at the last report (moves and network time from 0)
};

}  // namespace quax
