// Model files: a TorchScript archive of the model (loadable with torch::jit::load in C++
// and torch.jit.load in Python) with a JSON description stored inside as the extra file
// "quax.json": format version, variant, size, swap, input plane names, action layout,
// network shape, training step and the board sizes it was trained on ("sizes"; files
// written before the list mean their one size). Self-play picks up models in this form; export (the
// arena/export issue) can ship them as they are.
#pragma once

#include <torch/script.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nets/net_config.h"

namespace quax {

// `trained_sizes`: the board sizes of its training (empty: shape.size alone).
nlohmann::json model_description(const ModelShape& shape, const NetConfig& net, int64_t step,
                                 const std::vector<int>& trained_sizes = {});

// Writes atomically. Throws std::runtime_error on failure.
void save_model_file(const torch::jit::Module& model, const nlohmann::json& description, const std::string& path);

struct LoadedModel {
  torch::jit::Module module;
  nlohmann::json description;
  ModelShape shape;
  NetConfig net;
  int64_t step = 0;
  std::vector<int> trained_sizes;  // "sizes", or {shape.size} for a file without the list
};
// Throws std::runtime_error naming the file when it cannot be read or lacks a description
// (saying so when it is a learner checkpoint, which `quax export` turns into a model file).
LoadedModel load_model_file(const std::string& path);

// The one check of a model against the game it is asked to play, behind every player and
// evaluator made from a model file (load_inference_model, make_model_agent): "" when the
// model can play `want` - its own variant at any size, with the same input planes and
// action layout (same_layout; the network is fully convolutional) - else one line naming
// both. When it can but want.size is none of `trained_sizes`, *warning gets one line
// naming the model `name` and the sizes (a warning, not a refusal); else "".
std::string check_model_matches(const ModelShape& have, const std::vector<int>& trained_sizes, const GameSpec& want,
                                const std::string& name, std::string* warning);

}  // namespace quax
