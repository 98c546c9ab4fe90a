// For tests of code that used to hang (a search looping forever on NaN): runs the work on a
// thread and ends the test process with a failure message when it does not return in time,
// instead of hanging the test run while memory grows.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <utility>

namespace quax {

// Returns fn()'s result; exits the process (code 1) when fn has not returned after `seconds`.
template <typename F>
auto within(double seconds, const char* what, F fn) {
  auto future = std::async(std::launch::async, std::move(fn));
  if (future.wait_for(std::chrono::duration<double>(seconds)) != std::future_status::ready) {
    std::fprintf(stderr, "FAILED: %s did not return within %.0f s\n", what, seconds);
    std::fflush(stderr);
    std::_Exit(1);
  }
  return future.get();
}

}  // namespace quax
