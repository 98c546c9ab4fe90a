#include "mcts/search_agent.h"

#include <algorithm>

namespace quax {

void run_search(SearchTree& tree, Evaluator& evaluator, const SearchSettings& settings, bool noise, Rng& rng,
                std::vector<const GameState*>* states, std::vector<float>* planes, std::vector<uint8_t>* masks,
                std::vector<float>* logits, std::vector<float>* values) {
  tree.start_search(settings, settings.simulations, noise, &rng);
  const GameState& root = tree.root_state();
  const size_t a = static_cast<size_t>(root.num_actions());
  const size_t per = static_cast<size_t>(root.num_planes()) * root.size() * root.size();
  while (!tree.done()) {
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
                         uint64_t seed)
    : name_(std::move(name)), evaluator_(std::move(evaluator)), settings_(settings), rng_(seed) {}

int SearchAgent::choose_action(const GameState& state) {
  if (!tree_ || tree_->root_state().spec() != state.spec()) tree_ = std::make_unique<SearchTree>(state.spec());
  tree_->set_root(state);
  run_search(*tree_, *evaluator_, settings_, settings_.dirichlet_fraction > 0.0f, rng_, &states_, &planes_, &masks_,
             &logits_, &values_);
  return tree_->choose_action(0.0f, rng_);
}

}  // namespace quax
