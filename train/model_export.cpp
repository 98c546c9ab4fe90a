#include "train/model_export.h"

#include <filesystem>
#include <stdexcept>

#include "env/game_state.h"
#include "mcts/evaluation_batch.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "train/learner.h"

namespace quax {
namespace fs = std::filesystem;

namespace {

void require_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw std::runtime_error("no such file '" + path + "'");
}

// What the source is: a model file carries quax.json, a checkpoint its "meta" record.
// Reading the model first is cheap and a checkpoint never has the extra file.
struct Source {
  bool checkpoint = false;
  LoadedModel model;  // when !checkpoint
  GameSpec spec;
};

Source open_source(const std::string& path) {
  require_file(path);
  Source s;
  std::string model_error;
  try {
    s.model = load_model_file(path);
    s.spec = s.model.shape.spec;
    return s;
  } catch (const BadModelDescription&) {
    throw;  // a model file with a wrong description: its own error says what is wrong
  } catch (const std::exception& e) {
    model_error = e.what();
  }
  try {
    s.spec = checkpoint_config(path).game;
    s.checkpoint = true;
    return s;
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path + "' is neither a quax checkpoint nor a model file (" + e.what() + ")");
  }
}

}  // namespace

nlohmann::json action_layout_json(const GameSpec& spec) {
  const auto state = new_game(spec);
  const int n = spec.size, nn = n * n;
  nlohmann::json j;
  j["num_actions"] = state->num_actions();
  const auto names = state->spatial_plane_names();
  for (int p = 0; p < state->spatial_planes(); ++p)
    j["spatial_planes"].push_back({{"name", names.at(p)}, {"offset", p * nn}, {"example", state->action_to_string(p * nn)}});
  for (int k = 0; k < state->extra_actions(); ++k) {
    const int a = state->spatial_planes() * nn + k;
    j["extra_actions"].push_back({{"name", state->action_to_string(a)}, {"index", a}});
  }
  j["frame"] = state->net_frame_note();
  return j;
}

ExportedModel export_model(const std::string& source, const std::string& out) {
  Source src = open_source(source);
  ExportedModel result;
  result.spec = src.spec;
  result.from_checkpoint = src.checkpoint;
  LoadedModel model;
  if (src.checkpoint) {
    // The learner writes the trainable module as a model file; stage it beside `out`.
    const std::string stage = out + ".stage";
    try {
      export_checkpoint_model(source, stage);
      model = load_model_file(stage);
    } catch (...) {
      std::error_code ignored;
      fs::remove(stage, ignored);
      throw;
    }
    std::error_code ignored;
    fs::remove(stage, ignored);
  } else {
    model = std::move(src.model);
  }
  // Eval mode is saved with the module: batch norm then uses its running statistics, so
  // a user's forward() gives the trained network's outputs without calling .eval().
  model.module.eval();
  for (auto p : model.module.parameters()) p.set_requires_grad(false);
  nlohmann::json d = model.description;
  d["action_layout"] = action_layout_json(model.shape.spec);
  d["plane_shape"] = {model.shape.planes, model.shape.size, model.shape.size};
  d["exported_from"] = fs::path(source).filename().string();
  save_model_file(model.module, d, out);
  result.step = model.step;
  result.description = d;
  return result;
}

nlohmann::json reference_outputs(const std::string& source, int count, uint64_t seed) {
  Source src = open_source(source);
  std::shared_ptr<const InferenceModel> net;
  if (src.checkpoint) {
    net = checkpoint_learner_on_cpu(source)->inference_model(Precision::kFloat32);
  } else {
    net = load_inference_model(source, src.spec, Precision::kFloat32);
  }
  NetEvaluator evaluator(net);

  // Positions after a random number of random moves, none finished.
  Rng rng(seed);
  std::vector<std::unique_ptr<GameState>> positions;
  std::vector<int> legal;
  while (static_cast<int>(positions.size()) < count) {
    auto s = new_game(src.spec);
    const uint32_t plies = rng.below(static_cast<uint32_t>(src.spec.size * src.spec.size));
    for (uint32_t i = 0; i < plies && !s->is_over(); ++i) {
      s->legal_actions(&legal);
      s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    if (!s->is_over()) positions.push_back(std::move(s));
  }
  EvaluationBatch batch;
  for (const auto& p : positions) batch.add_position(*p);
  batch.run(evaluator);
  const auto& first = *positions[0];
  const int c = first.num_planes(), n = first.size(), a = first.num_actions();
  const size_t per = static_cast<size_t>(c) * n * n;
  const std::vector<float> planes(batch.planes(0), batch.planes(0) + per * count);
  const std::vector<float> logits(batch.logits(0), batch.logits(0) + static_cast<size_t>(a) * count);
  std::vector<float> values(count);
  for (int i = 0; i < count; ++i) values[i] = batch.value(i);
  nlohmann::json j;
  j["planes_shape"] = {count, c, n, n};
  j["planes"] = planes;
  j["policy_shape"] = {count, a};
  j["policy"] = logits;
  j["value"] = values;
  return j;
}

}  // namespace quax
