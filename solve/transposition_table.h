// The proof-number search's memory: proof and disproof numbers of positions already
// searched, in a fixed block of memory chosen at construction (the --memory-mb cap).
//
// Buckets of four entries; a full bucket gives up the entry with the least work (the number
// of nodes its subtree cost), so the expensive results survive. Keys are the callers': the
// search salts position keys with the attacker's colour, since one position has a value for
// each attacker.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace quax {

// Proof numbers saturate at kInfinity: pn == 0 means proven, dn == 0 disproven.
inline constexpr uint32_t kInfinity = 0x40000000u;
// Sums of proof numbers stop here, one short of kInfinity, so a large sum never reads as a proof.
inline uint32_t saturating_sum(uint32_t a, uint32_t b) {
  if (a >= kInfinity || b >= kInfinity) return kInfinity;
  const uint32_t s = a + b;
  return s >= kInfinity ? kInfinity - 1 : s;
}

// A proof set meaning "every cell": nothing known, nothing pruned (solve/proof_search.h).
inline constexpr uint64_t kEveryCell = ~uint64_t{0};

struct ProofEntry {
  uint64_t key = 0;
  uint32_t pn = 0, dn = 0;  // both zero: an empty slot (a stored entry never has both)
  uint64_t work = 0;
  uint64_t proof = kEveryCell;  // a decided position's proof set (proof_search.h), bit per cell
};

class TranspositionTable {
 public:
  // Uses at most `bytes` of memory (at least one bucket).
  explicit TranspositionTable(size_t bytes);

  // The entry for `key`, or null.
  const ProofEntry* find(uint64_t key) const;
  void store(uint64_t key, uint32_t pn, uint32_t dn, uint64_t work, uint64_t proof = kEveryCell);
  void clear();

  size_t capacity() const { return buckets_.size() * kWays; }
  size_t used() const { return used_; }
  size_t bytes() const { return buckets_.size() * sizeof(Bucket); }

 private:
  static constexpr int kWays = 4;
  struct Bucket {
    ProofEntry e[kWays];
  };
  size_t bucket_of(uint64_t key) const {
    // Multiply-high maps the key onto any bucket count without a division.
    return static_cast<size_t>((static_cast<unsigned __int128>(key) * buckets_.size()) >> 64);
  }

  std::vector<Bucket> buckets_;
  size_t used_ = 0;
};

}  // namespace quax
