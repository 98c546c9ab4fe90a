// The difficulty levels (mcts/play_levels.h) and the move they make from the network's
// priors (SearchSettings::prior_temperature): argmax at 0, draws that follow priors^(1/T).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

#include "env/game_state.h"
#include "mcts/play_levels.h"
#include "mcts/search_agent.h"
#include "mcts/search_tree.h"

namespace quax {
namespace {

// Priors 0.6, 0.3 and 0.1 on net actions 0, 1 and 2 (reversed: on 2, 1 and 0); every other
// legal action about 1e-13.
class ThreeMoveEvaluator final : public Evaluator {
 public:
  explicit ThreeMoveEvaluator(bool reversed = false) : reversed_(reversed) {}
  void evaluate(const std::vector<const GameState*>& states, const float* /*planes*/, const uint8_t* /*masks*/,
                float* logits, float* values) override {
    for (size_t b = 0; b < states.size(); ++b) {
      const int a = states[b]->num_actions();
      for (int i = 0; i < a; ++i) logits[b * a + i] = -30.0f;
      logits[b * a + (reversed_ ? 2 : 0)] = std::log(0.6f);
      logits[b * a + 1] = std::log(0.3f);
      logits[b * a + (reversed_ ? 0 : 2)] = std::log(0.1f);
      values[b] = 0.0f;
    }
  }
  bool needs_planes() const override { return false; }

 private:
  bool reversed_;
};

// How often each of net actions 0, 1, 2 is chosen in `draws` moves from the empty board.
std::vector<double> shares(const SearchSettings& settings, float temperature, int draws, bool reversed = false) {
  auto state = new_game(GameSpec{Variant::kQuax, 5, false});
  ThreeMoveEvaluator ev(reversed);
  SearchTree tree(state->spec());
  tree.set_root(*state);
  Rng rng(11);
  EvaluationBatch batch;
  run_search(tree, ev, settings, false, rng, &batch);
  std::vector<double> out(3, 0.0);
  for (int i = 0; i < draws; ++i) {
    const int net = state->to_net_action(tree.choose_action(temperature, rng));
    EXPECT_LT(net, 3) << "a move of prior 1e-13 was drawn";
    if (net < 3) out[net] += 1.0;
  }
  for (double& f : out) f /= draws;
  return out;
}

TEST(PriorTemperature, ZeroPlaysTheLargestPrior) {
  SearchSettings s;
  s.simulations = 1;
  s.prior_temperature = 0.0f;
  const auto f = shares(s, 0.0f, 50);
  EXPECT_EQ(f[0], 1.0);
}

// A temperature too small to divide by (1e-38: the weights' logs became -inf for every move,
// then NaN) plays the largest prior as 0 does, not the first legal move (net action 0: the
// priors are reversed here, the largest on net action 2).
TEST(PriorTemperature, ATinyTemperaturePlaysTheLargestPrior) {
  SearchSettings s;
  s.simulations = 1;
  for (float t : {1e-38f, 1e-30f, 1e-6f}) {
    s.prior_temperature = t;
    const auto f = shares(s, 0.0f, 50, /*reversed=*/true);
    EXPECT_EQ(f[2], 1.0) << "T " << t;
  }
}

TEST(PriorTemperature, DrawsFollowThePriorsRaisedToOneOverT) {
  SearchSettings s;
  s.simulations = 1;
  for (float t : {1.0f, 0.5f, 2.0f}) {
    s.prior_temperature = t;
    double w[3] = {std::pow(0.6, 1 / t), std::pow(0.3, 1 / t), std::pow(0.1, 1 / t)};
    const double z = w[0] + w[1] + w[2];
    const auto f = shares(s, 0.0f, 20000);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(f[i], w[i] / z, 0.015) << "T " << t << " action " << i;
  }
}

TEST(PriorTemperature, TheLargerOfTheTwoTemperaturesDecides) {
  // The arena samples its first plies at temperature 1: a level that plays the argmax then
  // draws from the priors at 1 too, or its games would all be the same.
  SearchSettings s;
  s.simulations = 1;
  s.prior_temperature = 0.0f;
  const auto f = shares(s, 1.0f, 20000);
  EXPECT_NEAR(f[1], 0.3, 0.015);
}

TEST(PriorTemperature, TheSearchChoosesWhenItIsOff) {
  // 64 simulations with these priors and equal values: the visits follow the priors, and the
  // most visited child is action 0 - but with the search on, temperature 0 is deterministic
  // and never the prior draw; the default is off.
  SearchSettings s;
  EXPECT_LT(s.prior_temperature, 0.0f);
  s.simulations = 64;
  const auto f = shares(s, 0.0f, 200);
  EXPECT_EQ(f[0], 1.0);
  s.prior_temperature = std::nanf("");
  EXPECT_FALSE(check_settings(s).empty());
  s.prior_temperature = 101.0f;
  EXPECT_FALSE(check_settings(s).empty());
}

TEST(PlayLevels, LevelTenIsTheFullSearchAndEachLevelPlaysStrongerThanTheOneBelow) {
  const SearchSettings full;
  const LevelTable& table = default_level_table();
  EXPECT_EQ(check_level_table(table), "");
  EXPECT_EQ(table.back().simulations, full.simulations);
  EXPECT_LT(table.back().prior_temperature, 0.0f);
  std::set<std::string> names;
  for (int l = kMinPlayLevel; l <= kMaxPlayLevel; ++l) {
    const LevelSetting& level = table[l - 1];
    EXPECT_TRUE(names.insert(play_level_name(l)).second) << play_level_name(l);
    if (l == kMinPlayLevel) continue;
    const LevelSetting& below = table[l - 2];
    // More simulations, or the same single evaluation with the move drawn at a lower
    // temperature, or the search's move instead of the policy's.
    const bool more_search = level.simulations > below.simulations;
    const bool cooler = level.simulations == below.simulations && below.prior_temperature > level.prior_temperature &&
                        level.prior_temperature >= 0.0f;
    EXPECT_TRUE(more_search || cooler) << "level " << l;
    if (level.prior_temperature >= 0.0f) {
      EXPECT_EQ(level.simulations, 1) << "a policy level searches nothing";
    }
  }
}

TEST(PlayLevels, ATableThatCannotBePlayedIsNamedByItsFirstBadLevel) {
  LevelTable t = default_level_table();
  t[2].simulations = 0;
  EXPECT_EQ(check_level_table(t), "level 3: simulations 0 is not in [1, 100000]");
  t = default_level_table();
  t[4].prior_temperature = 11.0f;
  EXPECT_NE(check_level_table(t).find("level 5: temperature 11"), std::string::npos) << check_level_table(t);
  t[4].prior_temperature = std::nanf("");
  EXPECT_EQ(check_level_table(t).rfind("level 5: temperature", 0), 0u) << check_level_table(t);
  t = default_level_table();
  t[9].prior_temperature = 0.5f;
  EXPECT_EQ(check_level_table(t), "level 10 must play the search's move (temperature -1)");
}

TEST(PlayLevels, AtLevelSetsTheSizeAndTheMoveRuleOnly) {
  SearchSettings s;
  s.c_puct = 2.5f;
  s.leaves_per_batch = 4;
  const SearchSettings low = at_level(s, 1), top = at_level(s, kMaxPlayLevel);
  EXPECT_EQ(low.simulations, default_level_table()[0].simulations);
  EXPECT_EQ(low.prior_temperature, default_level_table()[0].prior_temperature);
  EXPECT_EQ(low.c_puct, 2.5f);
  EXPECT_EQ(low.leaves_per_batch, 4);
  EXPECT_TRUE(check_settings(low).empty());
  EXPECT_EQ(top.simulations, 200);
  EXPECT_EQ(play_level_range(), "1 (novice) to 10 (full strength)");
}

}  // namespace
}  // namespace quax
