// Batched arena games through the multi-game driver: every scheduled game is reported once
// with its scheduled colours, records replay to the reported result, a stronger search
// beats a weaker one, and players without an evaluator are refused.
#include <gtest/gtest.h>

#include <map>

#include "arena/batched_games.h"
#include "env/notation.h"
#include "mcts/simple_evaluators.h"

namespace quax {
namespace {

// Quax, and torax, whose auction turns are one token each in a record: a record must replay
// through the readers of records (env/notation.h), as `quax replay` and the solver read them.
class BatchedGamesOf : public ::testing::TestWithParam<GameSpec> {};

TEST_P(BatchedGamesOf, EveryGameOnceWithItsColoursAndAReplayableRecord) {
  const GameSpec spec = GetParam();
  const std::vector<std::string> names = {"rollouts", "uniform", "rollouts2"};
  RolloutEvaluator rollouts(1, 3), rollouts2(1, 4);
  UniformEvaluator uniform;
  SearchPlayer a{&rollouts, {}}, b{&uniform, {}}, c{&rollouts2, {}};
  a.search.simulations = 24;
  b.search.simulations = 8;
  c.search.simulations = 16;
  const auto games = schedule_games(3, 6);
  BatchedGamesOptions opt;
  opt.parallel_games = 5;
  std::vector<int> seen(games.size(), 0);
  std::vector<GameResult> results(games.size());
  play_games_batched(spec, names, games, {&a, &b, &c}, opt, [&](size_t g, const GameResult& r) {
    ++seen.at(g);
    results[g] = r;
  });
  std::map<std::string, int> as_black, as_white;
  for (size_t g = 0; g < games.size(); ++g) {
    ASSERT_EQ(seen[g], 1) << "game " << g;
    EXPECT_EQ(results[g].black, names[games[g].black]);
    EXPECT_EQ(results[g].white, names[games[g].white]);
    ++as_black[results[g].black];
    ++as_white[results[g].white];
    ParsedRecord record;
    std::string error;
    ASSERT_TRUE(parse_record(results[g].record, &record, &error)) << error;
    const auto state = replay_record(spec, record, &error);
    ASSERT_NE(state, nullptr) << error << "\n" << results[g].record;
    EXPECT_TRUE(state->is_over());
    EXPECT_EQ(state->outcome(), results[g].outcome);
    EXPECT_EQ(state->move_number(), results[g].moves);
  }
  for (const auto& n : names) EXPECT_EQ(as_black[n], as_white[n]) << n;  // colour balance
}

INSTANTIATE_TEST_SUITE_P(Arena, BatchedGamesOf,
                         ::testing::Values(GameSpec{Variant::kQuax, 5, true}, GameSpec{Variant::kTorax, 5, false}),
                         [](const ::testing::TestParamInfo<GameSpec>& info) {
                           return std::string(variant_info(info.param.variant).name);
                         });

TEST(BatchedGames, MoreRolloutSimulationsWinMost) {
  // 64 rollout simulations against a flat-policy, zero-value search of 4: the first is far
  // stronger (about 90% here); 40 games leave room for chance but not for a wiring error
  // that swaps players or colours.
  const GameSpec spec{Variant::kQuax, 5, false};
  RolloutEvaluator rollouts(1, 7);
  UniformEvaluator uniform;
  SearchPlayer strong{&rollouts, {}}, weak{&uniform, {}};
  strong.search.simulations = 64;
  weak.search.simulations = 4;
  const auto games = schedule_games(2, 40);
  int strong_wins = 0;
  play_games_batched(spec, {"strong", "weak"}, games, {&strong, &weak}, BatchedGamesOptions{},
                     [&](size_t, const GameResult& r) {
                       const bool strong_black = r.black == "strong";
                       strong_wins += (r.outcome == Outcome::kBlackWins) == strong_black ? 1 : 0;
                     });
  EXPECT_GE(strong_wins, 30);
}

TEST(BatchedGames, StopAbandonsGamesInFlight) {
  const GameSpec spec{Variant::kQuax, 5, true};
  UniformEvaluator uniform;
  SearchPlayer p{&uniform, {}};
  p.search.simulations = 4;
  const auto games = schedule_games(2, 40);
  int reported = 0;
  play_games_batched(spec, {"x", "y"}, games, {&p, &p}, BatchedGamesOptions{},
                     [&](size_t, const GameResult&) { ++reported; }, [&] { return reported >= 3; });
  EXPECT_GE(reported, 3);
  EXPECT_LT(reported, 40);
}

TEST(BatchedGames, PlayerWithoutEvaluatorIsRefused) {
  const GameSpec spec{Variant::kQuax, 5, true};
  UniformEvaluator uniform;
  SearchPlayer p{&uniform, {}};
  EXPECT_THROW(play_games_batched(spec, {"x", "agent"}, schedule_games(2, 2), {&p, nullptr},
                                  BatchedGamesOptions{}, [](size_t, const GameResult&) {}),
               std::invalid_argument);
}

}  // namespace
}  // namespace quax
