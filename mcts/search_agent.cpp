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
                std::vector<const GameState*>* states, std::vector<float>* planes, std::vector<uint8_t>* masks,
                std::vector<float>* logits, std::vector<float>* values, double seconds) {
  using Clock = std::chrono::steady_clock;
  const bool timed = seconds > 0;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  tree.start_search(settings, timed ? kTimedSearchBudget : settings.simulations, noise, &rng);
  const GameState& root = tree.root_state();
  const size_t a = static_cast<size_t>(root.num_actions());
  const size_t per = static_cast<size_t>(root.num_planes()) * root.size() * root.size();
  while (!tree.done()) {
    if (timed && tree.simulations_done() > 0 && Clock::now() >= deadline) break;
    const int n = tree.collect();
    if (n == 0) continue;  // terminal hits only; the tree made progress
    states->clear();
    masks->assign(n * a, 0);
    for (int i = 0; i < n; ++i) {
      states->push_back(&tree.pending_state(i));
      for (int16_t net : tree.pending_net_actions(i)) (*masks)[i * a + net] = 1;
    }
    const float* p = nullptr;
    if (evaluator.needs_planes()) {
      planes->resize(n * per);
      for (int i = 0; i < n; ++i) (*states)[i]->encode(planes->data() + i * per);
      p = planes->data();
    }
    logits->resize(n * a);
    values->resize(n);
    evaluator.evaluate(*states, p, masks->data(), logits->data(), values->data());
    for (int i = 0; i < n; ++i) tree.deliver(i, logits->data() + i * a, (*values)[i]);
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
  run_search(*tree_, *evaluator_, settings_, settings_.dirichlet_fraction > 0.0f, rng_, &states_, &planes_, &masks_,
             &logits_, &values_, seconds_);
  return tree_->choose_action(0.0f, rng_);
}

}  // namespace quax
