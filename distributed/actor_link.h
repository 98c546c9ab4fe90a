// Ranks 1..K-1 of `quax train --distributed`: an actor. It runs self-play as `quax selfplay`
// does, on a directory of its own, so that no file system is shared with the learner: each
// model the learner sends is written there and taken up (the checks of train/model_follower.h),
// and each shard its self-play threads write there is sent to the learner and removed. Its
// counters go to the learner every couple of seconds, which also tells the learner it is alive:
// models load on a thread of their own, so that a slow load (a loaded machine, a large net)
// never silences the actor.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>

#include "distributed/mpi_channel.h"
#include "train/config.h"
#include "train/run_companion.h"

namespace quax {

class ActorLink : public RunCompanion {
 public:
  // `peer_timeout_s`: the learner leaves an actor out after that much silence; the actor gives
  // up on the learner after kActorPatience times as much. Why later: over TCP, Open MPI 4 ends a
  // process when a message it has in flight meets a peer that exited, so an actor whose link
  // healed after the learner left it out must still be there to take what was in flight (the
  // learner then tells it to stop) instead of taking the learner down with it.
  ActorLink(MpiChannel& channel, double peer_timeout_s);
  static constexpr double kActorPatience = 2;

  // Waits for the learner's configuration for this actor and returns it with run.dir set to
  // `local_dir` (created); nullopt when the learner says stop first. Throws std::runtime_error
  // when the learner is silent past the timeout or sends something else.
  std::optional<TrainConfig> receive_config(const std::string& local_dir);

  // Until control.stop (a stop from the learner sets it; the learner's silence, kActorPatience
  // peer timeouts, fails the run).
  void run(RunControl& control, MetricsFile& metrics) override;
  std::string progress_text() override { return ""; }
  // Sends the last shards, the final counters and a goodbye carrying `error`, waits for them
  // to leave (unless the learner is gone) and removes the local directory.
  void finish(const std::string& error) override;
  // False once the learner was taken for gone (silent past the timeout).
  bool learner_well() const { return !learner_gone_; }

 private:
  using Clock = std::chrono::steady_clock;
  // Writes a model the learner sent into the local directory and hands it to load_models.
  void take_model(const std::string& bytes);
  // Until control.stop: loads the newest model handed over (older ones not yet loaded are
  // skipped) and removes the files no longer needed.
  void load_models(RunControl& control);
  void exchange_messages(RunControl& control);
  // Sends the shards waiting in the local directory; with `all` false at most as many as
  // keep a few sends in flight (a slow link is not flooded).
  void send_shards(bool all);
  void send_stats(bool final);

  MpiChannel& channel_;
  const double peer_timeout_s_;
  TrainConfig config_;
  std::string local_dir_;
  RunControl* control_ = nullptr;
  Clock::time_point start_, last_heard_;
  bool learner_gone_ = false, finished_ = false;
  // The newest model file written and not yet taken by load_models ("" when none); the
  // directory's files are written and removed under the same lock.
  std::mutex model_mu_;
  std::condition_variable model_arrived_;
  std::string model_to_load_;
};

}  // namespace quax
