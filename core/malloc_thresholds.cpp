#include "core/malloc_thresholds.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace quax {

void fix_malloc_thresholds(std::size_t mmap_threshold, std::size_t trim_threshold) {
#if defined(__GLIBC__)
  ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(mmap_threshold));
  ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(trim_threshold));
#else
  (void)mmap_threshold;
  (void)trim_threshold;
#endif
}

}  // namespace quax
