#include "serve/catalogue.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "core/bounded_file.h"
#include "core/bounded_json.h"
#include "nets/model_file.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

// A run's file, read inside the runs folder through the bounded reader: a FIFO, a device, an
// oversized file or a link out of the folder named like a run's file is skipped with one line
// on stderr (once per request that meets it), never waited on or read whole.
bool read_run_file(const ServedFolder& runs, const std::string& path, const char* what, std::string* out) {
  try {
    *out = runs.read(path, kMetricsFileLimit, what);
    return true;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "quax serve: skipping %s\n", e.what());
    return false;
  }
}

}  // namespace

Catalogue::Catalogue(const std::vector<std::string>& model_dirs, std::string runs_dir, const Device& device)
    : runs_(std::move(runs_dir)), device_(device) {
  for (ModelSummary& m : read_model_summaries(model_dirs, [](const std::string& line) {
         std::fprintf(stderr, "warning: %s\n", line.c_str());
       })) {
    const std::string name = fs::path(m.path).filename().string();
    models_.push_back({std::move(m), name});
  }
}

const CatalogueModel* Catalogue::find_model(const std::string& path_or_name) const {
  for (const auto& m : models_)
    if (m.path == path_or_name || m.name == path_or_name) return &m;
  return nullptr;
}

std::shared_ptr<const InferenceModel> Catalogue::inference_model(const CatalogueModel& model, const GameSpec& spec) {
  std::shared_ptr<const InferenceModel> loaded;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = loaded_.find(model.path); it != loaded_.end()) loaded = it->second;
  }
  if (!loaded) {
    loaded = load_inference_model(model.path, model.spec, Precision::kAuto, device_);
    std::lock_guard<std::mutex> lock(mu_);
    loaded_.emplace(model.path, loaded);
  }
  if (std::string error = check_model_plays(*loaded, spec); !error.empty())
    throw std::runtime_error(model.name + ": " + error);
  return loaded;
}

std::vector<std::string> Catalogue::runs() const {
  std::vector<std::string> out;
  for (const std::string& name : runs_.names()) {
    const fs::path dir = fs::path(runs_.dir()) / name;
    if (runs_.is_folder(dir.string()) && runs_.is_file((dir / "metrics.jsonl").string())) out.push_back(name);
  }
  return out;
}

bool Catalogue::read_run(const std::string& name, nlohmann::json* out, std::string* error) const {
  const auto listed = runs();
  if (std::find(listed.begin(), listed.end(), name) == listed.end()) {
    *error = "no run '" + name + "' in " + runs_.dir();
    return false;
  }
  const fs::path dir = fs::path(runs_.dir()) / name;
  nlohmann::json metrics = nlohmann::json::array();
  std::string text;
  if (read_run_file(runs_, (dir / "metrics.jsonl").string(), "metrics file", &text)) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      auto record = parse_json_or_discarded(line, "metrics line");
      if (!record.is_discarded() && record.is_object()) metrics.push_back(std::move(record));
    }
  }
  nlohmann::json ladders = nlohmann::json::object();
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string file = entry.path().filename().string();
    if (file.rfind("ladder", 0) != 0 || entry.path().extension() != ".json") continue;
    if (!read_run_file(runs_, entry.path().string(), "ladder file", &text)) continue;
    auto ladder = parse_json_or_discarded(text, entry.path().string());
    if (ladder.is_discarded() || !ladder.is_array()) continue;
    const std::string stem = entry.path().stem().string();  // ladder or ladder-11x11
    ladders[stem.size() > 7 ? stem.substr(7) : ""] = std::move(ladder);
  }
  *out = {{"name", name}, {"path", dir.string()}, {"metrics", std::move(metrics)}, {"ladder", std::move(ladders)}};
  return true;
}

}  // namespace quax
