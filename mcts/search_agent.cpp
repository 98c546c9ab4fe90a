#include "mcts/search_agent.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "core/steady_time.h"

namespace quax {

namespace {
// The budget of a timed search: a number no move reaches in practice; the clock ends it.
constexpr int kTimedSearchBudget = 50'000'000;
}  // namespace

void run_search(SearchTree& tree, Evaluator& evaluator, const SearchSettings& settings, bool noise, Rng& rng,
                EvaluationBatch* batch, double seconds, bool stop_when_settled) {
  run_searches({&tree}, evaluator, settings, noise, rng, batch, seconds, stop_when_settled);
}

void run_searches(const std::vector<SearchTree*>& trees, Evaluator& evaluator, const SearchSettings& settings,
                  bool noise, Rng& rng, EvaluationBatch* batch, double seconds, bool stop_when_settled) {
  using Clock = std::chrono::steady_clock;
  const bool timed = seconds > 0;
  const auto start = Clock::now();
  const auto deadline = seconds_from_now(seconds);
  for (SearchTree* tree : trees) tree->start_search(settings, timed ? kTimedSearchBudget : settings.simulations, noise, &rng);
  for (bool searching = true; searching;) {
    searching = false;
    const auto now = Clock::now();
    const bool out_of_time = timed && now >= deadline;
    batch->clear();
    for (SearchTree* tree : trees) {
      if (tree->done() || (out_of_time && tree->simulations_done() > 0)) continue;
      if (stop_when_settled && tree->simulations_done() > 0) {
        // Under a clock the simulations still to come are those of the time left at this
        // search's rate so far. A lead can only pass them once half the time is spent, by
        // when the rate is measured over many batches.
        int more = tree->simulations_left();
        if (timed) {
          const double elapsed = std::chrono::duration<double>(now - start).count();
          const double left = std::chrono::duration<double>(deadline - now).count();
          more = static_cast<int>(std::min(1e9, std::ceil(tree->simulations_done() * left / std::max(elapsed, 1e-9))));
        }
        if (tree->move_settled(more)) continue;
      }
      searching = true;
      tree->collect();  // none pending after terminal hits only; the tree made progress
      batch->add_leaves(*tree);
    }
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
  tree_->reroot(state, settings_.reuse_tree);
  run_search(*tree_, *evaluator_, settings_, settings_.dirichlet_fraction > 0.0f, rng_, &batch_, seconds_,
             settings_.stop_when_settled);
  return tree_->choose_action(0.0f, rng_);
}

}  // namespace quax
