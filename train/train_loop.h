// The training process: self-play threads and the learner in one process (the default), or
// either alone on a shared run directory (`quax selfplay`, `quax learn`).
//
// Run directory:
//   config.yaml          the full configuration (every key), written when the run starts
//   selfplay/*.qxs       shards of finished games (train/shard.h), each of one size; selfplay/bad/
//                        those that failed to read
//   models/model-*.pt    models published for self-play (nets/model_file.h)
//   model.pt             a copy of the newest published model (for arena, gtp, play)
//   checkpoints/ckpt-*.pt  learner checkpoints (train/learner.h)
//   metrics.jsonl        one JSON object per line: learner losses, window, self-play speed
#pragma once

#include <atomic>
#include <string>

#include "train/config.h"

namespace quax {

class RunCompanion;

struct TrainOptions {
  bool selfplay = true;
  bool learn = true;
  // Continue from the newest checkpoint of the run directory. Without it a run directory
  // that already holds checkpoints or shards is refused.
  bool resume = false;
  bool quiet = false;  // no progress lines
  // After each checkpoint the learner deletes the shards that hold no game of the replay
  // window, except the newest keep_shards (ReplayWindow::prune_shards); 0 keeps every shard.
  int keep_shards = 0;
  // Polled every 50 ms: once true, the run stops as at a limit (the learner checkpoints).
  // The commands point it at their signal handler's flag (command/stop_signal.h).
  const std::atomic<bool>* stop_requested = nullptr;
  // Links this process to others (train/run_companion.h). Self-play without a learner then
  // takes its models from the companion instead of watching <run>/models.
  RunCompanion* companion = nullptr;
};

// Runs until a limit of config.run is reached or a stop is requested; the learner checkpoints
// before returning. Removes the temporaries of killed writes first (train/run_files.h).
// Throws std::runtime_error with one line for user errors (existing run
// directory, no checkpoint to resume, checkpoint of another variant/size/net, a learn.device
// or selfplay.device this machine lacks). Self-play on a GPU shares one network batch among
// its threads (nets/evaluation_server.h); on the CPU each thread has its own.
void run_training(const TrainConfig& config, const TrainOptions& options);

// The configuration a run directory was started with (its config.yaml).
TrainConfig load_run_config(const std::string& run_dir);

}  // namespace quax
