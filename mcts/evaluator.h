// The search's only view of a network: a batch of positions in, policy logits and values
// out (OpenSpiel's Evaluator). Implementations: uniform and random-rollout here, the
// LibTorch network in nets/.
#pragma once

#include <cstdint>
#include <vector>

#include "env/game_state.h"

namespace quax {

class Evaluator {
 public:
  virtual ~Evaluator() = default;

  // Evaluates `states.size()` positions, none of them over.
  //  planes: [B, C, N, N] as written by GameState::encode (network frame); only filled
  //          when needs_planes() is true, else may be null.
  //  masks:  [B, A] legal actions in the network frame (1 = legal).
  // Writes policy_logits [B, A] in the network frame (entries of illegal actions are
  // ignored by the caller) and values [B] in [-1, 1] from the point of view of the
  // player to move in each position.
  virtual void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                        float* policy_logits, float* values) = 0;

  // False for evaluators that read the states directly, so callers can skip encoding.
  virtual bool needs_planes() const { return true; }
};

}  // namespace quax
