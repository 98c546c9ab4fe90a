// A self-play thread: one multi-game driver with its own network evaluator, writing
// finished games to shards under <run>/selfplay/ and picking up each new model. A run of
// several sizes (game.sizes) has one driver per size, stepped by a MixedDriver
// (mcts/mixed_driver.h) so that games follow the sizes' weights, and one shard stream per size.
#pragma once

#include <string>

#include "train/config.h"
#include "train/run_control.h"

namespace quax {

class EvaluationServer;  // nets/evaluation_server.h

// Runs until control.stop, or until run.max_games games were finished by all threads
// together. `writer` makes this thread's shard names unique (e.g. "p1234t0"; with several
// sizes "p1234t0n9" for the 9x9 stream); `seed` seeds its games. In one process with the
// learner (control.learner_running), waits while it is ahead of the train ratio
// (train/pacing.h). Waits for a first model in control.model. An error stops the run through
// control.fail().
// With a `server`, the thread evaluates through it (one batch for all the threads sharing it:
// what a GPU needs, nets/evaluation_server.h) and keeps its model current; without one it
// has its own evaluator on its own thread.
void run_selfplay_worker(const TrainConfig& config, const std::string& run_dir, const std::string& writer,
                         uint64_t seed, RunControl& control, EvaluationServer* server = nullptr);

}  // namespace quax
