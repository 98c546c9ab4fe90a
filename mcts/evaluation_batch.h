// The one batched-evaluation step of every search loop (the multi-game driver behind
// self-play and the arena, run_search behind the single-game agents): positions gathered
// from any number of search trees, encoded into one buffer, evaluated by ONE Evaluator call,
// and each output handed back to the tree that asked for it. Positions that belong to no
// tree (export samples, perfect-check) go through the same step and are read back by index.
//
// Usage:
//   EvaluationBatch batch;                 // keep it: its buffers are reused
//   batch.clear();
//   for (SearchTree* t : trees) { t->collect(); batch.add_leaves(*t); }
//   batch.run(evaluator);                  // one evaluate(), then deliver() to every tree
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "env/game_state.h"
#include "mcts/evaluator.h"
#include "mcts/search_tree.h"

namespace quax {

class EvaluationBatch {
 public:
  // Empties the batch (keeps the buffers), for the next round of add_* and run().
  void clear();
  // Adds every pending leaf of `tree` (after its collect()). The tree must stay alive and
  // untouched until run(), which delivers the leaves' outputs to it.
  void add_leaves(SearchTree& tree);
  // Adds a position of no tree (not over; its legal actions from GameState::net_legal_mask).
  // The state must stay alive until run(); read its output with logits(i) / value(i).
  void add_position(const GameState& state);
  size_t size() const { return entries_.size(); }

  // One evaluator call over everything added, all of one spec: fills the planes (only when
  // evaluator.needs_planes()) and the legal masks, evaluates, and delivers each leaf's output
  // to its tree. Returns the number of positions evaluated (0: no call was made).
  size_t run(Evaluator& evaluator);

  // After run(): the outputs of entry i (in the order added), as the Evaluator contract
  // defines them (logits over the network-frame actions; value for the player to move).
  const float* logits(size_t i) const { return logits_.data() + i * actions_; }
  float value(size_t i) const { return values_[i]; }
  // After run() with an evaluator that needs planes: entry i's planes.
  const float* planes(size_t i) const { return planes_.data() + i * plane_floats_; }

 private:
  struct Entry {
    SearchTree* tree;  // null for add_position
    int leaf;          // pending leaf index in `tree`
  };
  std::vector<Entry> entries_;
  std::vector<const GameState*> states_;
  std::vector<float> planes_, logits_, values_;
  std::vector<uint8_t> masks_;
  size_t actions_ = 0, plane_floats_ = 0;
};

}  // namespace quax
