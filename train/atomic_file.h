// Writing files so that readers (another thread, another process, a resumed run) never see
// a partial one: write to a temporary name in the same directory, then rename.
#pragma once

#include <functional>
#include <string>

namespace quax {

// Calls write(tmp_path) then renames tmp_path to path. Creates missing parent directories.
// On failure removes the temporary file and throws std::runtime_error naming `path`.
void write_atomically(const std::string& path, const std::function<void(const std::string& tmp_path)>& write);
// Same for a whole string.
void write_file_atomically(const std::string& path, const std::string& contents);

}  // namespace quax
