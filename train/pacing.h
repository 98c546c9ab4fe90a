// The train ratio (replay.train_ratio: samples trained per position played) from both sides of
// one process: when the learner has too little to train on, and when self-play is so far
// ahead of it that it waits. The two rules are read together here so that they never wait for
// each other.
#pragma once

#include <cstdint>

#include "train/config.h"
#include "train/run_control.h"

namespace quax {

// What the learner's window must hold before it trains, besides the run's count reaching
// replay.min_positions: a run resumed without its shards (another machine, a kept learner
// state) restarts its window empty while the count it restored says it was filled long ago,
// and refills to what a fresh run starts from.
int64_t window_refill_positions(const ReplayConfig& replay);

// The learner's side, from its window's counts: `refilling` while the window holds fewer than
// window_refill_positions; `starved` while it may not take a batch: before replay.min_positions,
// while refilling, or when one more batch would train more than train_ratio samples per
// position the run has played.
struct LearnerFeed {
  bool refilling = false;
  bool starved = false;
};
LearnerFeed learner_feed(const TrainConfig& config, int64_t total_positions, int64_t window_positions,
                         int64_t samples_trained);

// Positions self-play may be ahead of the learner's consumption (in one process).
int64_t selfplay_lead_allowed(const TrainConfig& config);

// Self-play's side: whether a self-play thread waits, being more than selfplay_lead_allowed
// positions ahead of what the learner of its process consumed. Never while no learner runs in
// the process or while the learner refills its window (it waits for self-play then).
bool selfplay_should_wait(const TrainConfig& config, const RunControl& control);

}  // namespace quax
