// Who the balance lab (`quax balance`, docs/BALANCE.md) measures a game with, and how each of
// its parts searches a position through it. Two kinds, one interface for the parts:
//   - a tree search over an Evaluator (mcts/evaluator.h): a model's network, or the random
//     playouts of the plain MCTS baseline `mcts:<sims>`; the positions of many games share
//     each evaluator call;
//   - a player that searches on its own (mcts/agent.h), made at a given number of simulations:
//     `uct:<playouts>` as nets/players.h makes it; it is read through Agent::last_value (the
//     root's value) and Agent::last_root_visits (the moves drawn at the start of a game).
// Torch-free: the caller supplies the evaluator or the players.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"
#include "mcts/agent.h"
#include "mcts/evaluation_batch.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"
#include "mcts/search_tree.h"

namespace quax {

struct BalancePlayer {
  // The player at `simulations` (uct: its playouts) seeded `seed`; never null (throws instead).
  using AgentMaker = std::function<std::unique_ptr<Agent>(int simulations, uint64_t seed)>;

  // An evaluator is a player: the search of mcts/ over it (not owned; it must outlive the use).
  BalancePlayer(Evaluator& e) : evaluator(&e) {}  // NOLINT: implicit on purpose
  // A player that searches alone, `threads` of its searches of positions side by side (each its
  // own agent, seeded in order: the figures are the same for any number of threads).
  explicit BalancePlayer(AgentMaker make, int threads = 1) : make_agent(std::move(make)), threads(threads) {}

  Evaluator* evaluator = nullptr;
  AgentMaker make_agent;
  int threads = 1;
};

// What one search of a position gave.
struct RootSearch {
  double value = 0;  // the root's value for its player to move, in [-1, 1]
  int action = -1;   // the move: drawn from the root's visits, or the search's own choice
};

// Searches positions with a player at `search.simulations` (and, for the tree search, the rest
// of `search`, without noise), the same way for every part of the lab.
class PositionSearcher {
 public:
  PositionSearcher(const BalancePlayer& player, const SearchSettings& search);

  // Searches each of `positions` (none over, all of one spec) and returns, in order, the
  // root's value and a move: drawn from the root's visit counts (temperature 1) where
  // sample[i], else the search's own choice (the most visited). `rng` draws the moves and
  // the agents' seeds (one per position, in order, so that threads change nothing).
  // Throws std::runtime_error for a player that reports no value (random).
  std::vector<RootSearch> search(const std::vector<const GameState*>& positions, const std::vector<bool>& sample,
                                 Rng& rng);

 private:
  std::vector<RootSearch> search_trees(const std::vector<const GameState*>& positions, const std::vector<bool>& sample,
                                       Rng& rng);
  std::vector<RootSearch> search_agents(const std::vector<const GameState*>& positions,
                                        const std::vector<bool>& sample, Rng& rng);

  BalancePlayer player_;
  SearchSettings search_;
  std::vector<std::unique_ptr<SearchTree>> trees_;  // reused from call to call, one per position
  EvaluationBatch batch_;
};

}  // namespace quax
