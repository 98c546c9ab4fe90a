#include "train/snapshots.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <regex>

namespace quax {

std::string snapshot_path(const std::string& run_dir, int64_t seconds) {
  return fmt::format("{}/snapshots/model-{:07d}s.pt", run_dir, seconds);
}

std::vector<Snapshot> list_snapshots(const std::string& run_dir) {
  namespace fs = std::filesystem;
  static const std::regex name_re(R"(model-([0-9]{7})s\.pt)");
  std::vector<Snapshot> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(fs::path(run_dir) / "snapshots", ec)) {
    std::smatch m;
    const std::string name = e.path().filename().string();
    if (std::regex_match(name, m, name_re)) out.push_back({std::stoll(m[1].str()), e.path().string()});
  }
  std::sort(out.begin(), out.end(), [](const Snapshot& a, const Snapshot& b) { return a.seconds < b.seconds; });
  return out;
}

}  // namespace quax
