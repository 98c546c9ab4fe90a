// CPU time of the calling thread: beside the wall clock it tells work from waiting for a core
// (a rate per CPU second means the same on a machine other jobs share).
#pragma once

#include <time.h>

namespace quax {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace quax
