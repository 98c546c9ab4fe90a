// Baseline players: the factory's names, and that UCT gets stronger with playouts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

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

// The one reader of baseline descriptions: kind and count, the bounds, and what it refuses.
TEST(BaselineAgents, DescriptionsReadToAKindAndACount) {
  std::string err;
  const auto uct = parse_baseline("uct:300", &err);
  ASSERT_TRUE(uct) << err;
  EXPECT_EQ(uct->kind, BaselinePlayer::Kind::kUct);
  EXPECT_EQ(uct->count, 300);
  const auto mcts = parse_baseline("mcts:100000000", &err);
  ASSERT_TRUE(mcts) << err;
  EXPECT_EQ(mcts->kind, BaselinePlayer::Kind::kMcts);
  EXPECT_EQ(mcts->count, 100000000);
  const auto random = parse_baseline("random", &err);
  ASSERT_TRUE(random);
  EXPECT_EQ(random->kind, BaselinePlayer::Kind::kRandom);
  EXPECT_FALSE(parse_baseline("mcts:100000001", &err));
  EXPECT_EQ(err, "bad player 'mcts:100000001': expected a count from 1 to 100000000 after ':'");
  EXPECT_FALSE(parse_baseline("model.pt", &err));
  EXPECT_EQ(err, "unknown player 'model.pt' (known: random, uct:<playouts>, mcts:<simulations>)");
  // Written as a baseline, even when malformed: its error is the baseline's, not a model file's.
  for (const char* text : {"random", "uct:x", "mcts:"}) EXPECT_TRUE(names_baseline(text)) << text;
  for (const char* text : {"randomly.pt", "m.pt:sims=5", "mcts.pt"}) EXPECT_FALSE(names_baseline(text)) << text;
}

TEST(UctAgent, RootVisitsSumToThePlayouts) {
  UctAgent agent(300, 4);
  auto state = new_game({Variant::kLink, 6, false});
  agent.choose_action(*state);
  int sum = 0;
  for (const auto& c : agent.last_root_children()) sum += c.visits;
  EXPECT_EQ(sum, 300);
}

// A position one move from a win for the player to move, whose one winning cell also wins
// for the opponent: Black to move with c1-c4 (c5 wins; White has a5 b5 d5 e5), or White to move
// with a1-d1 (e1 wins; Black has e2-e5). The rollout statistics must say so from the mover's
// side, whichever colour it is: the winning child's q is exactly +1 (every playout through it
// is a win), the root value is positive, every q lies in [-1, 1].
TEST(UctAgent, RootValuesAreTheMoversRolloutResults) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"c1", "a5", "c2", "b5", "c3", "d5", "c4", "e5"}, "c5"},
      {{"e2", "a1", "e3", "b1", "e4", "c1", "e5", "d1", "b4"}, "e1"}};
  for (const auto& [moves, winning] : cases) {
    auto state = new_game({Variant::kQuax, 5, false});
    std::string error;
    for (const auto& m : moves) {
      const int a = state->parse_action(m, &error);
      ASSERT_GE(a, 0) << m << ": " << error;
      state->apply(a);
    }
    const int win = state->parse_action(winning, &error);
    ASSERT_GE(win, 0) << error;
    UctAgent agent(2000, 9);
    EXPECT_EQ(agent.choose_action(*state), win) << winning;
    bool saw_win = false;
    for (const auto& c : agent.last_root_children()) {
      if (c.visits == 0) {
        EXPECT_TRUE(std::isnan(c.q));
        continue;
      }
      EXPECT_GE(c.q, -1.0f);
      EXPECT_LE(c.q, 1.0f);
      if (c.action == win) {
        EXPECT_EQ(c.q, 1.0f) << winning;
        saw_win = true;
      }
    }
    EXPECT_TRUE(saw_win);
    EXPECT_GT(agent.last_root_value(), 0.0f) << winning;
    EXPECT_LE(agent.last_root_value(), 1.0f);
  }
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
  ASSERT_FALSE(agent.last_root_children().empty());
  agent.reset();
  EXPECT_TRUE(agent.last_root_children().empty());
  EXPECT_TRUE(std::isnan(agent.last_root_value()));
  EXPECT_TRUE(state->is_legal(agent.choose_action(*state)));
}

// What a search reports through Agent (the balance lab reads uct:N and mcts:N so): the root's
// value for the player to move and the visits of each root child; none before the first move
// and after reset(), none ever from random.
TEST(BaselineAgents, ReportTheirRootThroughAgent) {
  std::string err;
  auto state = new_game({Variant::kHex, 4, false});
  for (const char* name : {"uct:300", "mcts:300"}) {
    auto agent = make_baseline_agent(name, 5, &err);
    ASSERT_TRUE(agent) << err;
    EXPECT_FALSE(agent->last_value()) << name;
    EXPECT_TRUE(agent->last_root_visits().empty()) << name;
    const int chosen = agent->choose_action(*state);
    ASSERT_TRUE(agent->last_value()) << name;
    EXPECT_GE(*agent->last_value(), -1.0);
    EXPECT_LE(*agent->last_value(), 1.0);
    int sum = 0, most = -1, most_visits = -1, next_visits = 0;
    for (const auto& [action, visits] : agent->last_root_visits()) {
      EXPECT_TRUE(state->is_legal(action)) << name << " " << action;
      sum += visits;
      if (visits > most_visits) next_visits = std::max(next_visits, most_visits), most_visits = visits, most = action;
      else next_visits = std::max(next_visits, visits);
    }
    EXPECT_EQ(agent->last_root_visits().size(), 16u) << name;
    // UCT counts every playout at one root child; PUCT's first simulation is the root's own,
    // and PUCT stops once the rest of its budget could not change the move.
    EXPECT_TRUE(sum >= 299 || most_visits - next_visits > 300 - sum) << name << ": " << sum << " visits";
    EXPECT_LE(sum, 300) << name;
    EXPECT_EQ(chosen, most) << name;  // the move played is the most visited
    agent->reset();
    EXPECT_TRUE(agent->last_root_visits().empty()) << name;
  }
  auto uct = std::make_unique<UctAgent>(300, 5);
  uct->choose_action(*state);
  EXPECT_FLOAT_EQ(static_cast<float>(*uct->last_value()), uct->last_root_value());
  auto random = make_baseline_agent("random", 1, &err);
  random->choose_action(*state);
  EXPECT_FALSE(random->last_value());
  EXPECT_TRUE(random->last_root_visits().empty());
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
