// The torch side of nets/net_evaluator.h, for the LibTorch files that build inference
// models straight from a trainable module (the learner, benchmarks, tests).
#pragma once

#include <torch/script.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nets/device.h"
#include "nets/net_config.h"
#include "nets/net_evaluator.h"

namespace quax {

class Int8Network;  // nets/int8_network.h

struct InferenceModel {
  torch::jit::Module module;  // frozen, optimized for inference, in `precision` (float32 for int8), on `device`
  // With precision int8: the network run_inference calls instead of `module`.
  std::shared_ptr<const Int8Network> int8;
  Device device = kCpuDevice;  // resolved
  ModelShape shape;
  int64_t step = 0;
  Precision precision = Precision::kFloat32;  // resolved
  std::string source;  // the file it was loaded from; empty when built in memory
  std::vector<int> trained_sizes;  // the file's (nets/model_file.h); {shape.size} when built in memory
  // The model file's network with its forward_aux (nets/model.h) when its description has an
  // ownership head: eval mode, float32, on `device`, not frozen (freezing keeps forward alone);
  // evaluate_ownership calls it, once per analysed position. Empty otherwise.
  std::optional<torch::jit::Module> ownership;
  // Set by the first evaluation that met non-finite outputs: one warning per model.
  mutable std::atomic<bool> warned_nonfinite{false};
};

// Prepares a trainable module for inference (a frozen copy on `device`; `trainable` is
// unchanged, on whatever device it is). Throws std::runtime_error (one line) for a device
// this machine lacks (resolve_device) or a precision it cannot run (check_precision_on).
std::shared_ptr<const InferenceModel> make_inference_model(const torch::jit::Module& trainable,
                                                           const ModelShape& shape, int64_t step,
                                                           Precision precision = Precision::kAuto,
                                                           const Device& device = kCpuDevice);

// Planes [count, C, N, N] of `shape`'s game from `seed`: the start position first, then
// positions after 1 to N*N random legal moves (a move that would end the game is taken back, so
// none of them is over). The first positions are the same whatever `count`.
torch::Tensor random_position_planes(const ModelShape& shape, int count, uint64_t seed);

// Runs the inference module on float32 planes [B, C, N, N] on any device (copied to the
// model's; pinned host memory lets that copy run asynchronously); returns float32 CPU tensors
// (logits [B, A], values [B]) whatever the model's precision and device, A being the model's
// layout at size N. Throws
// std::runtime_error (one line naming the model and the shapes) when the module fails on the
// batch or its output is not a tuple of floating-point policy logits [B, A] and value [B] or
// [B, 1]: the one check of a model's outputs behind every evaluation. Call under
// c10::InferenceMode.
std::pair<torch::Tensor, torch::Tensor> run_inference(const InferenceModel& model, const torch::Tensor& planes);

// Hands `b` positions' outputs, rows `row` to `row + b` of run_inference's (logits, values),
// to an Evaluator's caller: copies them into policy_logits [b, a] and values [b], and prints
// the model's one warning for a non-finite output at a legal action (`masks` [b, a]) or a
// value. Throws std::runtime_error (one line naming the model) when the logits are not `a`
// per position (a model of another layout than the batch's game). Every evaluator of
// inference models ends its evaluate() here (NetEvaluator, EvaluationServer).
void deliver_outputs(const InferenceModel& model, const torch::Tensor& logits, const torch::Tensor& values, int64_t row,
                     int64_t b, int64_t a, const uint8_t* masks, float* policy_logits, float* values_out);

}  // namespace quax
