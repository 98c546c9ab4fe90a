// The torch side of train/learner.h, for tests that must reach the learner's network
// itself (e.g. to damage its weights as a diverged run would).
#pragma once

#include <torch/script.h>

#include "train/learner.h"

namespace quax {

// The trainable module (training mode); changes to it are the learner's.
torch::jit::Module& learner_module(Learner& learner);

}  // namespace quax
