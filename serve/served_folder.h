// A folder the server serves files from (the runs, the balance reports, the page's files of
// --web), and the one place where a request is mapped to a file in it. A path is resolved first
// ("..", and every symbolic link along it) and refused unless the result lies inside the
// folder's own resolved path: a link inside a served folder is followed only as far as the
// folder itself (a run folder linked to /home, an openings.svg linked to ~/.ssh/id_rsa are
// refused, a link to a sibling file is served). Every file is then read through the bounded
// reader (core/bounded_file.h): regular files only, under a size limit.
//
// The folder is resolved at each call, not once at start: it may be created, or point
// elsewhere, while the server runs (a training run creating runs/).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace quax {

class ServedFolder {
 public:
  explicit ServedFolder(std::string dir) : dir_(std::move(dir)) {}

  // The folder as given (shown to clients, joined with names to make the paths passed below).
  const std::string& dir() const { return dir_; }

  // `path` (the folder joined with names below it, or a path a client sent, relative to the
  // working directory or absolute) resolved, when it lies inside the folder: "" when it resolves
  // outside it or the folder does not exist. Parts of `path` that do not exist are kept as
  // written (a missing file inside the folder resolves inside it; reading it then fails).
  std::string resolve(const std::string& path) const;

  // The whole of the regular file at `path` (as resolve() takes it), at most max_bytes. Throws
  // std::runtime_error with one line naming `path` and `what` when it resolves outside the
  // folder, is missing, is not a regular file or is over the limit.
  std::string read(const std::string& path, std::uintmax_t max_bytes, const std::string& what) const;

  // Whether `path` resolves inside the folder to a directory (a run, a report).
  bool is_folder(const std::string& path) const;
  // Whether `path` resolves inside the folder to a regular file.
  bool is_file(const std::string& path) const;

  // The names of the folder's entries, sorted (those that resolve outside it included: each
  // use goes through the calls above).
  std::vector<std::string> names() const;

 private:
  std::string dir_;
};

}  // namespace quax
