// The files a run directory (train/train_loop.h) holds under names with a step, and the
// listings that accept only those names: a stray file (models/model-best.pt, a temporary of
// a killed write, notes) is never taken for a model or a checkpoint.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace quax {

// <run>/models/model-<step, 10 digits>.pt: the models published for self-play.
std::string model_path(const std::string& run_dir, int64_t step);
// The step of a model file name (no directory) of exactly the shape above, else nullopt.
std::optional<int64_t> parse_model_name(const std::string& name);
// The step of a checkpoint file name (no directory) of exactly the shape
// ckpt-<step, 10 digits>.pt (train/learner.h's checkpoint_path), else nullopt.
std::optional<int64_t> parse_checkpoint_name(const std::string& name);

struct StepFile {
  int64_t step = 0;
  std::string path;
};
// The run's models / checkpoints by step, oldest first; other files are ignored and a
// missing directory lists nothing.
std::vector<StepFile> list_models(const std::string& run_dir);
std::vector<StepFile> list_checkpoints(const std::string& run_dir);

// Removes the temporaries that killed writes left (core/atomic_file.h's
// remove_stale_temporaries) in the run directory and its models/, checkpoints/ and selfplay/.
// Returns how many were removed.
int remove_stale_run_temporaries(const std::string& run_dir);

}  // namespace quax
