// Rank 0 of `quax train --distributed`: the learner's side of the link to the actors (ranks
// 1..K-1). It sends each actor its configuration and every model the learner publishes,
// writes the shards the actors send into <run>/selfplay (the learner reads them as it reads
// its own process's), and records each actor's counters in the run's metrics. An actor that
// says goodbye with an error, or is silent longer than the peer timeout, is reported and left
// out; the run goes on with the others, and fails (after its checkpoint) when none is left. A
// left-out actor heard from again (its link healed) is told to stop, and what it sends is
// dropped: it was counted out. The configurations and heartbeats go out from the start, while
// the learner still builds its model or reads its window back (minutes, for a large resumed
// run), so that no actor gives up on a learner that is only slow to start.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "distributed/mpi_channel.h"
#include "train/config.h"
#include "train/run_companion.h"

namespace quax {

class LearnerLink : public RunCompanion {
 public:
  // `actors`: ranks 1..actors. `peer_timeout_s`: silence after which an actor is taken for dead.
  // Sends the configurations at once, and heartbeats until run() or finish().
  LearnerLink(MpiChannel& channel, const TrainConfig& config, int actors, double peer_timeout_s);
  ~LearnerLink() override;
  LearnerLink(const LearnerLink&) = delete;
  LearnerLink& operator=(const LearnerLink&) = delete;

  void run(RunControl& control, MetricsFile& metrics) override;
  // " | actors 2/2 games 140 positions 9.1k (310/s) lag 20": actors still playing, and their sums.
  std::string progress_text() override;
  // Tells the actors to stop (also those that never started: the run failed before), then
  // writes the shards they send until each said goodbye or went silent (at most the timeout).
  void finish(const std::string& error) override;
  // False once an actor was left out (it died, failed or fell silent).
  bool all_actors_well() const;

  // The configuration actor `rank` plays with: the run's, with its own seed and no limits of
  // its own (it stops when told). `invocation` tells runs apart (shards already in the run).
  static TrainConfig actor_config(const TrainConfig& run_config, int rank, uint64_t invocation);

 private:
  using Clock = std::chrono::steady_clock;
  enum class Status { kPlaying, kFinished, kLost };
  struct Actor {
    int rank = 0;
    Status status = Status::kPlaying;
    Clock::time_point last_heard;
    int64_t model_step_sent = -1;  // newest model sent to it
    nlohmann::json stats;          // its last counters (kStats)
    Clock::time_point stats_time;
    int64_t shards = 0;            // shards received from it
    bool told_to_stop = false;     // left out, then heard from: told to stop once
  };

  void send_configs();
  void send_heartbeats();
  // Ends the thread that greets the actors before run(); MPI calls are one thread's again.
  void stop_greeting();
  void handle(const Message& m, RunControl* control);
  void write_shard_of(Actor& actor, const std::string& bytes);
  void record_stats(Actor& actor, const std::string& bytes, RunControl* control);
  void lose(Actor& actor, const std::string& why);
  void send_newest_model();
  void stop_actors();
  Actor* actor_of(int rank);

  MpiChannel& channel_;
  const TrainConfig& config_;
  const double peer_timeout_s_;
  std::vector<Actor> actors_;
  std::string shard_dir_;
  MetricsFile* metrics_ = nullptr;
  bool stop_sent_ = false, finished_ = false;
  std::atomic<bool> greeting_{true};
  std::thread greeter_;  // configurations, then heartbeats, until run() or finish()
  int64_t model_step_ = -1;  // the newest model read from <run>/models, and its bytes
  std::string model_bytes_;
  mutable std::mutex mu_;    // actors_' counters, read by progress_text from another thread
  int64_t learner_step_ = 0;
};

}  // namespace quax
