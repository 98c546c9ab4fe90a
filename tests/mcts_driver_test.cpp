// The multi-game driver: records replay to their outcomes, policy targets are
// distributions over legal network-frame actions, options (playout cap, resignation,
// per-colour players) do what they say, and runs repeat exactly for a seed.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "mcts/search_agent.h"
#include "mcts/selfplay_driver.h"
#include "mcts/simple_evaluators.h"

namespace quax {
namespace {

// Counts positions and which player was to move in them.
class CountingEvaluator final : public Evaluator {
 public:
  explicit CountingEvaluator(bool planes) : planes_(planes) {}
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* logits, float* values) override {
    if (planes_) {
      EXPECT_NE(planes, nullptr);
    }
    const int a = states[0]->num_actions();
    std::vector<uint8_t> legal(a);
    for (size_t b = 0; b < states.size(); ++b) {
      EXPECT_FALSE(states[b]->is_over());
      movers.insert(states[b]->to_move());
      // The mask is the legal set in the network frame.
      states[b]->legal_mask(legal.data());
      for (int x = 0; x < a; ++x) EXPECT_EQ(masks[b * a + x], legal[states[b]->from_net_action(x)]);
    }
    max_batch = std::max(max_batch, static_cast<int>(states.size()));
    positions += static_cast<int>(states.size());
    inner.evaluate(states, planes, masks, logits, values);
  }
  bool needs_planes() const override { return planes_; }
  RolloutEvaluator inner{1, 3};
  std::set<Player> movers;
  int max_batch = 0;
  int positions = 0;

 private:
  bool planes_;
};

DriverOptions small_options(RootRule rule) {
  DriverOptions o;
  o.spec = {Variant::kQuax, 5, true};
  o.parallel_games = 6;
  o.games_to_play = 10;
  o.players[0].search.root_rule = rule;
  o.players[0].search.simulations = 24;
  o.players[0].search.leaves_per_batch = 4;
  o.players[0].search.dirichlet_fraction = 0.25f;
  o.players[0].search.gumbel_m = 8;
  o.players[0].temperature_moves = 4;
  o.players[0].record_policy = true;
  o.seed = 17;
  return o;
}

void check_record(const GameRecord& g) {
  auto state = new_game(g.spec);
  std::vector<uint8_t> legal(state->num_actions());
  for (const MoveRecord& m : g.moves) {
    ASSERT_FALSE(state->is_over());
    EXPECT_EQ(m.mover, state->to_move());
    if (m.full_search) {
      ASSERT_FALSE(m.policy.empty());
      double total = 0.0;
      state->legal_mask(legal.data());
      for (const auto& [net, p] : m.policy) {
        EXPECT_TRUE(legal[state->from_net_action(net)]) << "policy on an illegal action";
        total += p;
      }
      EXPECT_NEAR(total, 1.0, 1e-4);
    } else {
      EXPECT_TRUE(m.policy.empty());
    }
    EXPECT_GE(m.root_value, -1.0f);
    EXPECT_LE(m.root_value, 1.0f);
    ASSERT_TRUE(state->is_legal(m.action));
    state->apply(m.action);
  }
  if (g.resigned) {
    EXPECT_EQ(g.outcome, win_for(opponent(g.resigner)));
  } else if (!g.truncated) {
    EXPECT_EQ(state->outcome(), g.outcome);
  }
}

class DriverRules : public ::testing::TestWithParam<RootRule> {};

TEST_P(DriverRules, RecordsReplayAndRepeatForASeed) {
  const DriverOptions o = small_options(GetParam());
  std::vector<GameRecord> first, second;
  for (auto* out : {&first, &second}) {
    CountingEvaluator ev(true);
    GameDriver driver(o, {&ev});
    while (driver.step()) {
      for (auto& g : driver.take_finished()) out->push_back(std::move(g));
    }
    for (auto& g : driver.take_finished()) out->push_back(std::move(g));
    EXPECT_LE(ev.max_batch, o.parallel_games * o.players[0].search.leaves_per_batch);
    EXPECT_GT(ev.max_batch, o.parallel_games);  // virtual loss put several leaves per tree
    EXPECT_EQ(driver.stats().games_finished, o.games_to_play);
  }
  ASSERT_EQ(first.size(), 10u);
  std::set<int64_t> indices;
  for (size_t i = 0; i < first.size(); ++i) {
    check_record(first[i]);
    indices.insert(first[i].game_index);
    ASSERT_EQ(first[i].moves.size(), second[i].moves.size());
    for (size_t m = 0; m < first[i].moves.size(); ++m) {
      EXPECT_EQ(first[i].moves[m].action, second[i].moves[m].action);
      EXPECT_EQ(first[i].moves[m].policy, second[i].moves[m].policy);
    }
    for (const auto& m : first[i].moves) EXPECT_LE(m.simulations, o.players[0].search.simulations);
  }
  EXPECT_EQ(indices.size(), 10u);
}

INSTANTIATE_TEST_SUITE_P(Rules, DriverRules, ::testing::Values(RootRule::kPuct, RootRule::kGumbel));

TEST(Driver, PlayoutCapRandomizationMixesFullAndFastSearches) {
  DriverOptions o = small_options(RootRule::kPuct);
  o.players[0].full_search_fraction = 0.25f;
  o.players[0].fast_simulations = 5;
  UniformEvaluator ev;
  GameDriver driver(o, {&ev});
  int full = 0, fast = 0;
  driver.run(10, [&](GameRecord&& g) {
    check_record(g);
    for (const auto& m : g.moves) {
      if (m.full_search) {
        ++full;
      } else {
        ++fast;
        EXPECT_LE(m.simulations, 5);  // new simulations; a reused subtree may bring more visits
      }
    }
  });
  EXPECT_GT(fast, full);  // about 3 fast moves for each full one
  EXPECT_GT(full, 0);
}

// Where a resignation must happen in a game, replayed from its records: the first move at
// which a player's root value has stayed below the threshold for `consecutive` of its own
// moves in a row (moves before min_moves not counted). Returns that move's index (-1: none)
// and sets *low_at_end to each player's run of low values after the last recorded move.
int first_resignation_point(const GameRecord& g, const ResignSettings& rs, int low_at_end[2]) {
  auto state = new_game(g.spec);
  int low[2] = {0, 0};
  int first = -1;
  for (size_t i = 0; i < g.moves.size(); ++i) {
    const MoveRecord& m = g.moves[i];
    if (state->move_number() >= rs.min_moves) {
      int& run = low[index_of(m.mover)];
      run = m.root_value < rs.threshold ? run + 1 : 0;
      if (run >= rs.consecutive && first < 0) first = static_cast<int>(i);
    }
    state->apply(m.action);
  }
  low_at_end[0] = low[0];
  low_at_end[1] = low[1];
  return first;
}

// Resignation happens exactly when the resigner's value stayed below the threshold for the
// configured number of its own moves, never earlier or later, never in games chosen to be
// played out (which record where it would have happened), and never when it is off.
TEST(Driver, ResignationHappensExactlyWhenTheValueStaysLowLongEnough) {
  DriverOptions o = small_options(RootRule::kPuct);
  o.games_to_play = 60;
  o.resign.enabled = true;
  o.resign.threshold = -0.4f;
  o.resign.consecutive = 2;
  o.resign.min_moves = 8;
  o.resign.playout_fraction = 0.3f;
  const ResignSettings& rs = o.resign;
  RolloutEvaluator ev(4, 5);
  GameDriver driver(o, {&ev});
  int resigned = 0, played_out = 0, would = 0, played_to_the_end = 0;
  driver.run(o.games_to_play, [&](GameRecord&& g) {
    check_record(g);
    int low[2];
    const int first = first_resignation_point(g, rs, low);
    if (g.resign_disabled) {
      ++played_out;
      EXPECT_FALSE(g.resigned);
      EXPECT_EQ(g.would_have_resigned, first >= 0);
      if (first >= 0) {
        ++would;
        EXPECT_EQ(g.would_resign_move, first);
        EXPECT_EQ(g.would_resign_player, g.moves[first].mover);
      }
    } else if (g.resigned) {
      ++resigned;
      // Not earlier: no run was complete before the last position ...
      EXPECT_EQ(first, -1) << "game " << g.game_index << " should have ended at move " << first;
      // ... and not sooner than the run allows: the resigner is to move there (its search's
      // value is not recorded) after consecutive - 1 low moves of its own, past min_moves.
      auto state = new_game(g.spec);
      for (const auto& m : g.moves) state->apply(m.action);
      EXPECT_EQ(state->to_move(), g.resigner);
      EXPECT_GE(low[index_of(g.resigner)], rs.consecutive - 1) << "game " << g.game_index;
      EXPECT_GE(state->move_number(), rs.min_moves);
    } else {
      ++played_to_the_end;
      EXPECT_EQ(first, -1) << "game " << g.game_index << " should have been resigned at move " << first;
    }
  });
  EXPECT_GT(resigned, 0);
  EXPECT_GT(played_out, 0);
  EXPECT_GT(would, 0);
  EXPECT_GT(played_to_the_end, 0);

  // Off: the same games are played out with no resignation fields set.
  o.resign.enabled = false;
  GameDriver off(o, {&ev});
  off.run(20, [&](GameRecord&& g) {
    check_record(g);
    EXPECT_FALSE(g.resigned || g.resign_disabled || g.would_have_resigned);
  });
}

TEST(Driver, EachColourUsesItsOwnPlayerAndEvaluator) {
  DriverOptions o = small_options(RootRule::kPuct);
  o.players.resize(2);
  o.players[1] = o.players[0];
  o.players[1].evaluator = 1;
  o.players[1].search.simulations = 8;
  o.players[0].search.reuse_tree = o.players[1].search.reuse_tree = false;  // exact budgets per move
  // Player 0 (24 simulations, evaluator 0) is always black, player 1 (8, evaluator 1) white.
  o.seats_for_game = [](int64_t) { return std::make_pair(0, 1); };
  CountingEvaluator black(false), white(false);
  GameDriver driver(o, {&black, &white});
  int black_moves = 0, white_moves = 0;
  driver.run(10, [&](GameRecord&& g) {
    check_record(g);
    EXPECT_EQ(g.seats, std::make_pair(0, 1));
    for (const auto& m : g.moves) {
      EXPECT_EQ(m.simulations, m.mover == Player::kBlack ? 24 : 8);
      ++(m.mover == Player::kBlack ? black_moves : white_moves);
    }
  });
  // Each search asks its own evaluator: at most one root evaluation plus one per simulation.
  EXPECT_LE(black.positions, black_moves * 25);
  EXPECT_LE(white.positions, white_moves * 9);
  EXPECT_GT(black.positions, black_moves * 9);
  EXPECT_GT(white.positions, 0);
}

TEST(Driver, BadOptionsAreRefusedWithTheFieldNamed) {
  DriverOptions o = small_options(RootRule::kPuct);
  UniformEvaluator ev;
  o.players[0].evaluator = 2;
  try {
    GameDriver d(o, {&ev});
    FAIL() << "accepted an evaluator index out of range";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("evaluator index 2"), std::string::npos) << e.what();
  }
  o.players[0].evaluator = 0;
  o.players[0].search.simulations = 0;
  EXPECT_THROW(GameDriver(o, {&ev}), std::invalid_argument);
}

}  // namespace
}  // namespace quax

namespace quax {
namespace {

// Growing simulations (selfplay.simulations_schedule): a new count applies to the searches
// that start after it, in every game in flight, and bad counts are refused.
TEST(Driver, SetSimulationsAppliesToTheNextSearches) {
  DriverOptions o = small_options(RootRule::kPuct);
  o.players[0].search.reuse_tree = false;
  o.games_to_play = -1;
  UniformEvaluator uniform;
  GameDriver driver(o, {&uniform});
  for (int i = 0; i < 40; ++i) driver.step();
  driver.set_simulations(0, 5);
  // Searches under way finish with their 24; every move of a game started from here spends 5.
  std::vector<GameRecord> later;
  std::set<int> spent_before;
  for (int i = 0; i < 4000 && later.size() < 6; ++i) {
    driver.step();
    for (auto& g : driver.take_finished()) {
      if (g.moves.empty() || g.moves.front().simulations != 5) {
        for (const auto& m : g.moves) spent_before.insert(m.simulations);
        continue;
      }
      later.push_back(std::move(g));
    }
  }
  ASSERT_GE(later.size(), 6u);
  for (const auto& g : later)
    for (const auto& m : g.moves) EXPECT_LE(m.simulations, 5);
  EXPECT_TRUE(spent_before.count(24)) << "the games in flight did not keep their first budget";
  EXPECT_THROW(driver.set_simulations(0, 0), std::invalid_argument);
  EXPECT_THROW(driver.set_simulations(1, 8), std::invalid_argument);
}

// Torax's first turn is several blocks of one seat. Counted in plies, one sampled move is
// the first block alone: the second action is a function of the first (the arena's torax
// games repeated each other that way). Counted in turns, the whole first turn is sampled,
// and the first action of the second seat's turn is the search's best again.
TEST(Driver, TemperatureCountedInTurnsSamplesAWholeTurnOfSeveralActions) {
  for (const bool by_turns : {false, true}) {
    DriverOptions o;
    o.spec = {Variant::kTorax, 5, false};
    o.parallel_games = 10;
    o.games_to_play = 40;
    o.players[0].search.simulations = 64;
    o.players[0].search.dirichlet_fraction = 0;
    o.players[0].search.reuse_tree = false;
    o.players[0].temperature_moves = 1;
    o.players[0].temperature_counts_turns = by_turns;
    o.max_moves = 12;  // the auction is all this test looks at
    o.seed = 5;
    UniformEvaluator uniform;
    GameDriver driver(o, {&uniform});
    std::vector<GameRecord> games;
    while (driver.step())
      for (auto& g : driver.take_finished()) games.push_back(std::move(g));
    for (auto& g : driver.take_finished()) games.push_back(std::move(g));
    ASSERT_EQ(games.size(), 40u);
    std::map<int, std::set<int>> second_after_first;
    int checked = 0;
    for (const GameRecord& g : games) {
      ASSERT_GE(g.moves.size(), 3u);
      second_after_first[g.moves[0].action].insert(g.moves[1].action);
      // The second seat's first action, searched again at temperature 0.
      auto state = new_game(o.spec);
      size_t m = 0;
      while (g.moves[m].mover == Player::kBlack) state->apply(g.moves[m++].action);
      ASSERT_LT(m, g.moves.size());
      SearchTree tree(o.spec);
      tree.set_root(*state);
      Rng rng(1);
      EvaluationBatch batch;
      run_search(tree, uniform, o.players[0].search, false, rng, &batch);
      if (by_turns) {
        EXPECT_EQ(g.moves[m].action, tree.choose_action(0.0f, rng)) << "move " << m << " of game " << g.game_index;
        ++checked;
      }
    }
    size_t pairs = 0;
    for (const auto& [first, seconds] : second_after_first) pairs += seconds.size();
    if (by_turns) {
      EXPECT_GT(pairs, second_after_first.size()) << "the rest of the first turn was not sampled";
      EXPECT_EQ(checked, 40);
    } else {
      EXPECT_EQ(pairs, second_after_first.size()) << "counted in plies, only the first action is sampled";
    }
  }
}

}  // namespace
}  // namespace quax
