// Deadlines on the steady clock from seconds given as a double (command-line limits, progress
// periods): the clock's duration is an integer count, so each conversion needs a cast.
#pragma once

#include <chrono>

namespace quax {

// `seconds` as the steady clock's duration (truncated to its tick).
inline std::chrono::steady_clock::duration steady_seconds(double seconds) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

// The steady clock's time `seconds` from now.
inline std::chrono::steady_clock::time_point seconds_from_now(double seconds) {
  return std::chrono::steady_clock::now() + steady_seconds(seconds);
}

}  // namespace quax
