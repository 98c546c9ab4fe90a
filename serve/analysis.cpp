#include "serve/analysis.h"

#include <algorithm>
#include <chrono>

#include "core/steady_time.h"

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
  const auto end = seconds_from_now(seconds);
  do {
    if (tree_.done()) break;
    batch_.clear();
    tree_.collect();
    batch_.add_leaves(tree_);
    batch_.run(evaluator_);
  } while (Clock::now() < end);

  auto children = tree_.root_children();
  nlohmann::json prior = nlohmann::json::array(), top = nlohmann::json::array();
  for (const auto& c : children) prior.push_back({c.action, c.prior});
  std::stable_sort(children.begin(), children.end(), [](const auto& a, const auto& b) { return a.visits > b.visits; });
  for (size_t i = 0; i < children.size() && i < 10 && children[i].visits > 0; ++i)
    top.push_back({{"action", children[i].action},
                   {"move", tree_.root_state().action_to_string(children[i].action)},
                   {"visits", children[i].visits},
                   {"q", children[i].q},
                   {"prior", children[i].prior}});
  return {{"simulations", tree_.simulations_done()},
          {"value", tree_.root_value()},
          {"prior", std::move(prior)},
          {"top", std::move(top)},
          {"best", children.empty() ? -1 : children[0].action},
          {"done", tree_.done()}};
}

}  // namespace quax
