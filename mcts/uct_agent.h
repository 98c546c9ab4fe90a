// Plain UCT (Kocsis and Szepesvari 2006): UCB1 selection, one node added per playout,
// uniformly random rollouts, no network. The yardstick `uct:<playouts>`.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "mcts/agent.h"

namespace quax {

class UctAgent final : public Agent {
 public:
  // exploration: the UCB1 constant on win rates in [0, 1] (sqrt(2) is the textbook value;
  // smaller values suit connection games with few playouts).
  UctAgent(int playouts, uint64_t seed, double exploration = 1.0);
  std::string name() const override;
  int choose_action(const GameState& state) override;
  // Root visit count of each child of the last search (for tests): (action, visits).
  std::vector<std::pair<int, int>> last_root_visits() const;
  // Frees the tree of the last search (last_root_visits() is then empty).
  void reset() override { nodes_ = {}; }

 private:
  struct Node {
    double wins = 0.0;        // for the player who chose this node; a draw counts 1/2
    int32_t visits = 0;
    int32_t first_child = -1;
    int16_t num_children = 0;
    int16_t tried = 0;        // children visited so far (they come first, in shuffled order)
    int16_t action = -1;
    int8_t to_move = -1;
  };
  void expand(int node, const GameState& state);

  int playouts_;
  double exploration_;
  Rng rng_;
  std::vector<Node> nodes_;
  std::vector<int32_t> path_;
  std::vector<int> legal_;
  std::vector<uint8_t> mask_;
  std::unique_ptr<GameState> scratch_;
};

}  // namespace quax
