// The memory the server's searches may hold at once (`quax serve --memory-mb`): every engine
// move and every analysis reserves its estimated size before it starts and gives it back when
// it ends, so that many games and analyses together cannot take the machine's memory; a
// search that does not fit is refused (503) instead of started.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "mcts/search_tree.h"  // search_memory_bytes

namespace quax {


class SearchBudget {
 public:
  // Also fixes glibc's allocation thresholds for the whole process (see the .cpp): build one
  // per server, before its first search.
  explicit SearchBudget(std::uint64_t limit_bytes);

  // Holds `bytes` of the budget until destroyed (or moved from). Destroy it after the search's
  // memory is freed: giving it back also returns the process's free pages to the system.
  class Reservation {
   public:
    Reservation() = default;
    Reservation(Reservation&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) { other.budget_ = nullptr; }
    Reservation& operator=(Reservation&& other) noexcept;
    Reservation(const Reservation&) = delete;
    Reservation& operator=(const Reservation&) = delete;
    ~Reservation();

   private:
    friend class SearchBudget;
    Reservation(SearchBudget* budget, std::uint64_t bytes) : budget_(budget), bytes_(bytes) {}
    SearchBudget* budget_ = nullptr;
    std::uint64_t bytes_ = 0;
  };

  // Reserves `bytes`; when they do not fit beside the searches running, returns false with
  // *why set to one line (how much this search needs, how much is in use, the limit).
  bool reserve(std::uint64_t bytes, Reservation* out, std::string* why);

  std::uint64_t in_use() const;
  std::uint64_t limit() const { return limit_; }

 private:
  void release(std::uint64_t bytes);

  const std::uint64_t limit_;
  mutable std::mutex mu_;
  std::uint64_t in_use_ = 0;
};

}  // namespace quax
