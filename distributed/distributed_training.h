// `quax train --distributed` under mpirun: rank 0 is the learner (run_training with a
// LearnerLink, distributed/learner_link.h), every other rank an actor playing self-play (with
// an ActorLink, distributed/actor_link.h). Models travel by MPI, so the ranks need no shared
// file system; only rank 0 writes the run directory.
#pragma once

#include <functional>
#include <string>

#include "train/train_loop.h"

namespace quax {

struct DistributedOptions {
  // Silence after which the learner leaves an actor out, and an actor gives up the learner.
  double peer_timeout_s = 60;
  bool learner_plays = false;  // rank 0 also runs self-play threads
  // Where each actor keeps its models and shards before sending them; "" = the system's
  // temporary directory. Each actor makes its own folder in it and removes it at the end.
  std::string actor_dir;
};

// Runs this rank's part until the run ends (a limit, a stop request, the learner's end).
// `run_config` is called on rank 0 alone (the actors get the configuration from it, so the
// config file need only be on the learner's machine). Throws std::runtime_error with one line:
// when this quax was built without MPI, when the job has fewer than 2 ranks, and for the
// errors of run_config and run_training (on an actor prefixed "rank N: ").
void run_distributed_training(const std::function<TrainConfig()>& run_config, TrainOptions options,
                              const DistributedOptions& distributed);

// False when this quax was built without MPI.
bool distributed_training_available();

}  // namespace quax
