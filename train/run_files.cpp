#include "train/run_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "core/atomic_file.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

constexpr size_t kStepDigits = 10;

// The step of `name` when it is exactly prefix + 10 digits + suffix.
std::optional<int64_t> parse_step_name(const std::string& name, const std::string& prefix, const std::string& suffix) {
  if (name.size() != prefix.size() + kStepDigits + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
    return std::nullopt;
  int64_t step = 0;
  for (size_t i = prefix.size(); i < prefix.size() + kStepDigits; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return std::nullopt;
    step = step * 10 + (name[i] - '0');
  }
  return step;
}

std::vector<StepFile> list_step_files(const fs::path& dir,
                                      std::optional<int64_t> (*parse)(const std::string& name)) {
  std::vector<StepFile> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const auto step = parse(e.path().filename().string());
    if (step && e.is_regular_file(ec)) out.push_back({*step, e.path().string()});
  }
  std::sort(out.begin(), out.end(), [](const StepFile& a, const StepFile& b) { return a.step < b.step; });
  return out;
}

}  // namespace

std::string model_path(const std::string& run_dir, int64_t step) {
  return fmt::format("{}/models/model-{:0{}d}.pt", run_dir, step, kStepDigits);
}

std::optional<int64_t> parse_model_name(const std::string& name) { return parse_step_name(name, "model-", ".pt"); }

std::optional<int64_t> parse_checkpoint_name(const std::string& name) { return parse_step_name(name, "ckpt-", ".pt"); }

std::vector<StepFile> list_models(const std::string& run_dir) {
  return list_step_files(fs::path(run_dir) / "models", parse_model_name);
}

std::vector<StepFile> list_checkpoints(const std::string& run_dir) {
  return list_step_files(fs::path(run_dir) / "checkpoints", parse_checkpoint_name);
}

int remove_stale_run_temporaries(const std::string& run_dir) {
  int removed = 0;
  for (const char* sub : {"", "models", "checkpoints", "selfplay"})
    removed += remove_stale_temporaries((fs::path(run_dir) / sub).string());
  return removed;
}

}  // namespace quax
