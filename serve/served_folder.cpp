#include "serve/served_folder.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "core/bounded_file.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

// Whether the resolved `path` is `root` or lies below it (compared by components: /srv/runs2
// is not inside /srv/runs).
bool lies_inside(const fs::path& path, const fs::path& root) {
  auto [r, p] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  (void)p;
  return r == root.end();
}

// `path` resolved with every part existing (a dangling link fails: what it would point at
// later is not checked now), when inside the folder `dir`; empty otherwise.
fs::path existing_inside(const std::string& dir, const std::string& path) {
  std::error_code ec;
  const fs::path root = fs::canonical(dir, ec);
  if (ec) return {};
  const fs::path resolved = fs::canonical(path, ec);
  if (ec || !lies_inside(resolved, root)) return {};
  return resolved;
}

}  // namespace

std::string ServedFolder::resolve(const std::string& path) const {
  std::error_code ec;
  const fs::path root = fs::canonical(dir_, ec);
  if (ec) return "";
  // Made absolute first: weakly_canonical leaves a relative path relative when nothing of it exists.
  const fs::path resolved = fs::weakly_canonical(fs::absolute(path, ec), ec);
  if (ec || !lies_inside(resolved, root)) return "";
  return resolved.string();
}

std::string ServedFolder::read(const std::string& path, std::uintmax_t max_bytes, const std::string& what) const {
  const fs::path resolved = existing_inside(dir_, path);
  if (resolved.empty()) {
    if (resolve(path).empty()) throw std::runtime_error("'" + path + "' lies outside the served folder '" + dir_ + "'");
    throw std::runtime_error("cannot open " + what + " '" + path + "': no such file");
  }
  // The resolved path: no link left in it to be changed between the check and the read.
  return read_regular_file(resolved.string(), max_bytes, what);
}

bool ServedFolder::is_folder(const std::string& path) const {
  const fs::path resolved = existing_inside(dir_, path);
  std::error_code ec;
  return !resolved.empty() && fs::is_directory(resolved, ec);
}

bool ServedFolder::is_file(const std::string& path) const {
  const fs::path resolved = existing_inside(dir_, path);
  std::error_code ec;
  return !resolved.empty() && fs::is_regular_file(resolved, ec);
}

std::vector<std::string> ServedFolder::names() const {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir_, ec)) out.push_back(entry.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace quax
