// Publishing the learner's model to self-play only when it is sound: a model whose outputs
// are NaN or inf on the probe positions (nets/net_evaluator.h), or whose self-play copy
// computes something else than the network trained, would stall or spoil every game that
// uses it, and would push the good models out of <run>/models.
#pragma once

#include <string>

#include "train/learner.h"
#include "train/run_control.h"

namespace quax {

// When the learner's current model gives finite outputs on the probe positions, and its
// inference copy for self-play (selfplay.precision, selfplay.device) computes what its
// float32 copy on the CPU computes (compare_model_outputs): writes it to `model_file` and a
// copy to `newest_copy` (both atomically), hands its inference copy to `slot` (self-play in
// this process) and returns "". Otherwise returns one line saying why, and nothing is
// written and the slot keeps its model; except for an int8 copy, whose rounding is the model's
// own: the float32 copy is handed to the slot instead, with one warning line on stderr.
std::string publish_model_if_sound(const Learner& learner, const std::string& model_file,
                                    const std::string& newest_copy, ModelSlot& slot);

}  // namespace quax
