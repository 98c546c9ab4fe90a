#include "nets/model_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/atomic_file.h"
#include "env/game_state.h"
#include "nets/model.h"

namespace quax {

nlohmann::json model_description(const ModelShape& shape, const NetConfig& net, int64_t step,
                                 const std::vector<int>& trained_sizes) {
  nlohmann::json j;
  j["format_version"] = kModelFormatVersion;
  j["variant"] = variant_info(shape.spec.variant).name;
  j["size"] = shape.size;
  j["swap"] = shape.spec.swap;
  j["planes"] = new_game(shape.spec)->plane_names();
  j["spatial_planes"] = shape.spatial_planes;
  j["extra_actions"] = shape.extra_actions;
  j["num_actions"] = shape.num_actions();
  j["net"] = {{"blocks", net.blocks},
              {"filters", net.filters},
              {"global_pooling", net.global_pooling},
              {"pool_every", net.pool_every},
              {"policy_channels", net.policy_channels},
              {"value_channels", net.value_channels},
              {"value_hidden", net.value_hidden}};
  j["step"] = step;
  j["sizes"] = trained_sizes.empty() ? std::vector<int>{shape.size} : trained_sizes;
  return j;
}

void save_model_file(const torch::jit::Module& model, const nlohmann::json& description, const std::string& path) {
  write_atomically(path, [&](const std::string& tmp) {
    torch::jit::ExtraFilesMap extra{{"quax.json", description.dump(2)}};
    model.save(tmp, extra);
  });
}

LoadedModel load_model_file(const std::string& path) {
  LoadedModel out;
  torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
  try {
    out.module = torch::jit::load(path, torch::kCPU, extra);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot load model '" + path + "': not a TorchScript model file");
  }
  // A learner checkpoint (train/learner.h) is a TorchScript archive too, with the run's
  // "meta" record and no description: a common mix-up worth naming.
  if (extra["quax.json"].empty() && out.module.hasattr("meta"))
    throw std::runtime_error("'" + path + "' is a learner checkpoint, not a model file: make one with `quax export --checkpoint " +
                             path + " --out model.pt`");
  try {
    out.description = nlohmann::json::parse(extra["quax.json"]);
    const auto& d = out.description;
    const auto variant = parse_variant(d.at("variant").get<std::string>());
    if (!variant) throw std::runtime_error("unknown variant");
    out.shape = model_shape_for(GameSpec{*variant, d.at("size").get<int>(), d.at("swap").get<bool>()});
    const auto& n = d.at("net");
    out.net.blocks = n.at("blocks");
    out.net.filters = n.at("filters");
    out.net.global_pooling = n.at("global_pooling");
    out.net.pool_every = n.at("pool_every");
    out.net.policy_channels = n.at("policy_channels");
    out.net.value_channels = n.at("value_channels");
    out.net.value_hidden = n.at("value_hidden");
    out.step = d.at("step");
    out.trained_sizes = d.contains("sizes") ? d.at("sizes").get<std::vector<int>>() : std::vector<int>{out.shape.size};
    if (out.trained_sizes.empty()) throw std::runtime_error("an empty list of sizes");
  } catch (const std::exception& e) {
    throw std::runtime_error("model '" + path + "' has no valid quax.json description (" + e.what() + ")");
  }
  return out;
}

std::string check_model_matches(const ModelShape& have, const std::vector<int>& trained_sizes, const GameSpec& want,
                                const std::string& name, std::string* warning) {
  if (warning) warning->clear();
  const std::string variant = variant_info(have.spec.variant).name;
  if (have.spec.variant != want.variant)
    return fmt::format("the model is for {} {}, not {} {}x{}", variant, sizes_text(trained_sizes),
                       variant_info(want.variant).name, want.size, want.size);
  if (!same_layout(have, model_shape_for(want)))
    return fmt::format("the model is for {} {}; {}x{} has other input planes or actions", variant,
                       sizes_text(trained_sizes), want.size, want.size);
  if (warning && std::find(trained_sizes.begin(), trained_sizes.end(), want.size) == trained_sizes.end())
    *warning = fmt::format("warning: model '{}' was trained on {} {}, not {}x{}; it plays that size untested", name,
                           variant, sizes_text(trained_sizes), want.size, want.size);
  return "";
}

}  // namespace quax
