// An Evaluator that shows another evaluator each position through the board's symmetries
// (GameState::num_net_symmetries: those of the network frame that keep the mover and the
// goals) and maps its answers back.
//
// Why: a network trained with augmentation is still not exactly symmetric, and its mistakes
// depend on the orientation it sees. With one fixed orientation the same mistake repeats at
// every node of a line; drawn per position (AlphaGo Zero's evaluation, KataGo's default) the
// mistakes of different nodes are less alike. Averaged over several orientations (an
// ensemble of the one network) each value is better, at that many network evaluations.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "env/rng.h"
#include "mcts/evaluator.h"

namespace quax {

enum class EvalSymmetries {
  kNone,     // the position as it is: the inner evaluator alone
  kRandom,   // one symmetry drawn per position; the same cost as kNone
  kAverage,  // up to kMaxAveragedSymmetries of them (every one where the game has no more),
             // values averaged and policies averaged as probabilities; that many times the cost
};
inline constexpr int kMaxAveragedSymmetries = 8;

// "none", "random", "average".
std::string eval_symmetries_name(EvalSymmetries mode);
// False for any other text.
bool parse_eval_symmetries(const std::string& text, EvalSymmetries* mode);

class SymmetricEvaluator : public Evaluator {
 public:
  // `inner` answers for the transformed positions; it must need planes (a network). Each
  // SymmetricEvaluator belongs to one thread, as its inner evaluator does.
  SymmetricEvaluator(std::shared_ptr<Evaluator> inner, EvalSymmetries mode, uint64_t seed);

  // As Evaluator::evaluate. Policy logits come back in the positions' own network frame: for
  // kAverage the log of the averaged probabilities over the legal actions (what the search's
  // softmax over legal actions turns back into those probabilities); entries of illegal
  // actions are left as they are.
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* policy_logits, float* values) override;
  bool needs_planes() const override { return true; }

  Evaluator& inner() { return *inner_; }

 private:
  std::shared_ptr<Evaluator> inner_;
  EvalSymmetries mode_;
  Rng rng_;
  // Reused between calls: the transformed batch and the inner evaluator's answers.
  std::vector<const GameState*> batch_states_;
  std::vector<int> batch_symmetry_;
  std::vector<int> batch_source_;
  std::vector<float> batch_planes_;
  std::vector<uint8_t> batch_masks_;
  std::vector<float> batch_logits_;
  std::vector<float> batch_values_;
  std::vector<float> action_index_;
  std::vector<float> action_source_;
};

}  // namespace quax
