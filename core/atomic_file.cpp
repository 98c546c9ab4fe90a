#include "core/atomic_file.h"
#include "core/host_name.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace quax {
namespace {

namespace fs = std::filesystem;

const std::regex& temporary_pattern() {
  static const std::regex re(R"(.+\.tmp([0-9]+)(?:\.([A-Za-z0-9]*))?)");
  return re;
}

// fsync of a file or a directory by path; throws with the cause.
void sync_path(const std::string& path, bool directory) {
  const int fd = ::open(path.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) throw std::runtime_error("cannot open '" + path + "' to sync it: " + std::strerror(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw std::runtime_error("fsync of '" + path + "' failed: " + std::strerror(err));
}

}  // namespace

std::string temporary_path_for(const std::string& path) {
  const std::string& host = host_name_token();
  return path + ".tmp" + std::to_string(::getpid()) + (host.empty() ? "" : "." + host);
}

bool is_temporary_name(const std::string& name) { return std::regex_match(name, temporary_pattern()); }

void write_atomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  const fs::path target(path);
  const std::string tmp = temporary_path_for(path);
  try {
    if (target.has_parent_path()) fs::create_directories(target.parent_path());
    write(tmp);
    if (!fs::exists(tmp)) throw std::runtime_error("nothing was written");
    sync_path(tmp, /*directory=*/false);
    fs::rename(tmp, target);
    sync_path(target.has_parent_path() ? target.parent_path().string() : ".", /*directory=*/true);
  } catch (const std::exception& e) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error("cannot write '" + path + "': " + e.what());
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  write_atomically(path, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw std::runtime_error(std::strerror(errno));
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.flush();
    if (!out) throw std::runtime_error("write failed");
  });
}

int remove_stale_temporaries(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return 0;
  int removed = 0;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (!std::regex_match(name, m, temporary_pattern()) || !entry.is_regular_file(ec)) continue;
    // Another machine's writer (a shared directory): its pid means nothing here.
    if (m[2].matched && m[2].str() != host_name_token()) continue;
    const long pid = std::stol(m[1].str().substr(0, 9));
    if (pid == ::getpid()) continue;
    // A live writer's file stays; ESRCH means no such process (EPERM: alive, someone else's).
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH && fs::remove(entry.path(), ec)) ++removed;
  }
  return removed;
}

}  // namespace quax
