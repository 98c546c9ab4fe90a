// What the threads of one training process share: the stop flag, the current model, and
// counters that keep self-play and the learner in step and feed the progress line.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace quax {

struct InferenceModel;

// How long a thread of the run sleeps while it waits (for a first model, for data): short
// beside any step of the run, and a stop request is seen within it.
inline constexpr std::chrono::milliseconds kWaitPoll{100};

// The newest model for self-play. The learner (or a watcher of the models directory) sets
// it; self-play threads poll version() and take the model when it changed.
class ModelSlot {
 public:
  void set(std::shared_ptr<const InferenceModel> model) {
    std::lock_guard<std::mutex> lock(mu_);
    model_ = std::move(model);
    version_.fetch_add(1);
  }
  std::shared_ptr<const InferenceModel> get() const {
    std::lock_guard<std::mutex> lock(mu_);
    return model_;
  }
  int64_t version() const { return version_.load(); }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const InferenceModel> model_;
  std::atomic<int64_t> version_{0};
};

struct RunControl {
  std::atomic<bool> stop{false};
  std::atomic<bool> selfplay_done{false};  // self-play reached run.max_games
  ModelSlot model;

  // Self-play side (this process).
  std::atomic<int64_t> games{0};
  std::atomic<int64_t> moves{0};
  std::atomic<int64_t> positions_written{0};  // trainable positions in shards written
  // Trainable positions of finished games, counted as each game ends (a shard is written
  // every selfplay.games_per_shard games): what the progress line shows, so that its
  // positions grow with its games.
  std::atomic<int64_t> positions_played{0};
  std::atomic<int64_t> evaluations{0};
  std::atomic<int64_t> network_micros{0};     // time inside the network's forward
  std::atomic<int64_t> cache_lookups{0};      // evaluation cache (selfplay.cache_entries)
  std::atomic<int64_t> cache_hits{0};
  // Learner side.
  std::atomic<int64_t> step{0};
  std::atomic<int64_t> samples_trained{0};
  std::atomic<int64_t> positions_ingested{0};  // every position the run's windows ever took in
  std::atomic<int64_t> window_positions{0};    // what the windows hold now: the learner's pool
  // The learner waits for its window to hold positions (a fresh run, or one resumed without its
  // shards): self-play plays on whatever the counts say of the learner's lead.
  std::atomic<bool> window_refilling{false};
  std::atomic<double> last_loss{0};
  std::atomic<int64_t> nonfinite_steps{0};  // steps skipped for a NaN or inf loss or gradient
  std::atomic<bool> learner_running{false};  // in this process: self-play throttles to it

  // The first error of a thread: stops the run and becomes the process's error.
  void fail(const std::string& message) {
    {
      std::lock_guard<std::mutex> lock(error_mu);
      if (error.empty()) error = message;
    }
    stop = true;
  }
  std::mutex error_mu;
  std::string error;
};

}  // namespace quax
