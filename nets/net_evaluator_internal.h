// The torch side of nets/net_evaluator.h, for the LibTorch files that build inference
// models straight from a trainable module (the learner, benchmarks, tests).
#pragma once

#include <torch/script.h>

#include <memory>

#include "nets/net_config.h"
#include "nets/net_evaluator.h"

namespace quax {

struct InferenceModel {
  torch::jit::Module module;  // frozen, optimized for inference
  ModelShape shape;
  int64_t step = 0;
};

// Prepares a trainable module for inference (a frozen copy; `trainable` is unchanged).
std::shared_ptr<const InferenceModel> make_inference_model(const torch::jit::Module& trainable,
                                                           const ModelShape& shape, int64_t step);

}  // namespace quax
