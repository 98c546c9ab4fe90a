#include "nets/default_model.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "nets/model_file.h"
#include "nets/model_locations.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

// Distance from want.size to the nearest trained size; sizes above want count a half less,
// so that of two sizes equally far the larger wins.
double size_distance(const ModelSummary& m, int size) {
  double best = 1e9;
  for (int s : m.sizes) best = std::min(best, s >= size ? s - size - 0.25 : size - s + 0.0);
  return best;
}

}  // namespace

bool plays_better(const ModelSummary& a, const ModelSummary& b, const GameSpec& want) {
  auto key = [&](const ModelSummary& m) {
    const bool at_size = std::find(m.sizes.begin(), m.sizes.end(), want.size) != m.sizes.end();
    // Larger is better in every place of the tuple.
    return std::make_tuple(m.spec.variant == want.variant, at_size, at_size && m.spec.swap == want.swap,
                           -size_distance(m, want.size), m.spec.swap == want.swap, m.step);
  };
  return key(a) > key(b);
}

std::vector<ModelSummary> read_model_summaries(const std::vector<std::string>& dirs,
                                               const std::function<void(const std::string&)>& warn) {
  std::vector<ModelSummary> models;
  std::vector<fs::path> seen;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(dir, ec);
    if (!ec && std::find(seen.begin(), seen.end(), canonical) != seen.end()) continue;
    seen.push_back(canonical);
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
      if (entry.is_regular_file(ec) && entry.path().extension() == ".pt") files.push_back(entry.path().string());
    if (ec && warn) warn("cannot list model directory '" + dir + "': " + ec.message());
    std::sort(files.begin(), files.end());
    for (const std::string& file : files) {
      try {
        const LoadedModel loaded = load_model_file(file);
        models.push_back({file, loaded.shape.spec, loaded.trained_sizes, loaded.step});
      } catch (const std::exception& e) {
        if (warn) warn("skipping '" + file + "': " + e.what());
      }
    }
  }
  return models;
}

std::vector<ModelSummary> shipped_models() { return read_model_summaries(shipped_model_dirs()); }

std::string default_model_path(const GameSpec& want) {
  const std::vector<ModelSummary> models = shipped_models();
  const ModelSummary* best = best_model_for(models, want);
  return best ? best->path : "";
}

}  // namespace quax
