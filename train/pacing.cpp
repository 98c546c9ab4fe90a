#include "train/pacing.h"

#include <algorithm>

namespace quax {

int64_t window_refill_positions(const ReplayConfig& replay) {
  return std::max<int64_t>(1, std::min<int64_t>(replay.min_positions, replay.window_min));
}

LearnerFeed learner_feed(const TrainConfig& config, int64_t total_positions, int64_t window_positions,
                         int64_t samples_trained) {
  LearnerFeed feed;
  feed.refilling = window_positions < window_refill_positions(config.replay);
  feed.starved = total_positions < config.replay.min_positions || feed.refilling ||
                 samples_trained + config.learn.batch_size > config.replay.train_ratio * total_positions;
  return feed;
}

int64_t selfplay_lead_allowed(const TrainConfig& config) {
  const double per_publish = config.learn.batch_size * config.learn.publish_every / config.replay.train_ratio;
  return std::max<int64_t>(config.replay.min_positions / 2, static_cast<int64_t>(per_publish));
}

bool selfplay_should_wait(const TrainConfig& config, const RunControl& control) {
  if (!control.learner_running.load() || control.window_refilling.load()) return false;
  const int64_t written = control.positions_written.load();
  if (written < config.replay.min_positions) return false;
  const double consumed = control.samples_trained.load() / config.replay.train_ratio;
  return static_cast<double>(written) - consumed > static_cast<double>(selfplay_lead_allowed(config));
}

}  // namespace quax
