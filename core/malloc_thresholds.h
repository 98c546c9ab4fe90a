// glibc's malloc thresholds, fixed for the whole process. Two commands want them fixed, with
// opposite aims: the board server (serve/search_budget.cpp: small ones, so that a deleted game's
// search tree goes back to the system) and the analysis engine (command/analysis.cpp: large
// ones, so that each batched network call does not fault its buffers in again).
#pragma once

#include <cstddef>

namespace quax {

// Sets glibc's M_MMAP_THRESHOLD (a block of at least this many bytes is mapped on its own and
// unmapped when freed) and M_TRIM_THRESHOLD (free memory past this many bytes at the top of the
// main heap is given back to the system on free), and so turns off glibc's dynamic thresholds.
//
// Why fixed: glibc starts at 128 KB for both and raises them after the first large block is
// freed (mmap up to 32 MB, trim to twice that), so what a process does with its memory after
// that first free is decided by its history, not by its code: a server's later search trees
// are carved from thread heaps whose tops malloc_trim never returns, and a large network batch's
// buffers, once trimmed, are faulted in again by the next call.
//
// Call it once, early (before the threads and the large allocations it is meant for): it
// applies to every thread and to what is allocated afterwards. Each size must fit in an int;
// glibc refuses an mmap threshold above 32 MB on 64-bit machines (the trim one is then still
// fixed). Process-wide: the last call wins. Elsewhere than glibc it does nothing.
void fix_malloc_thresholds(std::size_t mmap_threshold, std::size_t trim_threshold);

}  // namespace quax
