// Writing files so that readers (another thread, another process, a resumed run) never see a
// partial one, and a crash never leaves a half-written file under the real name: write to a
// temporary name in the same directory, fsync it, rename it over the target, fsync the directory.
#pragma once

#include <functional>
#include <string>

namespace quax {

// Calls write(tmp_path), where tmp_path = temporary_path_for(path), then makes the result durable
// and renames it to path. Creates missing parent directories. On any failure (write throws, the
// file cannot be synced or renamed) removes the temporary file, leaves path as it was, and throws
// std::runtime_error naming `path` and the cause.
void write_atomically(const std::string& path, const std::function<void(const std::string& tmp_path)>& write);
// Same for a whole string.
void write_file_atomically(const std::string& path, const std::string& contents);

// The temporary name write_atomically uses for `path` in this process: "<path>.tmp<pid>.<host>"
// (host_name_token; "<path>.tmp<pid>" when it is empty, the form of older versions).
std::string temporary_path_for(const std::string& path);
// True when `name` (a file name, no directory) has the shape of a temporary name.
bool is_temporary_name(const std::string& name);

// Removes the temporary files that killed writes left in `dir` (not recursive): names of the
// shape above, of this machine or without a host, whose process is no longer running. Another
// machine's are left alone: its writer may be alive. Returns how many were removed;
// a missing directory removes nothing.
int remove_stale_temporaries(const std::string& dir);

}  // namespace quax
