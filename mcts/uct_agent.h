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
  // What the last search found at each child of its root: the rollout statistics that the
  // Python analysis and the tests read. q is the mean rollout result for the player to move at
  // the root (win +1, draw 0, loss -1), as a search tree's RootChild::q is; NaN when the child
  // was never visited. Empty before any search and after reset().
  struct RootChild {
    int action;
    int visits;
    float q;
  };
  std::vector<RootChild> last_root_children() const;
  // The mean rollout result of the last search for the player to move at its root, in
  // [-1, 1] (the visit-weighted mean of the children's q); NaN before any search and after
  // reset().
  float last_root_value() const;
  // Agent's view of the same: last_root_value() (nullopt where it is NaN), and the children's visits.
  std::optional<double> last_value() const override;
  std::vector<std::pair<int, int>> last_root_visits() const override;
  // Frees the tree of the last search (last_root_children() is then empty).
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
  // A child's win rate for its chooser (the root's mover at the root) as a value in [-1, 1].
  static float value_of(const Node& node) { return static_cast<float>(2.0 * node.wins / node.visits - 1.0); }

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
