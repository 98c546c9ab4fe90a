// Baseline players: the factory's names, and that UCT gets stronger with playouts.
#include <gtest/gtest.h>

#include "mcts/baseline_agents.h"
#include "mcts/search_agent.h"
#include "mcts/uct_agent.h"

namespace quax {
namespace {

TEST(BaselineAgents, FactoryAcceptsTheDocumentedNames) {
  std::string err;
  for (const char* name : {"random", "uct:10", "mcts:20"}) {
    auto agent = make_baseline_agent(name, 1, &err);
    ASSERT_TRUE(agent) << name << ": " << err;
    EXPECT_EQ(agent->name(), name);
    auto state = new_game({Variant::kQuax, 5, true});
    EXPECT_TRUE(state->is_legal(agent->choose_action(*state)));
  }
  for (const char* bad : {"uct:", "uct:0", "uct:x", "mcts:-3", "alphago", "uct:1000000000000"}) {
    EXPECT_FALSE(make_baseline_agent(bad, 1, &err)) << bad;
    EXPECT_NE(err.find(bad), std::string::npos) << err;
  }
}

TEST(UctAgent, RootVisitsSumToThePlayouts) {
  UctAgent agent(300, 4);
  auto state = new_game({Variant::kLink, 6, false});
  agent.choose_action(*state);
  int sum = 0;
  for (const auto& [a, v] : agent.last_root_visits()) sum += v;
  EXPECT_EQ(sum, 300);
}

// reset() frees the tree of the last move: `quax serve` resets a game's engine after each
// move, so that a game waiting for its human holds no tree (its memory budget counts a tree
// during the move only).
TEST(SearchAgent, ResetFreesTheTree) {
  SearchSettings settings;
  settings.simulations = 50;
  SearchAgent agent("mcts:50", make_mcts_baseline_evaluator(3), settings, 3);
  auto state = new_game({Variant::kQuax, 7, false});
  agent.choose_action(*state);
  ASSERT_NE(agent.last_tree(), nullptr);
  EXPECT_GT(agent.last_tree()->tree_size(), 50);
  agent.reset();
  EXPECT_EQ(agent.last_tree(), nullptr);
  EXPECT_TRUE(state->is_legal(agent.choose_action(*state)));  // and plays on
}

TEST(UctAgent, ResetFreesTheTree) {
  UctAgent agent(200, 4);
  auto state = new_game({Variant::kQuax, 7, false});
  agent.choose_action(*state);
  ASSERT_FALSE(agent.last_root_visits().empty());
  agent.reset();
  EXPECT_TRUE(agent.last_root_visits().empty());
  EXPECT_TRUE(state->is_legal(agent.choose_action(*state)));
}

// The yardstick: uct:1000 beats uct:50 in at least 80% of 40 colour-balanced games
// on 5x5 quax (about 1-2 s).
TEST(UctAgent, ThousandPlayoutsBeatFifty) {
  int strong_wins = 0;
  for (int g = 0; g < 40; ++g) {
    UctAgent strong(1000, 100 + g), weak(50, 200 + g);
    const Player strong_colour = g % 2 == 0 ? Player::kBlack : Player::kWhite;
    auto state = new_game({Variant::kQuax, 5, true});
    while (!state->is_over()) {
      Agent& a = state->to_move() == strong_colour ? static_cast<Agent&>(strong) : static_cast<Agent&>(weak);
      state->apply(a.choose_action(*state));
    }
    if (winner_of(state->outcome()) == strong_colour) ++strong_wins;
  }
  EXPECT_GE(strong_wins, 32) << strong_wins << "/40";
  RecordProperty("strong_wins", strong_wins);
}

}  // namespace
}  // namespace quax
