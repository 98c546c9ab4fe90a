// `quax export`: a learner checkpoint (or a model file) written as the model file users
// load: a TorchScript module in eval mode,
//   forward(planes [B, C, N, N] float32) -> (policy_logits [B, A], value [B])
// with its description "quax.json" inside (nets/model_file.h) extended by the action
// layout spelled out. Loads with torch::jit::load (C++) and torch.jit.load (Python).
// Torch-free header.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "env/types.h"

namespace quax {

struct ExportedModel {
  GameSpec spec;
  int64_t step = 0;
  bool from_checkpoint = false;  // else the source was a model file
  nlohmann::json description;    // as written into the file
};

// Writes `out` atomically (nets/model_file.h's save_model_file: eval mode, the description
// complete) with "exported_from" the source's file name. `levels_from`, when given, is a model
// file of the same network (variant, net, step: a shipped file being re-exported from its
// learner state) whose "levels" table is carried over. Throws std::runtime_error with one
// line naming the file when `source` is missing, is neither a checkpoint nor a model file,
// `levels_from` is not a model file of the same network with levels, or `out` cannot be
// written; nothing is written then.
ExportedModel export_model(const std::string& source, const std::string& out, const std::string& levels_from = "");

// Reference outputs for round-trip checks: `count` positions from random games of the
// source's game (seeded), their planes and the policy logits and values the SOURCE's
// network gives (the checkpoint's weights through the inference path, not the exported
// file). JSON: {planes_shape: [B,C,N,N], planes: [...], policy_shape: [B,A], policy: [...],
// value: [...]}. Throws like export_model.
// `size` > 0: positions of that board side instead of the source's own size.
nlohmann::json reference_outputs(const std::string& source, int count, uint64_t seed, int size = 0);

// The planes alone of reference_outputs' positions (the same positions for the same seed), for
// int8 calibration: {planes_shape: [B,C,N,N], planes: [...]}; no network is run. Throws like
// export_model.
nlohmann::json random_position_planes(const std::string& source, int count, uint64_t seed, int size = 0);

}  // namespace quax
