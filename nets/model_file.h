// Model files: a TorchScript archive of the model (loadable with torch::jit::load in C++
// and torch.jit.load in Python) with a JSON description stored inside as the extra file
// "quax.json": format version, variant, size, swap, input plane names, action layout,
// network shape and training step. Self-play picks up models in this form; export (the
// arena/export issue) can ship them as they are.
#pragma once

#include <torch/script.h>

#include <nlohmann/json.hpp>
#include <string>

#include "nets/net_config.h"

namespace quax {

nlohmann::json model_description(const ModelShape& shape, const NetConfig& net, int64_t step);

// Writes atomically. Throws std::runtime_error on failure.
void save_model_file(const torch::jit::Module& model, const nlohmann::json& description, const std::string& path);

struct LoadedModel {
  torch::jit::Module module;
  nlohmann::json description;
  ModelShape shape;
  NetConfig net;
  int64_t step = 0;
};
// Throws std::runtime_error naming the file when it cannot be read or lacks a description
// (saying so when it is a learner checkpoint, which `quax export` turns into a model file).
LoadedModel load_model_file(const std::string& path);

// Empty when a model of `have` can play `want`; else one line naming both.
std::string check_model_matches(const ModelShape& have, const GameSpec& want);

}  // namespace quax
