// A thread that links one training process to others (distributed/: the learner and the
// actors of an MPI job). run_training (train/train_loop.h) runs it beside its own threads,
// shows its text in the progress line and lets it finish after them.
#pragma once

#include <string>

#include "train/metrics_file.h"
#include "train/run_control.h"

namespace quax {

class RunCompanion {
 public:
  virtual ~RunCompanion() = default;
  // Runs in a thread of its own from just after the first model is in control.model (on a
  // learner) or from the start (on an actor) until control.stop. It may set control.stop,
  // control.selfplay_done or call control.fail.
  virtual void run(RunControl& control, MetricsFile& metrics) = 0;
  // Appended to each progress line, e.g. " | actors 2/2 games 40 ...". Any thread.
  virtual std::string progress_text() = 0;
  // After every other thread of the run has returned (a learner's last checkpoint is
  // written, self-play's last shards are on disk); `error` is the run's error or "".
  virtual void finish(const std::string& error) = 0;
};

}  // namespace quax
