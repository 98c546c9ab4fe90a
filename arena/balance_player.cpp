#include "arena/balance_player.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <stdexcept>
#include <thread>

#include "mcts/search_agent.h"
#include "mcts/search_schema.h"

namespace quax {

PositionSearcher::PositionSearcher(const BalancePlayer& player, const SearchSettings& search)
    : player_(player), search_(play_settings(search)) {
  if (!player_.evaluator && !player_.make_agent)
    throw std::invalid_argument("a balance player needs an evaluator or a way to make its agents");
}

std::vector<RootSearch> PositionSearcher::search(const std::vector<const GameState*>& positions,
                                                 const std::vector<bool>& sample, Rng& rng) {
  if (sample.size() != positions.size()) throw std::invalid_argument("one sample flag per position");
  if (positions.empty()) return {};
  return player_.evaluator ? search_trees(positions, sample, rng) : search_agents(positions, sample, rng);
}

std::vector<RootSearch> PositionSearcher::search_trees(const std::vector<const GameState*>& positions,
                                                       const std::vector<bool>& sample, Rng& rng) {
  if (!trees_.empty() && trees_.front()->root_state().spec() != positions.front()->spec()) trees_.clear();
  std::vector<SearchTree*> trees;
  for (size_t i = 0; i < positions.size(); ++i) {
    if (i == trees_.size()) trees_.push_back(std::make_unique<SearchTree>(positions[i]->spec()));
    // A fresh root for every search: a measurement wants each move's search to be the same
    // simulations.
    trees_[i]->set_root(*positions[i]);
    trees.push_back(trees_[i].get());
  }
  run_searches(trees, *player_.evaluator, search_, /*noise=*/false, rng, &batch_);
  std::vector<RootSearch> out(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) {
    out[i].value = trees[i]->root_value();
    out[i].action = trees[i]->choose_action(sample[i] ? 1.0f : 0.0f, rng);
  }
  // The trees beyond a few games' worth keep their memory only while games are in flight.
  trees_.resize(positions.size());
  return out;
}

std::vector<RootSearch> PositionSearcher::search_agents(const std::vector<const GameState*>& positions,
                                                        const std::vector<bool>& sample, Rng& rng) {
  const size_t n = positions.size();
  std::vector<uint64_t> seeds(n);
  for (uint64_t& s : seeds) s = rng.next();
  struct Found {
    int action = -1;
    double value = 0;
    std::vector<std::pair<int, int>> visits;
  };
  std::vector<Found> found(n);
  std::atomic<size_t> next{0};
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  auto work = [&] {
    for (size_t i; !failed && (i = next++) < n;) {
      try {
        const auto agent = player_.make_agent(search_.simulations, seeds[i]);
        found[i].action = agent->choose_action(*positions[i]);
        const auto value = agent->last_value();
        if (!value)
          throw std::runtime_error("player '" + agent->name() +
                                   "' values no position: the balance lab needs a search (uct:N, mcts:N or a model)");
        found[i].value = *value;
        found[i].visits = agent->last_root_visits();
      } catch (...) {
        if (!failed.exchange(true)) failure = std::current_exception();
      }
    }
  };
  const int threads = static_cast<int>(std::min<size_t>(static_cast<size_t>(std::max(1, player_.threads)), n));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  std::vector<RootSearch> out(n);
  for (size_t i = 0; i < n; ++i) {
    out[i].value = found[i].value;
    out[i].action = found[i].action;
    if (!sample[i]) continue;
    // Temperature 1: a move in proportion to its visits, as SearchTree::choose_action draws it.
    uint64_t total = 0;
    for (const auto& [action, visits] : found[i].visits) total += static_cast<uint64_t>(std::max(0, visits));
    if (total == 0 || total > UINT32_MAX) continue;
    uint32_t r = rng.below(static_cast<uint32_t>(total));
    for (const auto& [action, visits] : found[i].visits) {
      const uint32_t v = static_cast<uint32_t>(std::max(0, visits));
      if (r < v) {
        out[i].action = action;
        break;
      }
      r -= v;
    }
  }
  return out;
}

}  // namespace quax
