// An Agent that runs one SearchTree against an Evaluator for each move (one game at a
// time): `mcts:<sims>` with the rollout evaluator, and any single-game player built on a
// network evaluator (gtp --model). Batched play across games uses GameDriver instead.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mcts/agent.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"
#include "mcts/search_tree.h"

namespace quax {

class SearchAgent final : public Agent {
 public:
  // settings.dirichlet_fraction applies at every move (0 for normal play). Moves are the
  // most visited child (temperature 0). The tree is rebuilt at every move: an Agent sees
  // positions, not the moves between them.
  SearchAgent(std::string name, std::shared_ptr<Evaluator> evaluator, const SearchSettings& settings, uint64_t seed);
  std::string name() const override { return name_; }
  int choose_action(const GameState& state) override;

  // The tree of the last choose_action (for tests and `hint`).
  const SearchTree* last_tree() const { return tree_.get(); }

 private:
  std::string name_;
  std::shared_ptr<Evaluator> evaluator_;
  SearchSettings settings_;
  Rng rng_;
  std::unique_ptr<SearchTree> tree_;
  std::vector<const GameState*> states_;
  std::vector<float> planes_, logits_, values_;
  std::vector<uint8_t> masks_;
};

// Runs a whole search on `tree` (whose root is set) with `evaluator`, one evaluator call
// per collect(). The tree's budget and noise come from start_search, called here.
void run_search(SearchTree& tree, Evaluator& evaluator, const SearchSettings& settings, bool noise, Rng& rng,
                std::vector<const GameState*>* states, std::vector<float>* planes, std::vector<uint8_t>* masks,
                std::vector<float>* logits, std::vector<float>* values);

}  // namespace quax
