// The torch side of train/learner.h, for tests that must reach the learner's network
// itself (e.g. to damage its weights as a diverged run would).
#pragma once

#include <torch/script.h>
#include <torch/optim/optimizer.h>

#include "train/learner.h"

namespace quax {

// The trainable module (training mode), with its auxiliary heads; changes to it are the learner's.
torch::jit::Module& learner_module(Learner& learner);

// The optimizer's state of parameter `p` (its momentum for SGD), null when it has none yet.
// LibTorch keys that state by the parameter's TensorImpl: as text up to 1.x, as the pointer
// itself in 2.x; this is the one place that knows (by the map's key type, not a version).
const torch::optim::OptimizerParamState* optimizer_param_state(const torch::optim::Optimizer& optimizer,
                                                               const torch::Tensor& p);

// The soft policy target (KataGo): each row of `policy` [B, A] raised to the power
// 1 / temperature and renormalised to sum 1. Rows must have a positive sum.
torch::Tensor soft_policy_targets(const torch::Tensor& policy, double temperature);

}  // namespace quax
