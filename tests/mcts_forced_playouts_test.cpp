// Forced playouts and policy target pruning (KataGo): in self-play searches every root child
// gets its forced visits, and the pruned policy target is still a probability distribution
// over legal moves that only takes visits away from the moves the search did not prefer.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "env/game_state.h"
#include "mcts/search_agent.h"
#include "mcts/search_tree.h"

namespace quax {
namespace {

// A confident network: one action far above the rest; values spread over [-0.9, 0.9] by a
// hash of the position, so that the search prefers some moves and neglects others.
class PeakedEvaluator final : public Evaluator {
 public:
  explicit PeakedEvaluator(int favourite) : favourite_(favourite) {}
  void evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*, float* logits,
                float* values) override {
    for (size_t i = 0; i < states.size(); ++i) {
      const int a = states[i]->num_actions();
      for (int j = 0; j < a; ++j) logits[i * a + j] = j == favourite_ ? 4.0f : 0.0f;
      const size_t h = std::hash<std::string>()(states[i]->board_text());
      values[i] = static_cast<float>(h % 1801) / 1000.0f - 0.9f;
    }
  }

 private:
  int favourite_;
};

struct Searched {
  std::unique_ptr<SearchTree> tree;
  std::unique_ptr<GameState> root;
};

Searched search_start(float k, bool noise, uint64_t seed) {
  const GameSpec spec{Variant::kQuax, 5, false};
  Searched out{std::make_unique<SearchTree>(spec), new_game(spec)};
  out.tree->set_root(*out.root);
  SearchSettings s;
  s.simulations = 600;
  s.dirichlet_fraction = 0.25f;
  s.forced_playouts_k = k;
  PeakedEvaluator ev(12);
  Rng rng(seed);
  EvaluationBatch batch;
  run_search(*out.tree, ev, s, noise, rng, &batch);
  return out;
}

// Root children below floor(sqrt(k * prior * total)) visits.
int children_short_of_forced(const SearchTree& tree, float k) {
  const auto& root = tree.root();
  int short_of = 0;
  for (int i = 0; i < root.num_children; ++i) {
    const auto& c = tree.node(root.first_child + i);
    if (c.visits < std::floor(std::sqrt(k * c.prior * (root.visits - 1)))) ++short_of;
  }
  return short_of;
}

TEST(ForcedPlayouts, EveryRootChildGetsItsForcedVisits) {
  for (uint64_t seed : {1, 2, 3}) {
    const auto forced = search_start(2.0f, true, seed);
    EXPECT_EQ(children_short_of_forced(*forced.tree, 2.0f), 0) << "seed " << seed;
    // The same search without forcing starves some children: the check above can fail.
    const auto plain = search_start(0.0f, true, seed);
    EXPECT_GT(children_short_of_forced(*plain.tree, 2.0f), 0) << "seed " << seed;
  }
}

TEST(ForcedPlayouts, PrunedTargetIsAValidPolicyThatKeepsTheBestMove) {
  for (uint64_t seed : {4, 5, 6}) {
    const auto s = search_start(2.0f, true, seed);
    const SearchTree& tree = *s.tree;
    std::vector<std::pair<int, float>> target;
    tree.policy_target(&target);
    std::vector<uint8_t> mask(s.root->num_actions());
    s.root->net_legal_mask(mask.data());
    double sum = 0;
    for (size_t i = 0; i < target.size(); ++i) {
      EXPECT_GT(target[i].second, 0.0f);
      EXPECT_TRUE(mask[target[i].first]) << "illegal action " << target[i].first;
      if (i > 0) {
        EXPECT_LT(target[i - 1].first, target[i].first);
      }
      sum += target[i].second;
    }
    EXPECT_NEAR(sum, 1.0, 1e-5);
    // Visit shares before pruning; the most visited child's share can only grow, and every
    // other child's pruned count is at most its visits (shares scaled by the new total).
    const auto& root = tree.root();
    int best = 0;
    double total = 0, kept_total = 0;
    for (int i = 0; i < root.num_children; ++i) {
      const auto& c = tree.node(root.first_child + i);
      total += c.visits;
      if (c.visits > tree.node(root.first_child + best).visits) best = i;
    }
    const auto& top = tree.node(root.first_child + best);
    const int top_net = s.root->to_net_action(top.action);
    float top_share = 0;
    for (const auto& [a, p] : target)
      if (a == top_net) top_share = p;
    kept_total = top.visits / top_share;  // the pruned total
    EXPECT_GE(top_share, top.visits / total);
    EXPECT_LT(kept_total, total);  // something was pruned
    for (int i = 0; i < root.num_children; ++i) {
      const auto& c = tree.node(root.first_child + i);
      const int net = s.root->to_net_action(c.action);
      for (const auto& [a, p] : target) {
        if (a != net) continue;
        EXPECT_LE(p * kept_total, c.visits + 1e-3);
        EXPECT_GT(p * kept_total, 1.5);  // children left with one visit are dropped
      }
    }
  }
}

TEST(ForcedPlayouts, OffWithoutNoise) {
  // Evaluation searches (no root noise) neither force nor prune, whatever k says.
  const auto with_k = search_start(2.0f, false, 9), without = search_start(0.0f, false, 9);
  std::vector<std::pair<int, float>> a, b;
  with_k.tree->policy_target(&a);
  without.tree->policy_target(&b);
  EXPECT_EQ(a, b);
  const auto& root = with_k.tree->root();
  double total = 0;
  for (int i = 0; i < root.num_children; ++i) total += with_k.tree->node(root.first_child + i).visits;
  for (int i = 0; i < root.num_children; ++i) {
    const auto& c = with_k.tree->node(root.first_child + i);
    for (const auto& [act, p] : a) {
      if (act == with_k.root->to_net_action(c.action)) {
        EXPECT_FLOAT_EQ(p, static_cast<float>(c.visits / total));
      }
    }
  }
}

}  // namespace
}  // namespace quax
