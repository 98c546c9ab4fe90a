#include "mcts/search_agent.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace quax {

namespace {
// The budget of a timed search: a number no move reaches in practice; the clock ends it.
constexpr int kTimedSearchBudget = 50'000'000;
}  // namespace

void run_search(SearchTree& tree, Evaluator& evaluator, const SearchSettings& settings, bool noise, Rng& rng,
                EvaluationBatch* batch, double seconds) {
  using Clock = std::chrono::steady_clock;
  const bool timed = seconds > 0;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  tree.start_search(settings, timed ? kTimedSearchBudget : settings.simulations, noise, &rng);
  while (!tree.done()) {
    if (timed && tree.simulations_done() > 0 && Clock::now() >= deadline) break;
    batch->clear();
    tree.collect();  // none pending after terminal hits only; the tree made progress
    batch->add_leaves(tree);
    batch->run(evaluator);
  }
}

SearchAgent::SearchAgent(std::string name, std::shared_ptr<Evaluator> evaluator, const SearchSettings& settings,
                         uint64_t seed, double seconds)
    : name_(std::move(name)), evaluator_(std::move(evaluator)), settings_(settings), seconds_(seconds), rng_(seed) {
  if (seconds_ > 0 && settings_.root_rule == RootRule::kGumbel)
    throw std::invalid_argument("a time limit per move works with PUCT only, not gumbel");
}

int SearchAgent::choose_action(const GameState& state) {
  if (!tree_ || tree_->root_state().spec() != state.spec()) tree_ = std::make_unique<SearchTree>(state.spec());
  tree_->set_root(state);
  run_search(*tree_, *evaluator_, settings_, settings_.dirichlet_fraction > 0.0f, rng_, &batch_, seconds_);
  return tree_->choose_action(0.0f, rng_);
}

}  // namespace quax
