#include "mcts/simple_evaluators.h"

#include <algorithm>

namespace quax {

void UniformEvaluator::evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*,
                                float* policy_logits, float* values) {
  if (states.empty()) return;
  const size_t a = static_cast<size_t>(states[0]->num_actions());
  std::fill(policy_logits, policy_logits + a * states.size(), 0.0f);
  std::fill(values, values + states.size(), 0.0f);
}

void RolloutEvaluator::evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*,
                                float* policy_logits, float* values) {
  if (states.empty()) return;
  const size_t a = static_cast<size_t>(states[0]->num_actions());
  std::fill(policy_logits, policy_logits + a * states.size(), 0.0f);
  for (size_t i = 0; i < states.size(); ++i) {
    const GameState& s = *states[i];
    if (!scratch_ || scratch_->spec() != s.spec()) scratch_ = s.clone();
    const Player mover = s.to_move();
    double sum = 0.0;
    for (int k = 0; k < playouts_; ++k) {
      scratch_->copy_from(s);
      const Player w = winner_of(scratch_->play_random_to_end(rng_));
      sum += w == Player::kNone ? 0.0 : (w == mover ? 1.0 : -1.0);
    }
    values[i] = static_cast<float>(sum / std::max(1, playouts_));
  }
}

}  // namespace quax
