// Scheduling priority of single threads (Linux: the nice value is per thread), so that one
// process can give its threads different shares of a busy machine.
#pragma once

namespace quax {

// The calling thread's nice value (-20..19).
int this_thread_nice();

// Raises the calling thread's nice value by `increment` (at most to 19); other threads of the
// process keep theirs. Raising needs no privilege. Returns false, with errno set, when the
// system refuses.
bool lower_this_thread_priority(int increment);

}  // namespace quax
