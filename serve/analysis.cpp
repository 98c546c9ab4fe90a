#include "serve/analysis.h"

#include <algorithm>
#include <chrono>

namespace quax {

PositionAnalysis::PositionAnalysis(const GameState& position, std::shared_ptr<const InferenceModel> model,
                                   int simulations)
    : tree_(position.spec()), evaluator_(std::move(model)) {
  SearchSettings settings;
  settings.simulations = simulations;
  settings.leaves_per_batch = 8;  // analysis wants throughput; virtual loss keeps the leaves apart
  tree_.set_root(position);
  tree_.start_search(settings, simulations, false, &rng_);
}

nlohmann::json PositionAnalysis::step(double seconds) {
  using Clock = std::chrono::steady_clock;
  const auto end = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  do {
    if (tree_.done()) break;
    batch_.clear();
    tree_.collect();
    batch_.add_leaves(tree_);
    batch_.run(evaluator_);
  } while (Clock::now() < end);

  const SearchTree::Node& root = tree_.root();
  const GameState& state = tree_.root_state();
  std::vector<int> children(root.num_children);
  for (int i = 0; i < root.num_children; ++i) children[i] = root.first_child + i;
  std::stable_sort(children.begin(), children.end(),
                   [&](int a, int b) { return tree_.node(a).visits > tree_.node(b).visits; });
  nlohmann::json prior = nlohmann::json::array(), top = nlohmann::json::array();
  for (int i = 0; i < root.num_children; ++i) {
    const SearchTree::Node& child = tree_.node(root.first_child + i);
    prior.push_back({child.action, child.prior});
  }
  for (size_t i = 0; i < children.size() && i < 10; ++i) {
    const SearchTree::Node& child = tree_.node(children[i]);
    if (child.visits == 0) break;
    // A child's values are its chooser's: the root's player to move.
    top.push_back({{"action", child.action},
                   {"move", state.action_to_string(child.action)},
                   {"visits", child.visits},
                   {"q", child.value_sum / child.visits},
                   {"prior", child.prior}});
  }
  return {{"simulations", tree_.simulations_done()},
          {"value", root.visits > 0 ? tree_.root_value() : 0.0f},
          {"prior", std::move(prior)},
          {"top", std::move(top)},
          {"best", children.empty() ? -1 : tree_.node(children[0]).action},
          {"done", tree_.done()}};
}

}  // namespace quax
