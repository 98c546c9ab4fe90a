#include "train/model_export.h"

#include <fmt/format.h>

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

// The "levels" table of the model file `path`, measured for the network `description`
// describes: the same variant, net and learner step (the levels of other weights would
// mislead). Throws naming the file and the field that differs.
nlohmann::json levels_of_same_network(const std::string& path, const nlohmann::json& description) {
  const LoadedModel other = load_model_file(path);
  const nlohmann::json& o = other.description;
  for (const char* key : {"variant", "step", "net"})
    if (o.at(key) != description.at(key))
      throw std::runtime_error(fmt::format("'{}' is not the same network ({} {} there, {} here): its levels do not carry over",
                                           path, key, o.at(key).dump(), description.at(key).dump()));
  if (!other.levels) throw std::runtime_error("'" + path + "' has no levels table (quax levels measures one)");
  return o.at("levels");
}

}  // namespace

ExportedModel export_model(const std::string& source, const std::string& out, const std::string& levels_from) {
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
  nlohmann::json d = model.description;
  d["exported_from"] = fs::path(source).filename().string();
  if (!levels_from.empty()) d["levels"] = levels_of_same_network(levels_from, d);
  result.description = save_model_file(model.module, d, out);
  result.step = model.step;
  return result;
}

namespace {

// The spec of `source` at side `size` (> 0; else its own), checked.
GameSpec spec_at(GameSpec spec, int size) {
  if (size > 0) {
    spec.size = size;
    if (const std::string bad = check_spec(spec); !bad.empty()) throw std::runtime_error("size: " + bad);
  }
  return spec;
}

// `count` positions after a random number of random moves (seeded), none finished.
std::vector<std::unique_ptr<GameState>> random_positions(const GameSpec& spec, int count, uint64_t seed) {
  Rng rng(seed);
  std::vector<std::unique_ptr<GameState>> positions;
  std::vector<int> legal;
  while (static_cast<int>(positions.size()) < count) {
    auto s = new_game(spec);
    const uint32_t plies = rng.below(static_cast<uint32_t>(spec.size * spec.size));
    for (uint32_t i = 0; i < plies && !s->is_over(); ++i) {
      s->legal_actions(&legal);
      s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    if (!s->is_over()) positions.push_back(std::move(s));
  }
  return positions;
}

}  // namespace

nlohmann::json reference_outputs(const std::string& source, int count, uint64_t seed, int size) {
  Source src = open_source(source);
  src.spec = spec_at(src.spec, size);
  std::shared_ptr<const InferenceModel> net;
  if (src.checkpoint) {
    net = checkpoint_learner_on_cpu(source)->inference_model(Precision::kFloat32);
  } else {
    net = load_inference_model(source, src.spec, Precision::kFloat32);
  }
  NetEvaluator evaluator(net);

  const auto positions = random_positions(src.spec, count, seed);
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

nlohmann::json random_position_planes(const std::string& source, int count, uint64_t seed, int size) {
  const auto positions = random_positions(spec_at(open_source(source).spec, size), count, seed);
  const auto& first = *positions[0];
  const int c = first.num_planes(), n = first.size();
  const size_t per = static_cast<size_t>(c) * n * n;
  std::vector<float> planes(per * count);
  for (int i = 0; i < count; ++i) positions[i]->encode(planes.data() + per * i);
  nlohmann::json j;
  j["planes_shape"] = {count, c, n, n};
  j["planes"] = std::move(planes);
  return j;
}

}  // namespace quax
