// The torch side of train/learner.h, for tests that must reach the learner's network
// itself (e.g. to damage its weights as a diverged run would).
#pragma once

#include <torch/script.h>

#include "train/learner.h"

namespace quax {

// The trainable module (training mode), with its auxiliary heads; changes to it are the learner's.
torch::jit::Module& learner_module(Learner& learner);

// The soft policy target (KataGo): each row of `policy` [B, A] raised to the power
// 1 / temperature and renormalised to sum 1. Rows must have a positive sum.
torch::Tensor soft_policy_targets(const torch::Tensor& policy, double temperature);

}  // namespace quax
