// Evaluators that need no network: for tests, benchmarks and the baseline players.
#pragma once

#include <memory>
#include <vector>

#include "env/rng.h"
#include "mcts/evaluator.h"

namespace quax {

// Flat policy, value 0: measures the search's own cost.
class UniformEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* policy_logits, float* values) override;
  bool needs_planes() const override { return false; }
};

// Flat policy; value = mean result of `playouts` uniformly random games from the position
// (+1 win, -1 loss, 0 draw for the player to move). Deterministic for a given seed and
// sequence of calls.
class RolloutEvaluator final : public Evaluator {
 public:
  explicit RolloutEvaluator(int playouts = 1, uint64_t seed = 1) : playouts_(playouts), rng_(seed) {}
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* policy_logits, float* values) override;
  bool needs_planes() const override { return false; }

 private:
  int playouts_;
  Rng rng_;
  std::unique_ptr<GameState> scratch_;
};

}  // namespace quax
