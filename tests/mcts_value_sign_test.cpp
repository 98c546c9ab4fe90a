// The value convention (mcts/evaluator.h): evaluators and records give values for the player
// to move; a search tree's nodes keep theirs for the player who chose them. An evaluator that
// always says "Black is ahead by 0.5" makes every sign visible: each value must be +0.5 when
// its player is Black and -0.5 when White, at every depth, also in Stymie and QuikQuax, where
// one player takes two actions in a row (a flip per ply is caught there).
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

#include "mcts/search_agent.h"
#include "mcts/selfplay_driver.h"
#include "random_plies.h"

namespace quax {
namespace {

constexpr float kBlackLead = 0.5f;

float lead_for(Player p) { return p == Player::kBlack ? kBlackLead : -kBlackLead; }

// Flat policy; value kBlackLead for Black, so -kBlackLead when White is to move.
class BlackLeadsEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*, float* logits,
                float* values) override {
    const int a = states[0]->num_actions();
    for (size_t b = 0; b < states.size(); ++b) {
      std::fill(logits + b * a, logits + (b + 1) * a, 0.0f);
      values[b] = lead_for(states[b]->to_move());
    }
  }
  bool needs_planes() const override { return false; }
};

struct Case {
  Variant variant;
  int size;
  RootRule rule;
  int plies;  // random plies before the root, so both colours get to be the root's mover
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << variant_info(c.variant).name << ' ' << c.size << (c.rule == RootRule::kGumbel ? " gumbel" : " puct") << " after "
      << c.plies << " plies";
}

std::string case_name(const testing::TestParamInfo<Case>& info) {
  return std::string(variant_info(info.param.variant).name) + std::to_string(info.param.size) +
         (info.param.rule == RootRule::kGumbel ? "Gumbel" : "Puct") + std::to_string(info.param.plies) + "Plies";
}

class ValueSign : public testing::TestWithParam<Case> {};

TEST_P(ValueSign, EveryValueBelongsToTheRightPlayer) {
  const Case& c = GetParam();
  const GameSpec spec{c.variant, c.size, false};
  auto root = after_random_plies(spec, c.plies, 5);
  ASSERT_FALSE(root->is_over());
  SearchSettings s;
  s.root_rule = c.rule;
  s.simulations = 96;
  s.leaves_per_batch = 4;
  s.gumbel_m = 8;
  SearchTree tree(spec);
  tree.set_root(*root);
  BlackLeadsEvaluator ev;
  EvaluationBatch batch;
  Rng rng(5);
  run_search(tree, ev, s, false, rng, &batch);
  // Exact terminal values would mix in values of another size: none must be met.
  ASSERT_EQ(tree.terminal_hits(), 0);

  EXPECT_NEAR(tree.root_value(), lead_for(root->to_move()), 1e-5);
  // Every expanded node below the root, by depth-first walk with its chooser.
  int checked = 0, same_player_again = 0;
  std::vector<std::pair<int, int8_t>> stack{{0, tree.root().to_move}};
  while (!stack.empty()) {
    const auto [n, chooser] = stack.back();
    stack.pop_back();
    const SearchTree::Node& node = tree.node(n);
    if (node.visits == 0) continue;
    const float expected = lead_for(static_cast<Player>(chooser));
    EXPECT_NEAR(node.value_sum / node.visits, expected, 1e-5) << "node " << n;
    if (node.status == SearchTree::kExpanded) {
      EXPECT_NEAR(node.raw_value, expected, 1e-6) << "node " << n;
      if (n != 0 && node.to_move == chooser) ++same_player_again;
      for (int i = 0; i < node.num_children; ++i) stack.emplace_back(node.first_child + i, node.to_move);
    }
    ++checked;
  }
  EXPECT_GT(checked, 20);
  if (c.variant == Variant::kStymie || c.variant == Variant::kQuikQuax) {
    EXPECT_GT(same_player_again, 0) << "no turn of two actions was searched";
  }
}

INSTANTIATE_TEST_SUITE_P(Trees, ValueSign,
                         testing::Values(Case{Variant::kQuax, 7, RootRule::kPuct, 0},
                                         Case{Variant::kQuax, 7, RootRule::kPuct, 1},
                                         Case{Variant::kQuax, 7, RootRule::kGumbel, 0},
                                         Case{Variant::kQuax, 7, RootRule::kGumbel, 1},
                                         Case{Variant::kStymie, 5, RootRule::kPuct, 0},
                                         Case{Variant::kStymie, 5, RootRule::kGumbel, 2},
                                         Case{Variant::kQuikQuax, 6, RootRule::kPuct, 0}),
                         case_name);

// The records: MoveRecord::root_value is for the mover, whichever colour it is.
TEST(ValueSign, RecordsGiveTheMoversValue) {
  for (RootRule rule : {RootRule::kPuct, RootRule::kGumbel}) {
    DriverOptions o;
    o.spec = {Variant::kQuax, 7, false};
    o.parallel_games = 2;
    o.games_to_play = 2;
    o.players[0].search.root_rule = rule;
    o.players[0].search.simulations = 32;
    o.players[0].search.gumbel_m = 8;
    o.players[0].temperature_moves = 6;
    BlackLeadsEvaluator ev;
    GameDriver driver(o, {&ev});
    int checked = 0;
    driver.run(2, [&](GameRecord&& g) {
      // Early moves only: later searches meet finished games, whose values are exact.
      for (size_t i = 0; i < 6 && i < g.moves.size(); ++i) {
        EXPECT_NEAR(g.moves[i].root_value, lead_for(g.moves[i].mover), 1e-5) << "move " << i;
        ++checked;
      }
    });
    EXPECT_EQ(checked, 12);
  }
}

}  // namespace
}  // namespace quax
