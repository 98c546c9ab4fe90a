// An Agent that runs one SearchTree against an Evaluator for each move (one game at a
// time): `mcts:<sims>` with the rollout evaluator, and any single-game player built on a
// network evaluator (gtp/play/arena model players, nets/model_agent.h), by simulation count
// or by wall-clock time. Batched play across games uses GameDriver instead.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mcts/agent.h"
#include "mcts/evaluation_batch.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"
#include "mcts/search_tree.h"

namespace quax {

class SearchAgent final : public Agent {
 public:
  // settings.dirichlet_fraction applies at every move (0 for normal play). Moves are the
  // most visited child (temperature 0). With settings.reuse_tree (PUCT) a position found
  // below the last search's root keeps its subtree (SearchTree::reroot: an Agent sees
  // positions, not the moves between them); else the tree is rebuilt at every move, as it
  // is after reset(). With settings.stop_when_settled a search ends once its move cannot
  // change (run_search). `seconds` > 0: each move searches for that long
  // (wall clock) instead of settings.simulations; PUCT only (sequential halving needs its
  // budget in advance), so it throws std::invalid_argument with a Gumbel root rule.
  SearchAgent(std::string name, std::shared_ptr<Evaluator> evaluator, const SearchSettings& settings, uint64_t seed,
              double seconds = 0);
  std::string name() const override { return name_; }
  int choose_action(const GameState& state) override;
  // Frees the tree (the next move builds a new one): a player kept between moves, as the
  // server's games keep theirs, then holds no memory of the last search.
  void reset() override { tree_.reset(); }
  std::optional<double> last_value() const override {
    return tree_ ? std::optional<double>(tree_->root_value()) : std::nullopt;
  }

  std::vector<std::pair<int, int>> last_root_visits() const override {
    std::vector<std::pair<int, int>> out;
    if (tree_)
      for (const SearchTree::RootChild& child : tree_->root_children()) out.emplace_back(child.action, child.visits);
    return out;
  }

  // The tree of the last choose_action (for tests and `hint`).
  const SearchTree* last_tree() const { return tree_.get(); }

 private:
  std::string name_;
  std::shared_ptr<Evaluator> evaluator_;
  SearchSettings settings_;
  double seconds_;
  Rng rng_;
  std::unique_ptr<SearchTree> tree_;
  EvaluationBatch batch_;
};

// Runs a whole search on `tree` (whose root is set) with `evaluator`, one evaluator call
// per collect() through `batch` (scratch, reused between calls). The tree's budget and
// noise come from start_search, called here.
// `seconds` > 0: the search runs for that wall-clock time instead of settings.simulations
// (at least one simulation; it overruns the time by at most one collect() and one
// evaluator call), and tree.done() stays false at the end; use choose_action and
// policy_target as after a full search.
// `stop_when_settled`: for a caller that wants the move alone (choose_action(0)); the search
// ends as soon as SearchTree::move_settled says the simulations left (under a clock: those
// the time left would give at the rate so far) cannot change it, at least one simulation
// in. The visits are then fewer than the budget: callers that show or learn from them
// (analysis, policy targets, the balance maps) leave it false.
void run_search(SearchTree& tree, Evaluator& evaluator, const SearchSettings& settings, bool noise, Rng& rng,
                EvaluationBatch* batch, double seconds = 0, bool stop_when_settled = false);
// The same over several trees (roots set, all of one spec) at once: each round collects from
// every tree still searching and makes one evaluator call for all of them, so each tree
// searches as it would alone. `seconds` > 0: one deadline for all.
void run_searches(const std::vector<SearchTree*>& trees, Evaluator& evaluator, const SearchSettings& settings,
                  bool noise, Rng& rng, EvaluationBatch* batch, double seconds = 0, bool stop_when_settled = false);

}  // namespace quax
