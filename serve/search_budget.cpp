#include "serve/search_budget.h"

#include <malloc.h>

#include <algorithm>

#include "core/malloc_thresholds.h"
#include "mcts/search_tree.h"

namespace quax {

SearchBudget::SearchBudget(std::uint64_t limit_bytes) : limit_(limit_bytes) {
  // Small fixed thresholds (core/malloc_thresholds.h): a tree's blocks of 1 MB or more in their
  // own mappings, and more than 4 MB free at the top of the main heap given back. With glibc's
  // dynamic ones, measured, six quax 26x26 engine moves of 1,500 simulations left 235 MB
  // resident after their games were deleted (44 MB in each of five thread heaps, 140 KB of it
  // in use); with these, 45 MB.
  fix_malloc_thresholds(1 << 20, 4 << 20);
}
namespace {

constexpr std::uint64_t kMB = 1024 * 1024;

std::string mb(std::uint64_t bytes) { return std::to_string((bytes + kMB - 1) / kMB) + " MB"; }

}  // namespace

SearchBudget::Reservation& SearchBudget::Reservation::operator=(Reservation&& other) noexcept {
  if (this != &other) {
    if (budget_) budget_->release(bytes_);
    budget_ = other.budget_;
    bytes_ = other.bytes_;
    other.budget_ = nullptr;
  }
  return *this;
}

SearchBudget::Reservation::~Reservation() {
  if (budget_) budget_->release(bytes_);
}

bool SearchBudget::reserve(std::uint64_t bytes, Reservation* out, std::string* why) {
  std::lock_guard<std::mutex> lock(mu_);
  if (bytes > limit_) {
    *why = "this search needs about " + mb(bytes) + ", more than the server's whole search memory (--memory-mb " +
           std::to_string(limit_ / kMB) + "): ask for fewer simulations or a smaller board";
    return false;
  }
  if (in_use_ + bytes > limit_) {
    *why = "not enough search memory now: this search needs about " + mb(bytes) + ", " + mb(in_use_) + " of " +
           mb(limit_) + " (--memory-mb) are held by other searches; try again later";
    return false;
  }
  in_use_ += bytes;
  *out = Reservation(this, bytes);
  return true;
}

std::uint64_t SearchBudget::in_use() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_use_;
}

void SearchBudget::release(std::uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    in_use_ -= std::min(bytes, in_use_);
  }
  // The search's tree is freed by now; glibc keeps freed pages of its per-thread arenas
  // unless asked, and the server's resident size would stay at its peak.
  ::malloc_trim(0);
}

}  // namespace quax
