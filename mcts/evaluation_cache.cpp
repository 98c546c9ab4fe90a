#include "mcts/evaluation_cache.h"

#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace quax {

CachingEvaluator::CachingEvaluator(Evaluator* inner, int64_t capacity, int plane_floats, int actions)
    : inner_(inner), plane_floats_(plane_floats), actions_(actions) {
  if (!inner_->needs_planes()) throw std::invalid_argument("CachingEvaluator: the inner evaluator must read planes");
  if (capacity < 1) throw std::invalid_argument("CachingEvaluator: capacity must be positive");
  keys_.assign(static_cast<size_t>(capacity), 0);
  values_.assign(static_cast<size_t>(capacity), 0.0f);
  logits_.assign(static_cast<size_t>(capacity) * actions_, 0.0f);
}

void CachingEvaluator::clear() { std::fill(keys_.begin(), keys_.end(), 0); }

void CachingEvaluator::evaluate(const std::vector<const GameState*>& states, const float* planes,
                                const uint8_t* masks, float* policy_logits, float* values) {
  const int n = static_cast<int>(states.size());
  const size_t capacity = keys_.size();
  miss_states_.clear();
  miss_of_key_.clear();
  miss_planes_.clear();
  miss_masks_.clear();
  // Position i's key, and where its answer comes from: a slot (>= 0) or miss -1 - m.
  std::vector<uint64_t> key(n);
  std::vector<int64_t> source(n);
  for (int i = 0; i < n; ++i) {
    const float* p = planes + static_cast<size_t>(i) * plane_floats_;
    const uint8_t* m = masks + static_cast<size_t>(i) * actions_;
    uint64_t k = XXH3_64bits_withSeed(m, static_cast<size_t>(actions_),
                                      XXH3_64bits(p, sizeof(float) * static_cast<size_t>(plane_floats_)));
    if (k == 0) k = 1;
    key[i] = k;
    ++lookups_;
    const size_t slot = k % capacity;
    if (keys_[slot] == k) {
      ++hits_;
      source[i] = static_cast<int64_t>(slot);
      continue;
    }
    auto [it, inserted] = miss_of_key_.emplace(k, static_cast<int>(miss_states_.size()));
    if (inserted) {
      miss_states_.push_back(states[i]);
      miss_planes_.insert(miss_planes_.end(), p, p + plane_floats_);
      miss_masks_.insert(miss_masks_.end(), m, m + actions_);
    } else {
      ++hits_;  // a twin earlier in this batch
    }
    source[i] = -1 - it->second;
  }
  if (!miss_states_.empty()) {
    miss_logits_.resize(miss_states_.size() * static_cast<size_t>(actions_));
    miss_values_.resize(miss_states_.size());
    inner_->evaluate(miss_states_, miss_planes_.data(), miss_masks_.data(), miss_logits_.data(), miss_values_.data());
  }
  for (int i = 0; i < n; ++i) {
    const float* logits;
    float value;
    if (source[i] >= 0) {
      logits = &logits_[static_cast<size_t>(source[i]) * actions_];
      value = values_[static_cast<size_t>(source[i])];
    } else {
      const size_t m = static_cast<size_t>(-1 - source[i]);
      logits = &miss_logits_[m * actions_];
      value = miss_values_[m];
    }
    std::memcpy(policy_logits + static_cast<size_t>(i) * actions_, logits, sizeof(float) * actions_);
    values[i] = value;
  }
  // Store the new answers last, so that no slot read above was overwritten meanwhile.
  // Non-finite answers are not kept: the next visit asks the network again.
  for (const auto& [k, m] : miss_of_key_) {
    if (!std::isfinite(miss_values_[static_cast<size_t>(m)])) continue;
    const size_t slot = k % capacity;
    keys_[slot] = k;
    values_[slot] = miss_values_[static_cast<size_t>(m)];
    std::memcpy(&logits_[slot * actions_], &miss_logits_[static_cast<size_t>(m) * actions_], sizeof(float) * actions_);
  }
}

}  // namespace quax
