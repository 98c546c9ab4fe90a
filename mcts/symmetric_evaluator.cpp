#include "mcts/symmetric_evaluator.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace quax {

std::string eval_symmetries_name(EvalSymmetries mode) {
  switch (mode) {
    case EvalSymmetries::kNone: return "none";
    case EvalSymmetries::kRandom: return "random";
    case EvalSymmetries::kAverage: return "average";
  }
  return "none";
}

bool parse_eval_symmetries(const std::string& text, EvalSymmetries* mode) {
  for (EvalSymmetries m : {EvalSymmetries::kNone, EvalSymmetries::kRandom, EvalSymmetries::kAverage}) {
    if (text == eval_symmetries_name(m)) {
      *mode = m;
      return true;
    }
  }
  return false;
}

SymmetricEvaluator::SymmetricEvaluator(std::shared_ptr<Evaluator> inner, EvalSymmetries mode, uint64_t seed)
    : inner_(std::move(inner)), mode_(mode), rng_(seed) {
  if (!inner_ || !inner_->needs_planes())
    throw std::invalid_argument("SymmetricEvaluator needs an evaluator that reads planes");
}

void SymmetricEvaluator::evaluate(const std::vector<const GameState*>& states, const float* planes,
                                  const uint8_t* masks, float* policy_logits, float* values) {
  if (mode_ == EvalSymmetries::kNone || states.empty()) {
    inner_->evaluate(states, planes, masks, policy_logits, values);
    return;
  }
  // One batch shares a board (the network's input shape), as every evaluator's does.
  const GameState& first = *states[0];
  const size_t plane_floats = static_cast<size_t>(first.num_planes()) * first.size() * first.size();
  const size_t actions = static_cast<size_t>(first.num_actions());

  batch_states_.clear();
  batch_symmetry_.clear();
  batch_source_.clear();
  std::vector<int> drawn;
  for (size_t i = 0; i < states.size(); ++i) {
    const int k = states[i]->num_net_symmetries();
    drawn.resize(k);
    std::iota(drawn.begin(), drawn.end(), 0);
    int used = 1;
    if (mode_ == EvalSymmetries::kRandom) {
      std::swap(drawn[0], drawn[rng_.below(static_cast<uint32_t>(k))]);
    } else if (k > kMaxAveragedSymmetries) {
      // The identity and distinct others drawn at random (a partial shuffle).
      for (int j = 1; j < kMaxAveragedSymmetries; ++j)
        std::swap(drawn[j], drawn[j + rng_.below(static_cast<uint32_t>(k - j))]);
      used = kMaxAveragedSymmetries;
    } else {
      used = k;
    }
    for (int j = 0; j < used; ++j) {
      batch_states_.push_back(states[i]);
      batch_symmetry_.push_back(drawn[j]);
      batch_source_.push_back(static_cast<int>(i));
    }
  }

  const size_t entries = batch_states_.size();
  batch_planes_.resize(entries * plane_floats);
  batch_masks_.resize(entries * actions);
  batch_logits_.resize(entries * actions);
  batch_values_.resize(entries);
  for (size_t e = 0; e < entries; ++e) {
    const size_t i = static_cast<size_t>(batch_source_[e]);
    const float* in_planes = planes + i * plane_floats;
    const uint8_t* in_mask = masks + i * actions;
    float* out_planes = batch_planes_.data() + e * plane_floats;
    uint8_t* out_mask = batch_masks_.data() + e * actions;
    if (batch_symmetry_[e] == 0) {
      std::copy(in_planes, in_planes + plane_floats, out_planes);
      std::copy(in_mask, in_mask + actions, out_mask);
    } else {
      batch_states_[e]->transform_net_planes(batch_symmetry_[e], in_planes, out_planes);
      batch_states_[e]->transform_net_mask(batch_symmetry_[e], in_mask, out_mask);
    }
  }
  inner_->evaluate(batch_states_, batch_planes_.data(), batch_masks_.data(), batch_logits_.data(),
                   batch_values_.data());

  // Where each action of the transformed position came from: the policy transform of the
  // numbers 1..A (0 where nothing lands, the padding of a layout).
  action_index_.resize(actions);
  action_source_.resize(actions);
  for (size_t a = 0; a < actions; ++a) action_index_[a] = static_cast<float>(a + 1);
  std::vector<float> probabilities(actions);
  size_t e = 0;
  for (size_t i = 0; i < states.size(); ++i) {
    const uint8_t* mask = masks + i * actions;
    float* logits = policy_logits + i * actions;
    std::fill(probabilities.begin(), probabilities.end(), 0.0f);
    double value = 0;
    int count = 0;
    for (; e < entries && batch_source_[e] == static_cast<int>(i); ++e, ++count) {
      const float* answer = batch_logits_.data() + e * actions;
      value += batch_values_[e];
      if (batch_symmetry_[e] != 0) {
        states[i]->transform_net_policy(batch_symmetry_[e], action_index_.data(), action_source_.data());
      } else {
        std::copy(action_index_.begin(), action_index_.end(), action_source_.begin());
      }
      if (mode_ == EvalSymmetries::kRandom) {
        for (size_t j = 0; j < actions; ++j) {
          const int source = static_cast<int>(action_source_[j]) - 1;
          if (source >= 0) logits[source] = answer[j];
        }
        continue;
      }
      // A softmax over this answer's legal actions, added in the position's own frame.
      float top = -INFINITY;
      for (size_t j = 0; j < actions; ++j)
        if (batch_masks_[e * actions + j]) top = std::max(top, answer[j]);
      double total = 0;
      for (size_t j = 0; j < actions; ++j)
        if (batch_masks_[e * actions + j]) total += std::exp(static_cast<double>(answer[j] - top));
      for (size_t j = 0; j < actions; ++j) {
        const int source = static_cast<int>(action_source_[j]) - 1;
        if (source >= 0 && batch_masks_[e * actions + j])
          probabilities[source] += static_cast<float>(std::exp(static_cast<double>(answer[j] - top)) / total);
      }
    }
    values[i] = static_cast<float>(value / count);
    if (mode_ == EvalSymmetries::kAverage) {
      for (size_t a = 0; a < actions; ++a)
        if (mask[a]) logits[a] = std::log(std::max(probabilities[a] / count, 1e-30f));
    }
  }
}

}  // namespace quax
