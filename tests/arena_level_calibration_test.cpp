// The arithmetic of `quax levels` (arena/level_calibration.h): the settings it measures and the
// choice of ten of them from their ratings.
#include <gtest/gtest.h>

#include <vector>

#include "arena/level_calibration.h"

namespace quax {
namespace {

std::vector<int> choose(const std::vector<double>& elo, LevelGap* gap = nullptr) {
  LevelGap g;
  auto chosen = choose_levels(elo, gap ? gap : &g);
  return chosen;
}

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
  // Searches from 4 simulations, each at most 1.5 times the one before, up to 2/3 of the full one.
  std::vector<int> searches;
  for (const LevelSetting& s : c)
    if (s.prior_temperature < 0.0f) searches.push_back(s.simulations);
  EXPECT_EQ(searches, (std::vector<int>{4, 6, 8, 11, 16, 23, 32, 45, 64, 91, 128, 200}));
  for (size_t i = 1; i + 1 < searches.size(); ++i) EXPECT_LE(searches[i], 1.5 * searches[i - 1]) << i;
  const auto small = level_candidates(16);
  EXPECT_EQ(small[small.size() - 4], (LevelSetting{4, -1.0f}));
  EXPECT_EQ(small[small.size() - 3], (LevelSetting{6, -1.0f}));
  EXPECT_EQ(small[small.size() - 2], (LevelSetting{8, -1.0f}));  // 11 would be over 2/3 of 16
  EXPECT_EQ(small.back(), (LevelSetting{16, -1.0f}));
}

TEST(ChooseLevels, EvenRatingsGiveEvenlySpacedLevels) {
  std::vector<double> elo;
  for (int i = 0; i < 19; ++i) elo.push_back(100.0 * i);  // 0..1800: targets 0, 200, ... 1800
  EXPECT_EQ(choose(elo), (std::vector<int>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}));
}

TEST(ChooseLevels, NeighbouringLevelsAreAtLeastAMinimumGapApart) {
  // quax-11.pt at 11x11: the policy at temperature 0.4 and 0 rated 105 apart (1168, 1273) and
  // then scored 21-19 against each other; with the gap, they are not both levels.
  std::vector<double> elo{0, 69, 120, 353, 538, 798, 962, 1030, 1099, 1168, 1273, 1562, 1546, 1546, 1689, 1832, 1975, 2099};
  LevelGap gap;
  const auto chosen = choose(elo, &gap);
  // 0.7 of an even step (163 Elo, less than kMinLevelGap here) leaves no ten; 20% less does.
  EXPECT_NEAR(gap.wanted, 0.7 * 2099 / 9, 1e-9);
  EXPECT_TRUE(choose_levels(elo, gap.wanted).empty());
  EXPECT_NEAR(gap.used, 0.8 * gap.wanted, 1e-9);
  EXPECT_EQ(chosen, (std::vector<int>{0, 3, 4, 5, 6, 9, 12, 14, 15, 17}));
  for (size_t k = 1; k < chosen.size(); ++k) EXPECT_GE(elo[chosen[k]] - elo[chosen[k - 1]], gap.used) << k;
  EXPECT_EQ(choose_levels(elo, gap.used), chosen);
  // Ten settings close together then a few searches far above: no ten levels 140 apart (0.7 of
  // an even step), so the gap shrinks until ten fit (57: the policy at 0, 60, 120 and 180).
  const std::vector<double> jump{0, 20, 40, 60, 80, 100, 120, 140, 160, 180, 900, 1100, 1300, 1500, 1700, 1800};
  EXPECT_EQ(choose(jump, &gap), (std::vector<int>{0, 3, 6, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_NEAR(gap.wanted, 140.0, 1e-9);
  EXPECT_NEAR(gap.used, 140.0 * 0.8 * 0.8 * 0.8 * 0.8, 1e-9);
  EXPECT_TRUE(choose_levels(jump, gap.used / 0.8).empty());
}

TEST(ChooseLevels, ByRatingNotByOrder) {
  // hex-11.pt's shape: the policy's top move (index 10) rated above the small searches that
  // follow it, and a search (index 16) rated above the full one (17) by noise.
  std::vector<double> elo{0, 87, 211, 502, 762, 1087, 1273, 1397, 1363, 1467, 1571, 1407, 1458, 1518, 1622, 1808, 2200, 2155};
  const auto chosen = choose(elo);
  ASSERT_EQ(chosen.size(), 10u);
  EXPECT_EQ(chosen.front(), 0);
  EXPECT_EQ(chosen.back(), 17);
  for (size_t k = 1; k < chosen.size(); ++k) EXPECT_LT(elo[chosen[k - 1]], elo[chosen[k]]) << k;
  for (int i : chosen) EXPECT_NE(i, 16) << "a setting rated above the full search is no level below it";
  // Targets 0, 239.4, ..., 2155: the nearest ratings, rising.
  EXPECT_EQ(chosen, (std::vector<int>{0, 2, 3, 4, 5, 6, 12, 14, 15, 17}));  // 8 simulations (1458) nearest 1437
}

TEST(ChooseLevels, TooFewDistinctRatingsGiveNone) {
  EXPECT_TRUE(choose({0, 10, 20, 30, 40, 50, 60, 70, 80}).empty());      // nine settings
  EXPECT_TRUE(choose({0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 5}).empty());  // the full one rated second
  EXPECT_TRUE(choose({0, 10, 10, 10, 40, 50, 60, 70, 80, 90, 100}).empty());  // ties are one level
  EXPECT_EQ(choose({0, 10, 20, 30, 40, 50, 60, 70, 80, 90}), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(OrderedWithinKinds, ADipAmongSearchesOrTemperaturesIsPooledAndTheKindsStayApart) {
  const auto c = level_candidates(200);  // 11 policy settings, then 4, 6, 8, 11, ... 128, 200 simulations
  ASSERT_EQ(c.size(), 23u);
  // crossway-19.pt at 19x19 (twelfth session), the pooled ratings of its calibration.
  const std::vector<double> elo{0,    67,   98,   328,  540,  728,  1040, 1252, 1326, 1349, 1350, 1710,
                                1794, 1741, 1635, 1800, 1801, 1855, 1926, 1888, 2021, 2046, 2123};
  const auto ordered = ordered_within_kinds(elo, c);
  for (int i = 0; i <= 10; ++i) EXPECT_EQ(ordered[i], elo[i]) << i;  // the policy's were in order
  EXPECT_EQ(ordered[11], 1710);                                      // 4 simulations, under the pool
  for (int i = 12; i <= 14; ++i) EXPECT_NEAR(ordered[i], (1794.0 + 1741 + 1635) / 3, 1e-9) << i;  // 6, 8, 11
  EXPECT_EQ(ordered[15], 1800);
  EXPECT_NEAR(ordered[18], (1926.0 + 1888) / 2, 1e-9);  // 45 and 64 simulations
  EXPECT_NEAR(ordered[19], ordered[18], 1e-9);
  EXPECT_EQ(ordered[22], 2123);
  for (size_t i = 12; i < c.size(); ++i) EXPECT_GE(ordered[i], ordered[i - 1]) << i;
  // The levels chosen from the ordered ratings keep each kind in its order: no search above a
  // larger one (the calibration, choosing from the raw ratings, made 11 simulations level 7 and
  // 6 simulations level 8).
  LevelGap gap;
  const auto chosen = choose_levels(ordered, &gap);
  ASSERT_EQ(chosen.size(), 10u);
  for (size_t a = 0; a < chosen.size(); ++a) {
    for (size_t b = a + 1; b < chosen.size(); ++b) {
      if ((c[chosen[a]].prior_temperature < 0) == (c[chosen[b]].prior_temperature < 0)) {
        EXPECT_LT(chosen[a], chosen[b]) << a << " " << b;
      }
    }
  }
  // The policy's settings pooled the same way, and the top move rated under the searches kept
  // where it is: across kinds the ratings stand.
  std::vector<double> hot = elo;
  hot[2] = 120;  // temperature 2.5 rated 120 and 2.0 rated 90: a dip, both pooled to 105
  hot[3] = 90;
  const auto hot_ordered = ordered_within_kinds(hot, c);
  EXPECT_NEAR(hot_ordered[2], 105, 1e-9);
  EXPECT_NEAR(hot_ordered[3], 105, 1e-9);
  hot[10] = 1900;  // the top move above the small searches: stays
  EXPECT_EQ(ordered_within_kinds(hot, c)[10], 1900);
}

TEST(PooledElo, OnAChainSumsTheLinksWithHalfAWinEachSide) {
  std::vector<PairRecord> links{{0, 1, 10, 30, 0}, {1, 2, 20, 20, 0}, {2, 3, 0, 40, 0}};
  const auto elo = pooled_elo(4, links);
  ASSERT_EQ(elo.size(), 4u);
  EXPECT_EQ(elo[0], 0.0);
  EXPECT_NEAR(elo[1], elo_from_score(30.5 / 41), 1e-6);
  EXPECT_NEAR(elo[2], elo[1], 1e-6);  // an even link
  EXPECT_NEAR(elo[3] - elo[2], elo_from_score(40.5 / 41), 1e-6);  // 40-0: finite, about +760
  EXPECT_GT(elo[3] - elo[2], 700);
  EXPECT_LT(elo[3] - elo[2], 800);
}

TEST(PooledElo, ACheckBetweenTwoSettingsMovesBothTowardsItsScore) {
  // The chain rates 0 < 1 < 2 by 200 Elo a link; a check of 0 against 2 scoring even says the
  // chain overrated the span, so 2 comes down, and 1 stays between them.
  const double s200 = score_from_elo(200);
  std::vector<PairRecord> records{{0, 1, 40 * (1 - s200), 40 * s200, 0}, {1, 2, 40 * (1 - s200), 40 * s200, 0}};
  const auto chain = pooled_elo(3, records);
  records.push_back({2, 0, 20, 20, 0});
  const auto pooled = pooled_elo(3, records);
  EXPECT_GT(chain[2], 350);
  EXPECT_LT(pooled[2], chain[2] - 100);
  EXPECT_GT(pooled[1], pooled[0]);
  EXPECT_GT(pooled[2], pooled[1]);
}

TEST(StepScore, TheUpperSettingsShareOfTheirGamesWhicheverSideRecordedThem) {
  const std::vector<PairRecord> records{{3, 5, 12, 25, 3}, {0, 1, 7, 7, 0}, {5, 3, 20, 19, 1}};
  const StepScore s = step_score(records, 3, 5);
  EXPECT_EQ(s.games, 80);
  EXPECT_NEAR(s.score, (25 + 1.5 + 20 + 0.5) / 80.0, 1e-12);
  EXPECT_EQ(step_score(records, 2, 4).games, 0);
}

TEST(StepFailsCheck, OwnGamesUnder70PercentOrRatingsUnder147EloApart) {
  // 28-12 of their own games (70%) passes when all games rate the pair 160 apart and fails at
  // 130 apart; 30-10 rated 200 apart passes; quadhex-10.pt's 16 simulations over the policy's
  // top move, 27-13 (then 23-17 in a fresh chain), fails however far apart they are rated.
  const std::vector<PairRecord> records{{0, 1, 12, 28, 0}, {2, 3, 10, 30, 0}, {4, 5, 13, 27, 0}};
  EXPECT_TRUE(step_fails_check(records, {0, 130, 0, 200, 0, 200}, 0, 1));
  EXPECT_FALSE(step_fails_check(records, {0, 160, 0, 200, 0, 200}, 0, 1));
  EXPECT_FALSE(step_fails_check(records, {0, 130, 0, 200, 0, 200}, 2, 3));
  EXPECT_TRUE(step_fails_check(records, {0, 130, 0, 200, 0, 200}, 4, 5));
}

TEST(ChooseLevels, PairsThatFailedTheirCheckAreNoNeighbours) {
  std::vector<double> elo;
  for (int i = 0; i <= 36; ++i) elo.push_back(50.0 * i);  // 0..1800: targets every fourth
  const auto first = choose_levels(elo, 150.0);
  ASSERT_EQ(first, (std::vector<int>{0, 4, 8, 12, 16, 20, 24, 28, 32, 36}));
  const auto pairs = neighbouring_pairs(first);
  ASSERT_EQ(pairs.size(), 9u);
  EXPECT_EQ(pairs[3], std::make_pair(12, 16));
  // Levels 4 and 5 (settings 12 and 16) scored under 60% when played again: another choice,
  // as near the even targets as the gap allows.
  const auto second = choose_levels(elo, 150.0, {{12, 16}});
  ASSERT_EQ(second.size(), 10u);
  EXPECT_NE(second, first);
  for (const auto& p : neighbouring_pairs(second)) EXPECT_NE(p, std::make_pair(12, 16));
  for (size_t k = 1; k < second.size(); ++k) EXPECT_GE(elo[second[k]] - elo[second[k - 1]], 150.0) << k;
  LevelGap gap;
  const auto by_gap = choose_levels(elo, &gap, {{12, 16}});
  for (const auto& p : neighbouring_pairs(by_gap)) EXPECT_NE(p, std::make_pair(12, 16));
}

}  // namespace
}  // namespace quax
