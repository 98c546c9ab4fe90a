#include "nets/model_locations.h"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

namespace quax {
namespace fs = std::filesystem;

namespace {

// The folders holding the code that runs: the program, and the shared object this file is
// linked into when that is not the program (the Python module).
std::vector<fs::path> binary_dirs() {
  std::vector<fs::path> dirs;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) dirs.push_back(exe.parent_path());
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&shipped_model_dirs), &info) != 0 && info.dli_fname != nullptr) {
    const fs::path object = fs::weakly_canonical(info.dli_fname, ec);
    if (!ec && object.is_absolute()) dirs.push_back(object.parent_path());
  }
  return dirs;
}

// The file name a user may mean as a shipped model: "quax-7.pt" or "checkpoints/quax-7.pt".
std::string shipped_name(const std::string& path) {
  const fs::path p(path);
  if (path.empty() || p.is_absolute() || !p.has_filename()) return "";
  if (p.parent_path().empty() || p.parent_path() == "checkpoints") return p.filename().string();
  return "";
}

}  // namespace

std::vector<std::string> shipped_model_dirs() {
  std::vector<fs::path> candidates;
  const char* env = std::getenv("QUAX_MODELS");
  if (env != nullptr && *env != '\0') {
    std::stringstream list(env);
    for (std::string dir; std::getline(list, dir, ':');)
      if (!dir.empty()) candidates.emplace_back(dir);
  } else {
    for (const fs::path& dir : binary_dirs()) {
      candidates.push_back(dir / ".." / "share" / "quax" / "checkpoints");
      candidates.push_back(dir / ".." / "checkpoints");
    }
    candidates.push_back(fs::path(QUAX_SOURCE_DIR) / "checkpoints");
  }
  std::vector<std::string> dirs;
  std::set<fs::path> seen;
  for (const fs::path& dir : candidates) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    const fs::path canonical = fs::canonical(dir, ec);
    if (ec || !seen.insert(canonical).second) continue;
    dirs.push_back(canonical.string());
  }
  return dirs;
}

std::string find_model_file(const std::string& path) {
  std::error_code ec;
  if (fs::exists(path, ec)) return path;
  const std::string name = shipped_name(path);
  if (name.empty()) return path;
  for (const std::string& dir : shipped_model_dirs()) {
    const fs::path file = fs::path(dir) / name;
    if (fs::is_regular_file(file, ec)) return file.string();
  }
  return path;
}

std::string shipped_search_note(const std::string& path) {
  std::error_code ec;
  if (shipped_name(path).empty() || fs::exists(path, ec)) return "";
  const std::vector<std::string> dirs = shipped_model_dirs();
  if (dirs.empty()) return " (no folder of shipped models found: set QUAX_MODELS)";
  std::string list;
  for (const std::string& dir : dirs) list += (list.empty() ? "" : ", ") + dir;
  return " (nor in the shipped models' folders: " + list + ")";
}

}  // namespace quax
