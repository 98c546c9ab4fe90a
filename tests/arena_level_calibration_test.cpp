// The arithmetic of `quax levels` (arena/level_calibration.h): the settings it measures and the
// choice of ten of them from their ratings.
#include <gtest/gtest.h>

#include <vector>

#include "arena/level_calibration.h"

namespace quax {
namespace {

TEST(LevelCandidates, PolicyByFallingTemperatureThenSearchesRisingToTheFullOne) {
  const auto c = level_candidates(200);
  ASSERT_GE(c.size(), 10u);
  EXPECT_EQ(c.back(), (LevelSetting{200, -1.0f}));
  for (size_t i = 1; i < c.size(); ++i) {
    const LevelSetting &a = c[i - 1], &b = c[i];
    if (b.prior_temperature >= 0.0f) {  // a policy setting: one evaluation, cooler than the one before
      EXPECT_EQ(b.simulations, 1);
      EXPECT_LT(b.prior_temperature, a.prior_temperature) << i;
    } else {  // a search: more simulations than the one before
      EXPECT_GT(b.simulations, a.simulations) << i;
    }
  }
  EXPECT_EQ(c[c.size() - 2].simulations, 128);  // the doubling stops at 2/3 of the full search
  const auto small = level_candidates(16);
  EXPECT_EQ(small[small.size() - 3], (LevelSetting{4, -1.0f}));
  EXPECT_EQ(small[small.size() - 2], (LevelSetting{8, -1.0f}));
  EXPECT_EQ(small.back(), (LevelSetting{16, -1.0f}));
}

TEST(ChooseLevels, EvenRatingsGiveEvenlySpacedLevels) {
  std::vector<double> elo;
  for (int i = 0; i < 19; ++i) elo.push_back(100.0 * i);  // 0..1800: targets 0, 200, ... 1800
  EXPECT_EQ(choose_levels(elo), (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}));
}

TEST(ChooseLevels, ABigJumpIsFilledFromTheSettingsAroundIt) {
  // Ten policy settings close together, then a search worth far more (hex-11.pt's shape).
  std::vector<double> elo{0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 900, 1100, 1300, 1500, 1700, 1800};
  const auto chosen = choose_levels(elo);
  ASSERT_EQ(chosen.size(), 10u);
  EXPECT_EQ(chosen.front(), 0);
  EXPECT_EQ(chosen.back(), 15);
  for (size_t k = 1; k < chosen.size(); ++k) EXPECT_LT(chosen[k - 1], chosen[k]);
  // Targets 0, 200, ..., 1800: every search takes a level (each 100 from its target), and the
  // three levels left for the policy take its strongest settings, nearest to 200-600.
  EXPECT_EQ(chosen, (std::vector<int>{0, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
  int searches = 0;
  for (int i : chosen) searches += elo[i] >= 900;
  EXPECT_EQ(searches, 6);  // 900, 1100, 1300, 1500, 1700, 1800
}

TEST(ChooseLevels, NoisyRatingsStillGiveRisingIndicesAndTheEnds) {
  // Ratings that dip: the choice keeps the candidates' order (their design), first and last.
  std::vector<double> elo{0, 50, 30, 120, 90, 200, 180, 260, 240, 400, 380, 600};
  const auto chosen = choose_levels(elo);
  ASSERT_EQ(chosen.size(), 10u);
  EXPECT_EQ(chosen.front(), 0);
  EXPECT_EQ(chosen.back(), 11);
  for (size_t k = 1; k < chosen.size(); ++k) EXPECT_LT(chosen[k - 1], chosen[k]);
  // Exactly ten of twelve: two are left out, the ones farthest from the targets.
  std::vector<double> ten{0, 100, 200, 300, 400, 500, 600, 700, 800, 900};
  EXPECT_EQ(choose_levels(ten), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

}  // namespace
}  // namespace quax
