// A cache of network outputs in front of another Evaluator. The key is a 64-bit hash of what
// the network is shown (the position's planes and legal mask), so transpositions inside a
// tree, the openings that many games of a driver share and positions met again after tree
// reuse are evaluated once, and an entry can only be returned for an input on which the
// network would give the same output. Positions repeated inside one batch are evaluated once.
//
// A fixed table of `capacity` slots, each slot holding the newest entry whose hash maps to
// it (no allocation after construction). Not thread-safe: one per driver. Call clear() when
// the network behind it changes.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "mcts/evaluator.h"

namespace quax {

class CachingEvaluator : public Evaluator {
 public:
  // inner: evaluates the misses (must need planes; not owned, outlives this).
  // plane_floats: floats of planes per position (num_planes * N * N); actions: num_actions.
  CachingEvaluator(Evaluator* inner, int64_t capacity, int plane_floats, int actions);

  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* policy_logits, float* values) override;

  // Forgets every entry (a new model): later lookups miss until evaluated again.
  void clear();

  int64_t lookups() const { return lookups_; }
  int64_t hits() const { return hits_; }  // answered from the table or by a twin in the batch

 private:
  Evaluator* inner_;
  int plane_floats_, actions_;
  std::vector<uint64_t> keys_;   // per slot; 0 = empty (a zero hash is stored as 1)
  std::vector<float> values_;    // per slot
  std::vector<float> logits_;    // capacity * actions
  int64_t lookups_ = 0, hits_ = 0;
  // Scratch for the misses of one batch.
  std::vector<const GameState*> miss_states_;
  std::vector<float> miss_planes_, miss_logits_, miss_values_;
  std::vector<uint8_t> miss_masks_;
  std::unordered_map<uint64_t, int> miss_of_key_;
};

}  // namespace quax
