#include "train/atomic_file.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace quax {

void write_atomically(const std::string& path, const std::function<void(const std::string&)>& write) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  if (target.has_parent_path()) fs::create_directories(target.parent_path());
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  try {
    write(tmp);
    fs::rename(tmp, target);
  } catch (const std::exception& e) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw std::runtime_error("cannot write '" + path + "': " + e.what());
  }
}

void write_file_atomically(const std::string& path, const std::string& contents) {
  write_atomically(path, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::binary);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    out.flush();
    if (!out) throw std::runtime_error("write failed");
  });
}

}  // namespace quax
