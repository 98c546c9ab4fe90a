#include "nets/model_levels.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <tuple>

#include "nets/model_file.h"

namespace quax {

namespace {

constexpr size_t kLevels = kMaxPlayLevel - kMinPlayLevel + 1;

double number(const nlohmann::json& object, const char* key, const std::string& where) {
  if (!object.contains(key) || !object.at(key).is_number())
    throw std::runtime_error(fmt::format("levels: {}: '{}' is not a number", where, key));
  const double v = object.at(key).get<double>();
  if (!std::isfinite(v)) throw std::runtime_error(fmt::format("levels: {}: '{}' is not finite", where, key));
  return v;
}

int integer(const nlohmann::json& object, const char* key, int lo, int hi, const std::string& where) {
  if (!object.contains(key) || !object.at(key).is_number_integer())
    throw std::runtime_error(fmt::format("levels: {}: '{}' is not an integer", where, key));
  const auto v = object.at(key).get<int64_t>();
  if (v < lo || v > hi) throw std::runtime_error(fmt::format("levels: {}: '{}' {} is not in [{}, {}]", where, key, v, lo, hi));
  return static_cast<int>(v);
}

std::string setting_text(const LevelSetting& s) {
  if (s.prior_temperature >= 0.0f)
    return s.prior_temperature == 0.0f ? "the policy's move" : fmt::format("the policy at temperature {:g}", s.prior_temperature);
  return fmt::format("{} simulations", s.simulations);
}

}  // namespace

nlohmann::json model_levels_json(const ModelLevels& levels) {
  nlohmann::json table = nlohmann::json::array();
  for (size_t i = 0; i < kLevels; ++i) {
    nlohmann::json entry{{"sims", levels.table[i].simulations}, {"temperature", levels.table[i].prior_temperature}};
    if (i < levels.elo.size()) entry["elo"] = levels.elo[i];
    table.push_back(std::move(entry));
  }
  return {{"size", levels.size}, {"swap", levels.swap}, {"games", levels.games}, {"table", std::move(table)}};
}

ModelLevels model_levels_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::runtime_error("levels is not a JSON object");
  ModelLevels out;
  out.size = integer(j, "size", 1, 1000, "the measurement");
  if (!j.contains("swap") || !j.at("swap").is_boolean()) throw std::runtime_error("levels: 'swap' is not true or false");
  out.swap = j.at("swap").get<bool>();
  out.games = integer(j, "games", 0, 1'000'000, "the measurement");
  if (!j.contains("table") || !j.at("table").is_array() || j.at("table").size() != kLevels)
    throw std::runtime_error(fmt::format("levels: 'table' is not a list of {} levels", kLevels));
  bool with_elo = true;
  for (size_t i = 0; i < kLevels; ++i) {
    const auto& entry = j.at("table")[i];
    const std::string where = fmt::format("level {}", i + 1);
    if (!entry.is_object()) throw std::runtime_error("levels: " + where + " is not a JSON object");
    out.table[i].simulations = integer(entry, "sims", 1, kMaxLevelSimulations, where);
    out.table[i].prior_temperature = static_cast<float>(number(entry, "temperature", where));
    with_elo = with_elo && entry.contains("elo");
    if (with_elo) out.elo.push_back(number(entry, "elo", where));
  }
  if (!with_elo) out.elo.clear();
  if (std::string error = check_level_table(out.table); !error.empty()) throw std::runtime_error("levels: " + error);
  return out;
}

LevelTable level_table_of(const std::string& path) {
  using Key = std::tuple<std::string, std::uintmax_t, std::filesystem::file_time_type>;
  static std::mutex mu;
  static std::map<Key, LevelTable> cache;
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return default_level_table();
  const auto time = std::filesystem::last_write_time(path, ec);
  if (ec) return default_level_table();
  const Key key{path, size, time};
  {
    std::lock_guard<std::mutex> lock(mu);
    if (auto it = cache.find(key); it != cache.end()) return it->second;
  }
  LevelTable table = default_level_table();
  try {
    const nlohmann::json description = read_model_description(path);
    if (description.contains("levels")) table = model_levels_from_json(description.at("levels")).table;
  } catch (const std::exception&) {
    return table;  // the model's loader names what is wrong with the file
  }
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= 64) cache.clear();  // a few models are played at a time; bounded whatever asks
  cache.emplace(key, table);
  return table;
}

std::vector<std::string> model_levels_lines(const ModelLevels& levels, Variant variant) {
  std::vector<std::string> lines;
  lines.push_back(fmt::format("levels: measured at {} ({}), {} games between neighbouring settings",
                              size_text(variant, levels.size), levels.swap ? "pie rule" : "no pie rule", levels.games));
  for (size_t i = 0; i < kLevels; ++i) {
    std::string line = fmt::format("  level {:>2} {:<14} {}", i + 1, play_level_name(static_cast<int>(i) + 1),
                                   setting_text(levels.table[i]));
    if (i < levels.elo.size()) line += fmt::format(", Elo {:.0f}", levels.elo[i]);
    lines.push_back(std::move(line));
  }
  return lines;
}

}  // namespace quax
