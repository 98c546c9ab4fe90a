// Model files: a TorchScript archive of the model (loadable with torch::jit::load in C++
// and torch.jit.load in Python) with a JSON description stored inside as the extra file
// "quax.json": format version, variant, size, swap, input plane names, action layout,
// network shape, training step and the board sizes it was trained on ("sizes"; files
// written before the list mean their one size). Self-play picks up models in this form; export (the
// arena/export issue) can ship them as they are.
#pragma once

#include <torch/script.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "nets/model_levels.h"
#include "nets/net_config.h"

namespace quax {

// `trained_sizes`: the board sizes of its training (empty: shape.size alone). The "net"
// object has "ownership_head": true when `net` has one (the file's module then has forward_aux,
// nets/model.h); a description without the key means none.
nlohmann::json model_description(const ModelShape& shape, const NetConfig& net, int64_t step,
                                 const std::vector<int>& trained_sizes = {});

// The action layout of a game as model files describe it ("action_layout": each spatial
// plane's name, offset and an example move, the extra actions, the frame of the planes).
nlohmann::json action_layout_json(const GameSpec& spec);

// The one writer of model files (a run's published models, `quax export`, `quax levels`).
// Writes atomically a copy of `model` in eval mode, so that a user's plain forward() uses
// batch norm's running statistics (a module saved in training mode normalizes by the batch's
// own statistics and overwrites the running ones), with `description` checked by
// parse_model_description and completed by what derives from it: "action_layout" and
// "plane_shape" [planes, size, size]; returns the description written. `model` itself is
// left as it was. Throws std::runtime_error (one line) on a description that does not parse
// or a failed write.
nlohmann::json save_model_file(const torch::jit::Module& model, const nlohmann::json& description, const std::string& path);

// What a description says, checked against its variant's rules.
struct ModelDescription {
  ModelShape shape;
  NetConfig net;
  int64_t step = 0;
  std::vector<int> trained_sizes;  // "sizes", or {shape.size} for a file without the list
  std::optional<ModelLevels> levels;  // "levels" (nets/model_levels.h), when measured
};
// A description's "rules" (what rules_text wrote; models written before it have none):
// registered when no variant of that name is known here, so that a model of a rules file plays
// without the file; else they must play the same game as the variant of that name
// (same_game_rules), or the error names the first field that differs. Throws
// std::runtime_error with one line.
void check_description_rules(const std::string& variant_name, const std::string& rules_text);

// The one check of a description (a model file's quax.json), which every loader goes through
// by load_model_file: its rules (check_description_rules), then a known variant; a size, swap and every entry of "sizes" that the
// variant plays (check_spec: range, parity, pie rule); planes, spatial_planes, extra_actions
// and num_actions, where given, those of model_shape_for(spec); net fields within
// check_net_config's ranges; step >= 0; "levels", where given, accepted by
// model_levels_from_json. Throws std::runtime_error with one line naming the
// first field that is wrong (no board is built before the size is known to be playable).
ModelDescription parse_model_description(const nlohmann::json& description);

// What load_model_file throws for a TorchScript archive that has a description which
// parse_model_description refuses: a model file, damaged or made by hand (not a checkpoint).
struct BadModelDescription : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct LoadedModel {
  torch::jit::Module module;
  nlohmann::json description;
  ModelShape shape;
  NetConfig net;
  int64_t step = 0;
  std::vector<int> trained_sizes;  // "sizes", or {shape.size} for a file without the list
  std::optional<ModelLevels> levels;
};
// `path` may name a shipped model by its file name alone (nets/model_locations.h).
// Throws std::runtime_error (one line) naming the file when it is not a regular file of at most
// kModelFileLimit (core/bounded_file.h), is not a TorchScript archive, or lacks a description
// that parse_model_description accepts (BadModelDescription when it has one that is refused;
// saying so when it is a learner checkpoint, which
// `quax export` turns into a model file).
LoadedModel load_model_file(const std::string& path);

// The description (quax.json) of the model file at `path` (found as load_model_file finds it),
// read without loading the network
// (through the bounded reader), unchecked. Throws std::runtime_error (one line) when the file
// is not a regular file within kModelFileLimit, not a TorchScript archive, or has no
// description that parses as JSON.
nlohmann::json read_model_description(const std::string& path);

// The one check of a model against the game it is asked to play, behind every player and
// evaluator made from a model file (load_inference_model, make_model_agent): "" when the
// model can play `want` - its own variant (or one of the same rules, rules_of: quax's model
// plays link, with a warning) at any size, with the same input planes and
// action layout (same_layout; the network is fully convolutional) - else one line naming
// both. When it can, *warnings (emptied first) gets one line for each way the game is not
// the model's training, each naming the model `name` (warnings, not refusals): want.size
// none of `trained_sizes` (naming the sizes), and a pie rule other than the one it was
// trained with, have.spec.swap (the description's "swap"; naming both settings: a model
// trained with the pie rule learned to open where a swap gains nothing, which without it
// are weak openings, and one trained without it never learned when to swap).
std::string check_model_matches(const ModelShape& have, const std::vector<int>& trained_sizes, const GameSpec& want,
                                const std::string& name, std::vector<std::string>* warnings);

// The warnings check_model_matches gives for the model file `path` playing `want`, read from
// its description alone (reports keep them beside their figures: `quax balance`). Throws
// std::runtime_error (one line) when the file does not load or cannot play `want`.
std::vector<std::string> model_file_warnings(const std::string& path, const GameSpec& want);

}  // namespace quax
