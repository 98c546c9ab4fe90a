// The learner's thread of a training process: takes batches from the replay windows as the
// train ratio allows (train/pacing.h), trains, and at their steps publishes models for
// self-play (with optional gating games), keeps time snapshots, writes checkpoints and the
// learn records of metrics.jsonl.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "env/rng.h"
#include "train/config.h"
#include "train/learn_record.h"
#include "train/learner.h"
#include "train/metrics_file.h"
#include "train/replay_windows.h"
#include "train/run_control.h"

namespace quax {

class LearnerThread {
 public:
  // `state` is the run state the learner resumed from (or a fresh one); it is updated at
  // every checkpoint. `keep_shards` as TrainOptions::keep_shards.
  LearnerThread(const TrainConfig& config, const std::string& run_dir, Learner& learner, ReplayWindows& windows,
                Rng& rng, RunState& state, RunControl& control, MetricsFile& metrics, int keep_shards);

  // Trains until control.stop, run.max_steps, or self-play done with every position used;
  // then reads the last shards, publishes the last model and checkpoints. Throws on
  // learn.max_nonfinite_steps skipped steps in a row (NonFiniteTrainingError, with the newest
  // checkpoint named) and on errors of the learner or the run directory.
  void run();

 private:
  // Lists the self-play directory when due or when starved; true while no batch may be taken.
  bool starved();
  // One training step, counting steps skipped for a NaN or inf loss or gradient.
  StepMetrics train_step_counting_skips(const TrainingBatch& batch);
  // What is due after a step that trained: snapshot, publication, checkpoint (the record is
  // written by run()).
  void after_step(int64_t step);
  void publish();
  // Optional gating games of the new model (config.gating); the learner waits for them
  // while self-play goes on with the new model.
  void gate(const std::string& path);
  // run.snapshot_minutes: a copy of the model at every multiple of that much training time,
  // taken between steps, so that strength can be measured against time afterwards.
  void keep_snapshot_if_due();
  void checkpoint();
  void ingest();

  const TrainConfig& config_;
  const std::string run_dir_;
  Learner& learner_;
  ReplayWindows& windows_;
  Rng& rng_;
  RunState& state_;
  RunControl& control_;
  MetricsFile& metrics_;  // and the run's clock
  const int keep_shards_;

  LearnRecord record_;
  std::chrono::steady_clock::time_point last_ingest_;
  int64_t last_checkpoint_step_ = 0;
  std::string previous_model_;
  int64_t publications_ = 0;
  double next_snapshot_s_ = -1;
};

}  // namespace quax
