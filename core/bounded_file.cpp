#include "core/bounded_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace quax {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string problem_of(const std::string& path, const struct stat& st, std::uintmax_t max_bytes, const std::string& what) {
  if (!S_ISREG(st.st_mode)) return "'" + path + "' is " + kind_of(st.st_mode) + ", not a regular " + what;
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    return "'" + path + "' is " + size_text(static_cast<std::uintmax_t>(st.st_size)) + ", more than the " +
           size_text(max_bytes) + " limit for a " + what;
  return "";
}

}  // namespace

std::string size_text(std::uintmax_t bytes) {
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MB";
  if (bytes >= kMiB) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / kMiB);
    return text;
  }
  if (bytes >= 1024) return std::to_string(bytes / 1024) + " KB";
  return std::to_string(bytes) + " bytes";
}

std::string regular_file_problem(const std::string& path, std::uintmax_t max_bytes, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "cannot open " + what + " '" + path + "': " + std::strerror(errno);
  return problem_of(path, st, max_bytes, what);
}

std::string read_regular_file(const std::string& path, std::uintmax_t max_bytes, const std::string& what) {
  // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one for ever.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open " + what + " '" + path + "': " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw std::runtime_error("cannot read " + what + " '" + path + "': " + std::strerror(errno));
  if (const std::string problem = problem_of(path, st, max_bytes, what); !problem.empty()) throw std::runtime_error(problem);
  std::string bytes;
  bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t have = 0;
  for (;;) {
    if (have == bytes.size()) {
      // The file may have grown since fstat: read on, but never past the limit.
      if (bytes.size() > max_bytes) break;
      bytes.resize(std::min<std::uintmax_t>(max_bytes + 1, bytes.size() * 2 + 4096));
    }
    const ssize_t n = ::read(fd, bytes.data() + have, bytes.size() - have);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot read " + what + " '" + path + "': " + std::strerror(errno));
    }
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  if (have > max_bytes)
    throw std::runtime_error("'" + path + "' holds more than the " + size_text(max_bytes) + " limit for a " + what);
  bytes.resize(have);
  return bytes;
}

}  // namespace quax
