// Evaluators that return NaN or infinite priors and values (a diverged or damaged model):
// the search must still end within its budget (simulations or time) with a legal move, a
// policy target that is a probability distribution over legal actions and a finite value;
// self-play games must still finish. A timed search must also end in time when every
// selection ends at a finished game (a solved position), where no evaluator call happens.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <tuple>

#include "mcts/search_agent.h"
#include "mcts/search_tree.h"
#include "mcts/selfplay_driver.h"
#include "mcts/simple_evaluators.h"
#include "random_plies.h"
#include "watchdog.h"

namespace quax {
namespace {

using Clock = std::chrono::steady_clock;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Policy logits and values of a broken network: `bad_logit` on every action and
// `bad_value` for every `every`-th position evaluated (the others get a flat policy and
// value 0).
class BrokenEvaluator final : public Evaluator {
 public:
  BrokenEvaluator(float bad_logit, float bad_value, int every = 1)
      : bad_logit_(bad_logit), bad_value_(bad_value), every_(every) {}
  void evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*, float* logits,
                float* values) override {
    const size_t a = static_cast<size_t>(states[0]->num_actions());
    for (size_t i = 0; i < states.size(); ++i, ++count_) {
      const bool bad = count_ % every_ == 0;
      std::fill(logits + i * a, logits + (i + 1) * a, bad ? bad_logit_ : 0.0f);
      values[i] = bad ? bad_value_ : 0.0f;
    }
  }
  bool needs_planes() const override { return false; }

 private:
  float bad_logit_, bad_value_;
  int every_;
  int64_t count_ = 0;
};

struct Broken {
  const char* name;
  float logit, value;
  int every;
};
const Broken kBroken[] = {
    {"nan", kNaN, kNaN, 1},       {"inf", kInf, kInf, 1},         {"minus_inf", -kInf, -kInf, 1},
    {"some_nan", kNaN, kNaN, 3},  {"some_inf", kInf, -kInf, 2},
};

std::unique_ptr<GameState> midgame(const GameSpec& spec, int plies, uint64_t seed) {
  auto s = after_random_plies(spec, plies, seed);
  EXPECT_FALSE(s->is_over());
  return s;
}

// The root's policy target is a probability distribution over legal actions.
void expect_valid_policy(const SearchTree& tree) {
  std::vector<std::pair<int, float>> policy;
  tree.policy_target(&policy);
  ASSERT_FALSE(policy.empty());
  const GameState& root = tree.root_state();
  std::vector<uint8_t> legal(root.num_actions());
  root.legal_mask(legal.data());
  double total = 0.0;
  for (const auto& [net, p] : policy) {
    EXPECT_TRUE(std::isfinite(p)) << "action " << net;
    EXPECT_GE(p, 0.0f);
    EXPECT_TRUE(legal[root.from_net_action(net)]) << "policy on an illegal action";
    total += p;
  }
  EXPECT_NEAR(total, 1.0, 1e-4);
  const float v = tree.root_value();
  EXPECT_TRUE(std::isfinite(v));
  EXPECT_LE(std::fabs(v), 1.0f);
}

class BrokenSearch : public ::testing::TestWithParam<std::tuple<Broken, RootRule, int>> {};

TEST_P(BrokenSearch, SimulationBudgetEndsWithALegalMoveAndAValidPolicy) {
  const auto [broken, rule, leaves] = GetParam();
  const GameSpec spec{Variant::kQuax, 5, true};
  for (int plies : {0, 5}) {
    auto state = midgame(spec, plies, 11);
    SearchSettings s;
    s.root_rule = rule;
    s.simulations = 64;
    s.leaves_per_batch = leaves;
    s.gumbel_m = 8;
    SearchAgent agent("broken", std::make_shared<BrokenEvaluator>(broken.logit, broken.value, broken.every), s, 3);
    const int action = within(20, "a search on a broken evaluator", [&] { return agent.choose_action(*state); });
    EXPECT_TRUE(state->is_legal(action));
    const SearchTree& tree = *agent.last_tree();
    EXPECT_EQ(tree.simulations_done(), s.simulations);
    EXPECT_GT(tree.nonfinite_evaluations(), 0);
    expect_valid_policy(tree);
  }
}

INSTANTIATE_TEST_SUITE_P(Evaluators, BrokenSearch,
                         ::testing::Combine(::testing::ValuesIn(kBroken),
                                            ::testing::Values(RootRule::kPuct, RootRule::kGumbel),
                                            ::testing::Values(1, 4)),
                         [](const auto& info) {
                           return std::string(std::get<0>(info.param).name) +
                                  (std::get<1>(info.param) == RootRule::kPuct ? "_puct_" : "_gumbel_") +
                                  std::to_string(std::get<2>(info.param));
                         });

// A timed search returns within its time plus one evaluator call (these are instant) and
// a little scheduling slack on a loaded machine.
constexpr double kSeconds = 0.3, kSlack = 0.7;

TEST(BrokenSearch, TimedSearchEndsWithinItsTime) {
  const GameSpec spec{Variant::kQuax, 5, true};
  for (const Broken& broken : kBroken) {
    auto state = midgame(spec, 3, 5);
    SearchSettings s;
    s.leaves_per_batch = 4;
    SearchAgent agent("broken", std::make_shared<BrokenEvaluator>(broken.logit, broken.value, broken.every), s, 3,
                      kSeconds);
    const auto t0 = Clock::now();
    const int action = within(20, "a timed search on a broken evaluator", [&] { return agent.choose_action(*state); });
    const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
    EXPECT_GE(elapsed, kSeconds) << broken.name;
    EXPECT_LT(elapsed, kSeconds + kSlack) << broken.name;
    EXPECT_TRUE(state->is_legal(action)) << broken.name;
    EXPECT_GT(agent.last_tree()->simulations_done(), 0) << broken.name;
    expect_valid_policy(*agent.last_tree());
  }
}

// A position of quax 3x3 where every legal move (at least two) ends the game: every
// selection of a search there ends at a finished game, so the evaluator is never called.
std::unique_ptr<GameState> every_move_ends_the_game() {
  const GameSpec spec{Variant::kQuax, 3, false};
  Rng rng(1);
  std::vector<int> legal;
  for (;;) {
    auto s = new_game(spec);
    while (!s->is_over()) {
      s->legal_actions(&legal);
      bool all_end = legal.size() >= 2;
      for (size_t i = 0; i < legal.size() && all_end; ++i) {
        auto next = s->clone();
        next->apply(legal[i]);
        all_end = next->is_over();
      }
      if (all_end) return s;
      s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
  }
}

// The clock must be read between terminal hits too: the search used to back up its whole
// (huge) budget of terminal hits in one collect() before looking at the time again.
TEST(TimedSearch, EndsWithinItsTimeWhenEverySelectionIsTerminal) {
  auto state = every_move_ends_the_game();
  SearchSettings s;
  SearchAgent agent("timed", std::make_shared<UniformEvaluator>(), s, 1, 0.05);
  const auto t0 = Clock::now();
  const int action = within(120, "a timed search of a solved position", [&] { return agent.choose_action(*state); });
  const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_LT(elapsed, 0.05 + 0.45);
  EXPECT_TRUE(state->is_legal(action));
  EXPECT_GT(agent.last_tree()->simulations_done(), 0);
  EXPECT_EQ(agent.last_tree()->terminal_hits(), agent.last_tree()->simulations_done());
}

TEST(TimedSearch, GumbelIsRefusedWithOneLine) {
  SearchSettings s;
  s.root_rule = RootRule::kGumbel;
  try {
    SearchAgent agent("timed", std::make_shared<UniformEvaluator>(), s, 1, 1.0);
    FAIL() << "accepted a time limit with Gumbel";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("PUCT only"), std::string::npos) << e.what();
  }
}

// Self-play on a broken evaluator: games end and their records are clean (a NaN written to
// a shard would poison the learner).
TEST(BrokenSelfplay, GamesFinishWithFiniteRecords) {
  for (RootRule rule : {RootRule::kPuct, RootRule::kGumbel}) {
    DriverOptions o;
    o.spec = {Variant::kQuax, 4, true};
    o.parallel_games = 3;
    o.games_to_play = 3;
    o.players[0].search.root_rule = rule;
    o.players[0].search.simulations = 16;
    o.players[0].search.leaves_per_batch = 2;
    o.players[0].search.dirichlet_fraction = 0.25f;
    o.players[0].search.gumbel_m = 4;
    o.players[0].temperature_moves = 4;
    o.players[0].record_policy = true;
    o.resign.enabled = true;
    BrokenEvaluator ev(kNaN, kNaN, 2);
    GameDriver driver(o, {&ev});
    std::vector<GameRecord> games;
    within(20, "self-play on a broken evaluator", [&] {
      driver.run(3, [&](GameRecord&& g) { games.push_back(std::move(g)); });
      return 0;
    });
    ASSERT_EQ(games.size(), 3u);
    for (const GameRecord& g : games) {
      auto state = new_game(g.spec);
      for (const MoveRecord& m : g.moves) {
        EXPECT_TRUE(std::isfinite(m.root_value));
        double total = 0.0;
        for (const auto& [net, p] : m.policy) total += p;
        EXPECT_NEAR(total, 1.0, 1e-4);
        ASSERT_TRUE(state->is_legal(m.action));
        state->apply(m.action);
      }
      EXPECT_TRUE(state->is_over() || g.resigned || g.truncated);
    }
  }
}

}  // namespace
}  // namespace quax
