// <run>/metrics.jsonl: one JSON object per line, appended by every thread of the run (and by
// every `quax selfplay` process sharing the run directory: a line is one write, flushed).
#pragma once

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace quax {

// Also the one clock of the run's records: write() stamps every record's "time_s" with the
// run's training seconds, what the run had trained before this invocation (start_clock:
// the checkpoint's, when a learner resumes; 0 otherwise, and in a process that only plays)
// plus the seconds since this invocation's clock started. Records therefore never count a
// stretch of time twice, and a chart of any kind of record over time_s lines up with
// another's.
class MetricsFile {
 public:
  explicit MetricsFile(const std::string& path) : out_(path, std::ios::app) {}

  // Restarts the clock at `seconds_before` (call once, when the run's past is known).
  void start_clock(double seconds_before) {
    std::lock_guard<std::mutex> lock(mu_);
    seconds_before_ = seconds_before;
    start_ = std::chrono::steady_clock::now();
  }
  double run_seconds() const {
    std::lock_guard<std::mutex> lock(mu_);
    return seconds_before_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

  // Writes `j` with "time_s" set to run_seconds() (replacing any it has).
  void write(nlohmann::json j) {
    j["time_s"] = run_seconds();
    std::lock_guard<std::mutex> lock(mu_);
    out_ << j.dump() << "\n";
    out_.flush();
  }

 private:
  mutable std::mutex mu_;
  std::ofstream out_;
  double seconds_before_ = 0;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace quax
