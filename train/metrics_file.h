// <run>/metrics.jsonl: one JSON object per line, appended by every thread of the run (and by
// every `quax selfplay` process sharing the run directory: a line is one write, flushed).
#pragma once

#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace quax {

class MetricsFile {
 public:
  explicit MetricsFile(const std::string& path) : out_(path, std::ios::app) {}
  void write(const nlohmann::json& j) {
    std::lock_guard<std::mutex> lock(mu_);
    out_ << j.dump() << "\n";
    out_.flush();
  }

 private:
  std::mutex mu_;
  std::ofstream out_;
};

}  // namespace quax
