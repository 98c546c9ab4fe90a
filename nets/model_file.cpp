#include "nets/model_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <limits>
#include <sstream>

#include <caffe2/serialize/inline_container.h>

#include "core/bounded_json.h"
#include "core/atomic_file.h"
#include "core/bounded_file.h"
#include "core/json_error.h"
#include "core/quoted_input.h"
#include "env/game_state.h"
#include "nets/model_locations.h"
#include "nets/model.h"
#include "env/game_registry.h"
#include "rules/rules_file.h"

namespace quax {

nlohmann::json model_description(const ModelShape& shape, const NetConfig& net, int64_t step,
                                 const std::vector<int>& trained_sizes) {
  nlohmann::json j;
  j["format_version"] = kModelFormatVersion;
  j["variant"] = variant_info(shape.spec.variant).name;
  // The rules themselves, not only a name: a model of a rules file plays without the file, and
  // never plays a file changed since (parse_model_description).
  j["rules"] = rules_text(variant_info(shape.spec.variant).rules);
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
  // Written only when there is one (the file then has forward_aux, nets/model.h), so that the
  // descriptions of networks without it read as before.
  if (net.ownership_head) j["net"]["ownership_head"] = true;
  j["step"] = step;
  j["sizes"] = trained_sizes.empty() ? std::vector<int>{shape.size} : trained_sizes;
  return j;
}

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

nlohmann::json save_model_file(const torch::jit::Module& model, const nlohmann::json& description,
                               const std::string& path) {
  const ModelShape shape = parse_model_description(description).shape;
  nlohmann::json complete = description;
  complete["action_layout"] = action_layout_json(shape.spec);
  complete["plane_shape"] = {shape.planes, shape.size, shape.size};
  // A deep copy: the caller's module (the learner's, in training mode) must stay as it was.
  torch::jit::Module saved = model.deepcopy();
  saved.eval();
  for (auto p : saved.parameters()) p.set_requires_grad(false);  // a user's forward builds no graph
  write_atomically(path, [&](const std::string& tmp) {
    torch::jit::ExtraFilesMap extra{{"quax.json", complete.dump(2)}};
    saved.save(tmp, extra);
  });
  return complete;
}

namespace {

constexpr int64_t kIntMin = std::numeric_limits<int32_t>::min();
constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

// An integer of the description within [lo, hi]; throws naming it (`name`) otherwise: a huge
// or fractional number is refused, not wrapped into range.
int64_t integer_value(const nlohmann::json& v, const std::string& name, int64_t lo, int64_t hi) {
  if (!v.is_number_integer()) throw std::runtime_error(fmt::format("{} {} is not an integer", name, v.dump()));
  const bool in_range = v.is_number_unsigned() ? v.get<uint64_t>() <= static_cast<uint64_t>(hi)
                                               : v.get<int64_t>() >= lo && v.get<int64_t>() <= hi;
  if (!in_range) throw std::runtime_error(fmt::format("{} {} is not in [{}, {}]", name, v.dump(), lo, hi));
  return v.get<int64_t>();
}
int64_t integer_field(const nlohmann::json& j, const char* key, int64_t lo, int64_t hi) {
  return integer_value(j.at(key), key, lo, hi);
}

// A string or boolean field of the description, or an error naming it (nlohmann's own says
// "type must be string, but is number" without the field).
std::string text_field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw std::runtime_error(std::string(key) + " is missing");
  if (!j.at(key).is_string()) throw std::runtime_error(std::string(key) + " " + j.at(key).dump().substr(0, 40) + " is not a string");
  return j.at(key).get<std::string>();
}
bool bool_field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw std::runtime_error(std::string(key) + " is missing");
  if (!j.at(key).is_boolean()) throw std::runtime_error(std::string(key) + " " + j.at(key).dump().substr(0, 40) + " is not true or false");
  return j.at(key).get<bool>();
}

// A field the description may leave out (files of older versions); when present it must
// equal what the variant has.
void check_optional_count(const nlohmann::json& d, const char* key, int64_t want) {
  if (!d.contains(key)) return;
  const int64_t have = integer_field(d, key, 0, kIntMax);
  if (have != want) throw std::runtime_error(fmt::format("{} {}, where its game has {}", key, have, want));
}

}  // namespace

void check_description_rules(const std::string& name, const std::string& text) {
  if (text.size() > 4096) throw std::runtime_error("rules: longer than 4096 characters");
  Rules rules;
  try {
    rules = parse_rules(text, "rules");
  } catch (const RulesFileError& e) {
    throw std::runtime_error(e.what());
  }
  if (rules.name != name)
    throw std::runtime_error("rules: name " + quoted_input(rules.name) + " is not the variant " + quoted_input(name));
  const auto known = parse_variant(name);
  if (!known) {
    try {
      register_rules(rules);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(std::string("rules: ") + e.what());
    }
    return;
  }
  const Rules& here = variant_info(*known).rules;
  if (!same_game_rules(rules, here))
    throw std::runtime_error("rules: " + name + " here is not the game the model was trained at (the model's " +
                             rules_difference(rules, here) + ")");
}

ModelDescription parse_model_description(const nlohmann::json& d) {
  ModelDescription out;
  if (!d.is_object()) throw std::runtime_error("the description is not a JSON object");
  const std::string variant_name = text_field(d, "variant");
  if (d.contains("rules")) check_description_rules(variant_name, text_field(d, "rules"));
  const auto variant = parse_variant(variant_name);
  if (!variant) throw std::runtime_error("unknown variant " + quoted_input(variant_name));
  const GameSpec spec{*variant, static_cast<int>(integer_field(d, "size", kIntMin, kIntMax)), bool_field(d, "swap")};
  // The variant's own rules of size (range, parity) and pie rule, before any board is built.
  if (std::string error = check_spec(spec); !error.empty()) throw std::runtime_error(error);
  out.shape = model_shape_for(spec);
  if (d.contains("planes")) {
    const auto& list = d.at("planes");
    if (!list.is_array() || !std::all_of(list.begin(), list.end(), [](const nlohmann::json& e) { return e.is_string(); }))
      throw std::runtime_error("planes is not a list of names");
    const auto names = list.get<std::vector<std::string>>();
    if (names != new_game(spec)->plane_names())
      throw std::runtime_error(fmt::format("planes [{}] are not the {} planes of {}", fmt::join(names, ", "),
                                           out.shape.planes, describe(spec)));
  }
  check_optional_count(d, "spatial_planes", out.shape.spatial_planes);
  check_optional_count(d, "extra_actions", out.shape.extra_actions);
  check_optional_count(d, "num_actions", out.shape.num_actions());
  const auto& n = d.at("net");
  if (!n.is_object()) throw std::runtime_error("net is not a JSON object");
  auto net_int = [&](const char* key) {
    return static_cast<int>(integer_field(n, key, kIntMin, kIntMax));
  };
  out.net.blocks = net_int("blocks");
  out.net.filters = net_int("filters");
  out.net.global_pooling = bool_field(n, "global_pooling");
  out.net.pool_every = net_int("pool_every");
  out.net.policy_channels = net_int("policy_channels");
  out.net.value_channels = net_int("value_channels");
  out.net.value_hidden = net_int("value_hidden");
  out.net.ownership_head = n.contains("ownership_head") && bool_field(n, "ownership_head");
  if (std::string error = check_net_config(out.net); !error.empty()) throw std::runtime_error(error);
  out.step = integer_field(d, "step", 0, std::numeric_limits<int64_t>::max());
  if (d.contains("sizes")) {
    const auto& sizes = d.at("sizes");
    if (!sizes.is_array() || sizes.empty() || sizes.size() > static_cast<size_t>(variant_info(spec.variant).max_size))
      throw std::runtime_error("sizes is not a list of 1 to " + std::to_string(variant_info(spec.variant).max_size) +
                               " board sizes");
    for (const auto& entry : sizes) {
      const GameSpec trained{spec.variant, static_cast<int>(integer_value(entry, "sizes entry", kIntMin, kIntMax)),
                             spec.swap};
      if (std::string error = check_spec(trained); !error.empty()) throw std::runtime_error("sizes: " + error);
      out.trained_sizes.push_back(trained.size);
    }
  } else {
    out.trained_sizes = {spec.size};
  }
  if (d.contains("levels")) out.levels = model_levels_from_json(d.at("levels"));
  return out;
}

namespace {

// The bytes of the model file a user means by `given` (nets/model_locations.h), read through
// the bounded reader: a FIFO, a device or a file past the limit is refused in one line before
// LibTorch sees it. *path becomes the file's path.
std::string read_model_bytes(const std::string& given, std::string* path) {
  *path = find_model_file(given);
  try {
    return read_regular_file(*path, kModelFileLimit, "model file");
  } catch (const std::exception& e) {
    throw std::runtime_error(e.what() + shipped_search_note(given));
  }
}

}  // namespace

LoadedModel load_model_file(const std::string& given) {
  std::string path;
  std::istringstream bytes(read_model_bytes(given, &path));
  LoadedModel out;
  torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
  try {
    out.module = torch::jit::load(bytes, torch::kCPU, extra);
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot load model '" + path + "': not a TorchScript model file");
  }
  // A learner checkpoint (train/learner.h) is a TorchScript archive too, with the run's
  // "meta" record and no description: a common mix-up worth naming.
  if (extra["quax.json"].empty() && out.module.hasattr("meta"))
    throw std::runtime_error("'" + path + "' is a learner checkpoint, not a model file: make one with `quax export --checkpoint " +
                             path + " --out model.pt`");
  if (extra["quax.json"].empty())
    throw std::runtime_error("model '" + path + "' has no quax.json description: not a model file of quax");
  try {
    out.description = parse_json(extra["quax.json"], "quax.json");
    ModelDescription parsed = parse_model_description(out.description);
    out.shape = parsed.shape;
    out.net = parsed.net;
    out.step = parsed.step;
    out.trained_sizes = std::move(parsed.trained_sizes);
    out.levels = std::move(parsed.levels);
  } catch (const std::exception& e) {
    throw BadModelDescription("model '" + path + "' has no valid quax.json description (" + json_error_text(e) + ")");
  }
  return out;
}

nlohmann::json read_model_description(const std::string& given) {
  std::string path;
  std::istringstream bytes(read_model_bytes(given, &path));
  std::string text;
  try {
    caffe2::serialize::PyTorchStreamReader reader(&bytes);
    if (!reader.hasRecord("extra/quax.json")) throw std::runtime_error("no description");
    auto [data, size] = reader.getRecord("extra/quax.json");
    text.assign(static_cast<const char*>(data.get()), size);
  } catch (const std::exception&) {
    throw std::runtime_error("model '" + path + "' has no quax.json description: not a model file of quax");
  }
  std::string error;
  auto description = parse_json_or_discarded(text, "its quax.json", &error);
  if (description.is_discarded()) throw std::runtime_error("model '" + path + "': " + error);
  return description;
}

std::string check_model_matches(const ModelShape& have, const std::vector<int>& trained_sizes, const GameSpec& want,
                                const std::string& name, std::vector<std::string>* warnings) {
  if (warnings) warnings->clear();
  const std::string variant = variant_info(have.spec.variant).name;
  if (rules_of(have.spec.variant) != rules_of(want.variant))
    return fmt::format("the model is for {} {}, not {} {}", variant, sizes_text(have.spec.variant, trained_sizes),
                       variant_info(want.variant).name, size_text(want.variant, want.size));
  if (!same_layout(have, model_shape_for(want)))
    return fmt::format("the model is for {} {}; {} has other input planes or actions", variant,
                       sizes_text(have.spec.variant, trained_sizes), size_text(want.variant, want.size));
  if (!warnings) return "";
  if (have.spec.variant != want.variant)
    warnings->push_back(fmt::format("warning: model '{}' was trained on {}, whose rules {} shares (docs/RULES.md)", name,
                                    variant, variant_info(want.variant).name));
  if (std::find(trained_sizes.begin(), trained_sizes.end(), want.size) == trained_sizes.end())
    warnings->push_back(fmt::format("warning: model '{}' was trained on {} {}, not {}; it plays that size untested",
                                    name, variant, sizes_text(have.spec.variant, trained_sizes),
                                    size_text(want.variant, want.size)));
  if (have.spec.swap && !want.swap)
    warnings->push_back(fmt::format(
        "warning: model '{}' was trained with the pie rule (swap on) and plays a game without it (swap off); its "
        "openings are untested there (it learned to open where a swap gains nothing)",
        name));
  if (!have.spec.swap && want.swap)
    warnings->push_back(fmt::format(
        "warning: model '{}' was trained without the pie rule (swap off) and plays a game with it (swap on); its "
        "openings and swap decisions are untested there",
        name));
  return "";
}

std::vector<std::string> model_file_warnings(const std::string& path, const GameSpec& want) {
  const ModelDescription d = parse_model_description(read_model_description(path));
  std::vector<std::string> warnings;
  if (std::string error = check_model_matches(d.shape, d.trained_sizes, want, path, &warnings); !error.empty())
    throw std::runtime_error("model '" + path + "': " + error);
  return warnings;
}

}  // namespace quax
