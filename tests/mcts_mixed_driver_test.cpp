// The mixed driver (self-play over several board sizes): finished games follow the weights
// whatever the games' lengths, every evaluator call holds one size, and with one game it is
// that game's driver, game for game.
#include <gtest/gtest.h>

#include <map>

#include "mcts/mixed_driver.h"
#include "mcts/simple_evaluators.h"

namespace quax {
namespace {

// Uniform outputs; records the board size of each call and fails on a call of mixed sizes.
class SizeRecordingEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* logits, float* values) override {
    for (const GameState* s : states) EXPECT_EQ(s->size(), states[0]->size()) << "a batch of two sizes";
    ++calls[states[0]->size()];
    inner.evaluate(states, planes, masks, logits, values);
  }
  bool needs_planes() const override { return false; }
  UniformEvaluator inner;
  std::map<int, int> calls;
};

DriverOptions options_for(int size, uint64_t seed) {
  DriverOptions o;
  o.spec = GameSpec{Variant::kQuax, size, true};
  o.parallel_games = 4;
  o.players[0].search.simulations = 4;
  o.players[0].record_policy = true;
  o.players[0].temperature_moves = 100;
  o.seed = seed;
  return o;
}

TEST(MixedDriver, FinishedGamesFollowTheWeights) {
  // Games on 3x3 are much shorter than on 6x6: stepping the drivers in turn would finish far
  // more small games than the weights ask for.
  const std::vector<int> sizes = {3, 4, 6};
  const std::vector<double> weights = {1, 1, 2};
  SizeRecordingEvaluator evaluator;
  std::vector<DriverOptions> options;
  for (size_t i = 0; i < sizes.size(); ++i) options.push_back(options_for(sizes[i], 7 + i));
  MixedDriver driver(options, {{&evaluator}, {&evaluator}, {&evaluator}}, weights);
  std::map<int, int> games;
  int total = 0;
  while (total < 240) {
    ASSERT_TRUE(driver.step());
    for (const GameRecord& g : driver.take_finished()) {
      ++games[g.spec.size];
      ++total;
      EXPECT_NE(g.outcome, Outcome::kOngoing);
    }
  }
  for (size_t i = 0; i < sizes.size(); ++i) {
    const double wanted = total * weights[i] / 4.0;
    EXPECT_NEAR(games[sizes[i]], wanted, 10) << sizes[i] << "x" << sizes[i];
    EXPECT_EQ(driver.games_finished(i), games[sizes[i]]);
  }
  // The larger board needed more calls for its games: the drivers were not stepped in turn.
  EXPECT_GT(evaluator.calls[6], 2 * evaluator.calls[3]);
}

TEST(MixedDriver, OneGameIsThatGamesDriver) {
  const DriverOptions o = options_for(4, 3);
  UniformEvaluator a, b;
  GameDriver alone(o, {&a});
  MixedDriver mixed({o}, {{&b}}, {1.0});
  std::vector<GameRecord> from_alone, from_mixed;
  while (from_alone.size() < 12) {
    alone.step();
    ASSERT_TRUE(mixed.step());
    for (auto& g : alone.take_finished()) from_alone.push_back(std::move(g));
    for (auto& g : mixed.take_finished()) from_mixed.push_back(std::move(g));
  }
  ASSERT_EQ(from_mixed.size(), from_alone.size());
  for (size_t i = 0; i < from_alone.size(); ++i) {
    ASSERT_EQ(from_mixed[i].moves.size(), from_alone[i].moves.size());
    for (size_t m = 0; m < from_alone[i].moves.size(); ++m)
      EXPECT_EQ(from_mixed[i].moves[m].action, from_alone[i].moves[m].action);
  }
}

TEST(MixedDriver, StopsWhenEveryDriverIsDone) {
  std::vector<DriverOptions> options = {options_for(3, 1), options_for(4, 2)};
  options[0].games_to_play = 3;
  options[1].games_to_play = 5;
  UniformEvaluator e;
  MixedDriver driver(options, {{&e}, {&e}}, {1, 1});
  while (driver.step()) {
  }
  EXPECT_EQ(driver.games_finished(0), 3);
  EXPECT_EQ(driver.games_finished(1), 5);
  EXPECT_EQ(driver.take_finished().size(), 8u);
}

TEST(MixedDriver, BadListsAreRefused) {
  UniformEvaluator e;
  const DriverOptions o = options_for(3, 1);
  EXPECT_THROW(MixedDriver({}, {}, {}), std::invalid_argument);
  EXPECT_THROW(MixedDriver({o, o}, {{&e}}, {1, 1}), std::invalid_argument);
  EXPECT_THROW(MixedDriver({o}, {{&e}}, {0}), std::invalid_argument);
  EXPECT_THROW(MixedDriver({o}, {{&e}}, {-1}), std::invalid_argument);
}

}  // namespace
}  // namespace quax
