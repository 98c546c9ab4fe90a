// One immutable table per board size, built on first use and shared by every game of that
// size (the geometry of a board depends on nothing else).
#pragma once

#include <map>
#include <memory>
#include <mutex>

namespace quax {

// Precondition: Table is constructible from the size. Thread-safe.
template <class Table>
std::shared_ptr<const Table> table_for_size(int n) {
  static std::mutex mu;
  static std::map<int, std::shared_ptr<const Table>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& table = cache[n];
  if (!table) table = std::make_shared<const Table>(n);
  return table;
}

}  // namespace quax
