#include "core/remove_tree.h"

#include <ftw.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace quax {
namespace {

thread_local std::string failed_entry;
thread_local int failed_errno = 0;

// Depth first (FTW_DEPTH): a directory is visited after its entries, when it is empty.
int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  if (std::remove(path) == 0 || errno == ENOENT) return 0;
  failed_entry = path;
  failed_errno = errno;
  return 1;
}

}  // namespace

void remove_tree(const std::string& path) {
  failed_entry.clear();
  // FTW_PHYS: a link is removed, not followed; 16 directories open at most.
  const int r = ::nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (r == 0) return;
  if (failed_entry.empty() && errno == ENOENT) return;  // nothing there to remove
  if (failed_entry.empty()) {
    failed_entry = path;
    failed_errno = errno;
  }
  throw std::runtime_error("cannot remove '" + failed_entry + "': " + std::strerror(failed_errno));
}

}  // namespace quax
