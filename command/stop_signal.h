// Ctrl-C and SIGTERM for the commands that run long jobs: a signal asks the job to stop cleanly
// (it polls the flag and ends after a checkpoint). A second signal is the same request: wrappers
// such as `timeout` deliver one signal twice (to the process and to its group), so it cannot mean
// "stop now"; SIGKILL does. The library layers never install handlers: they take a flag.
#pragma once

#include <atomic>

namespace quax {

class StopOnSignal {
 public:
  // Installs the handlers of SIGINT and SIGTERM and clears the flag; the destructor puts the
  // previous handlers back. One at a time per process.
  StopOnSignal();
  ~StopOnSignal();
  StopOnSignal(const StopOnSignal&) = delete;
  StopOnSignal& operator=(const StopOnSignal&) = delete;

  // True once a signal arrived; for TrainOptions::stop_requested and the like.
  const std::atomic<bool>* flag() const;

 private:
  void (*old_int_)(int);
  void (*old_term_)(int);
};

}  // namespace quax
