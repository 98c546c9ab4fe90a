#include "mcts/evaluation_batch.h"

namespace quax {

void EvaluationBatch::clear() {
  entries_.clear();
  states_.clear();
}

void EvaluationBatch::add_leaves(SearchTree& tree) {
  for (int i = 0; i < tree.num_pending(); ++i) {
    entries_.push_back({&tree, i});
    states_.push_back(&tree.pending_state(i));
  }
}

void EvaluationBatch::add_position(const GameState& state) {
  entries_.push_back({nullptr, -1});
  states_.push_back(&state);
}

size_t EvaluationBatch::run(Evaluator& evaluator) {
  const size_t batch = entries_.size();
  if (batch == 0) return 0;
  const GameState& first = *states_[0];
  actions_ = static_cast<size_t>(first.num_actions());
  plane_floats_ = static_cast<size_t>(first.num_planes()) * first.size() * first.size();
  masks_.assign(batch * actions_, 0);
  for (size_t b = 0; b < batch; ++b) {
    uint8_t* mask = masks_.data() + b * actions_;
    const Entry& e = entries_[b];
    if (e.tree) {
      // The tree listed the leaf's legal actions when it selected it; no second legal scan.
      for (int16_t net : e.tree->pending_net_actions(e.leaf)) mask[net] = 1;
    } else {
      states_[b]->net_legal_mask(mask);
    }
  }
  const float* planes = nullptr;
  if (evaluator.needs_planes()) {
    planes_.resize(batch * plane_floats_);
    for (size_t b = 0; b < batch; ++b) states_[b]->encode(planes_.data() + b * plane_floats_);
    planes = planes_.data();
  }
  logits_.resize(batch * actions_);
  values_.resize(batch);
  evaluator.evaluate(states_, planes, masks_.data(), logits_.data(), values_.data());
  for (size_t b = 0; b < batch; ++b) {
    const Entry& e = entries_[b];
    if (e.tree) e.tree->deliver(e.leaf, logits(b), values_[b]);
  }
  return batch;
}

}  // namespace quax
