#include "command/writable_output.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "command/command.h"
#include "core/atomic_file.h"

namespace quax {

void require_writable(const std::string& path) {
  namespace fs = std::filesystem;
  auto fail = [&](const std::string& why) { throw CommandError("cannot write '" + path + "': " + why); };
  std::error_code ec;
  const fs::path target(path);
  if (target.filename().empty() || fs::is_directory(target, ec)) fail("it is a directory");
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  while (!fs::exists(dir, ec) && dir.has_parent_path() && dir.parent_path() != dir) dir = dir.parent_path();
  if (!fs::is_directory(dir, ec)) fail("'" + dir.string() + "' is not a directory");
  const std::string probe = temporary_path_for((dir / target.filename()).string());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace quax
