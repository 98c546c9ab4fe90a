// Resuming a run's learner from the newest checkpoint of its directory.
#pragma once

#include <string>

#include "env/rng.h"
#include "train/config.h"
#include "train/learner.h"
#include "train/replay_windows.h"
#include "train/run_control.h"

namespace quax {

// Loads checkpoint `path` into `learner`, restores the windows from the run's shards and the
// sampling generator, sets `control`'s counts as the run left them, and removes the models
// published after the checkpoint (a future that is replayed differently; self-play must not
// prefer them). Returns the checkpoint's run state. A checkpoint that fails to read throws
// one line naming the older checkpoint that would resume, if one reads. Unless `quiet`, says
// where it resumed and, when the window refills, how far it is.
RunState resume_learner(const TrainConfig& config, const std::string& path, bool quiet, Learner& learner,
                        ReplayWindows& windows, Rng& rng, RunControl& control);

}  // namespace quax
