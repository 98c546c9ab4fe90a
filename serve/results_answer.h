// The answer of GET /api/results: an arena results file's games of one game, as the JSON text
// the page reads. Memory stays bounded whatever the requests: files over a size limit are
// refused, one file is parsed at a time, and the last answer is kept (keyed by the file's
// path, size and modification time and the game), so that concurrent or repeated requests for
// one file share one copy instead of each parsing it again.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "env/types.h"

namespace quax {

class ResultsAnswers {
 public:
  explicit ResultsAnswers(std::uintmax_t max_file_bytes) : max_file_bytes_(max_file_bytes) {}

  // {"games": [{"index", "black", "white", "winner", "variant", "size", "swap", "moves",
  // "record"}...], "skipped_lines": N} for the results of `spec` in the file at `path`.
  // Throws std::runtime_error (one line naming the path) when it is missing, not a regular
  // file, larger than the limit, or unreadable.
  std::shared_ptr<const std::string> answer(const std::string& path, const GameSpec& spec);

 private:
  const std::uintmax_t max_file_bytes_;
  std::mutex mu_;  // held while a file is parsed: one parse at a time
  std::string key_;
  std::shared_ptr<const std::string> cached_;
};

}  // namespace quax
