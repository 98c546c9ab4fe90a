// The search's only view of a network: a batch of positions in, policy logits and values
// out (OpenSpiel's Evaluator). Implementations: uniform and random-rollout here, the
// LibTorch network in nets/.
//
// The value convention of the whole project: a value is a number in [-1, 1] for one player,
// +1 a certain win for that player, -1 a certain loss. Outside the search tree that player is
// always the one to move at the position the value describes: evaluator outputs, the
// network's value head, MoveRecord::root_value, resignation and the learner's value
// targets. Only SearchTree's nodes differ, and say so: a node's values are
// for the player who chose it, converted in the tree by comparing players. Nothing holds a
// value for a fixed colour; a game's result is an Outcome (which colour won), not a value.
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
