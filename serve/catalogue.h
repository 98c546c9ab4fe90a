// What the browser board may open: the model files under the served model directories (read
// once at start), the training runs under the runs directory, and arena results files under
// the runs directory. Nothing outside them is read, whatever a request names or a link in the
// runs directory points at (serve/served_folder.h), and every file of a run goes through the
// bounded reader (core/bounded_file.h): a FIFO or an oversized file is skipped, never waited on.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "env/types.h"
#include "nets/default_model.h"
#include "nets/device.h"
#include "nets/net_evaluator.h"
#include "serve/served_folder.h"

namespace quax {

// path: as found (directory + file name); spec: the game it was made for.
struct CatalogueModel : ModelSummary {
  std::string name;  // the file name
};

class Catalogue {
 public:
  // Scans each of `model_dirs` (not recursively; a run's `models/` directory is a directory
  // like any other) for model files; files that are not model files (learner checkpoints,
  // damaged files) are skipped with a warning line on stderr. Models load onto `device`
  // (resolved: nets/device.h).
  Catalogue(const std::vector<std::string>& model_dirs, std::string runs_dir, const Device& device = kCpuDevice);

  const std::vector<CatalogueModel>& models() const { return models_; }
  // A listed model by path or by file name; null when none.
  const CatalogueModel* find_model(const std::string& path_or_name) const;
  // The listed model that should play `want` (nets/default_model.h); null when none plays its rules.
  const CatalogueModel* best_model(const GameSpec& want) const { return best_model_for(models_, want); }
  // The model ready for inference on `spec` (loaded once, then shared). Throws
  // std::runtime_error (one line) when it cannot play it.
  std::shared_ptr<const InferenceModel> inference_model(const CatalogueModel& model, const GameSpec& spec);

  // The runs: directories of runs_dir holding a metrics.jsonl, by name (a run folder or a
  // metrics.jsonl that resolves outside runs_dir is not one).
  std::vector<std::string> runs() const;
  // A run's metrics records and its ladders ({"11x11": [...]} from ladder-11x11.json; "" for
  // ladder.json). Returns false with *error when `name` is not a listed run. Lines of the
  // metrics file that do not parse (a line being written) or nest deeper than the JSON reader
  // allows (core/bounded_json.h) are skipped, and so are such ladders; a file that is not a
  // regular file, is over kMetricsFileLimit or resolves outside runs_dir is left out, with one
  // line on stderr.
  bool read_run(const std::string& name, nlohmann::json* out, std::string* error) const;

  // The runs directory: where the results files the server reads must lie.
  const ServedFolder& runs_folder() const { return runs_; }

 private:
  std::vector<CatalogueModel> models_;
  ServedFolder runs_;
  Device device_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<const InferenceModel>> loaded_;
};

}  // namespace quax
