#include "core/thread_priority.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace quax {
namespace {

id_t this_thread_id() { return static_cast<id_t>(::syscall(SYS_gettid)); }

}  // namespace

int this_thread_nice() {
  errno = 0;
  return ::getpriority(PRIO_PROCESS, this_thread_id());  // -1 is a nice value too
}

bool lower_this_thread_priority(int increment) {
  const int target = std::min(19, this_thread_nice() + std::max(0, increment));
  return ::setpriority(PRIO_PROCESS, this_thread_id(), target) == 0;
}

}  // namespace quax
