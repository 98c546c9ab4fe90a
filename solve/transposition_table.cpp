#include "solve/transposition_table.h"

#include <algorithm>

namespace quax {

TranspositionTable::TranspositionTable(size_t bytes) {
  buckets_.resize(std::max<size_t>(1, bytes / sizeof(Bucket)));
}

const ProofEntry* TranspositionTable::find(uint64_t key) const {
  const Bucket& b = buckets_[bucket_of(key)];
  for (const ProofEntry& e : b.e)
    if (e.key == key && (e.pn | e.dn) != 0) return &e;
  return nullptr;
}

void TranspositionTable::store(uint64_t key, uint32_t pn, uint32_t dn, uint64_t work, uint64_t proof) {
  Bucket& b = buckets_[bucket_of(key)];
  ProofEntry* victim = nullptr;
  for (ProofEntry& e : b.e) {
    const bool empty = (e.pn | e.dn) == 0;
    if (!empty && e.key == key) {
      victim = &e;
      break;
    }
    if (empty) {
      if (!victim || (victim->pn | victim->dn) != 0) victim = &e;
    } else if (!victim || ((victim->pn | victim->dn) != 0 && e.work < victim->work)) {
      victim = &e;
    }
  }
  if ((victim->pn | victim->dn) == 0) ++used_;
  // A position searched again keeps the larger of its work figures.
  const uint64_t prior = victim->key == key && (victim->pn | victim->dn) != 0 ? victim->work : 0;
  *victim = ProofEntry{key, pn, dn, std::max(work, prior), proof};
}

void TranspositionTable::clear() {
  std::fill(buckets_.begin(), buckets_.end(), Bucket{});
  used_ = 0;
}

}  // namespace quax
