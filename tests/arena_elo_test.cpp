#include <gtest/gtest.h>

#include <cmath>

#include "arena/elo.h"
#include "env/rng.h"

namespace quax {
namespace {

// Plays `games` simulated games between every pair of players with the given true
// ratings and returns the records. Draws take a share `draw_rate` of the closer side's
// chances from both sides, so the expected score stays the model's.
std::vector<PairRecord> simulate(const std::vector<double>& truth, int games, double draw_rate, Rng& rng) {
  std::vector<PairRecord> out;
  for (int i = 0; i < static_cast<int>(truth.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(truth.size()); ++j) {
      PairRecord r{i, j, 0, 0, 0};
      const double p = score_from_elo(truth[i] - truth[j]);
      const double d = draw_rate * 2 * std::min(p, 1 - p);
      for (int g = 0; g < games; ++g) {
        const double u = rng.uniform();
        if (u < p - d / 2) r.wins_i += 1;
        else if (u < p + d / 2) r.draws += 1;
        else r.wins_j += 1;
      }
      out.push_back(r);
    }
  return out;
}

TEST(Elo, ScoreAndEloAreInverse) {
  for (double e : {-600.0, -100.0, 0.0, 35.0, 400.0}) EXPECT_NEAR(elo_from_score(score_from_elo(e)), e, 1e-9);
  EXPECT_NEAR(score_from_elo(400), 10.0 / 11.0, 1e-12);
}

TEST(Elo, RecoversKnownRatingsWithinTheirIntervals) {
  const std::vector<double> truth = {0, 150, 300, 420, 700};
  Rng rng(7);
  int inside = 0, total = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const auto records = simulate(truth, 400, 0.1, rng);
    const EloFit fit = fit_elo(static_cast<int>(truth.size()), records, 0, 0.0, 0.0);
    ASSERT_TRUE(fit.converged);
    EXPECT_DOUBLE_EQ(fit.elo[0], 0.0);
    for (size_t p = 1; p < truth.size(); ++p) {
      ++total;
      if (std::abs(fit.elo[p] - truth[p]) <= 1.96 * fit.stderr_[p]) ++inside;
      EXPECT_LT(std::abs(fit.elo[p] - truth[p]), 5 * fit.stderr_[p]) << "player " << p;
    }
  }
  // 95% intervals: about 76 of 80 should cover the truth; allow sampling noise.
  EXPECT_GE(inside, 68) << inside << " of " << total;
}

TEST(Elo, AnchorShiftsEveryRating) {
  Rng rng(3);
  const auto records = simulate({0, 200, 400}, 200, 0.0, rng);
  const EloFit a = fit_elo(3, records, 0, 0.0, 0.0);
  const EloFit b = fit_elo(3, records, 1, 1000.0, 0.0);
  EXPECT_NEAR(b.elo[1], 1000.0, 1e-9);
  EXPECT_NEAR((a.elo[2] - a.elo[1]), (b.elo[2] - b.elo[1]), 1e-6);
}

TEST(Elo, PriorKeepsAPerfectRecordFinite) {
  // Player 1 won every game: without a prior the maximum is at infinity.
  const std::vector<PairRecord> records = {{0, 1, 0, 30, 0}};
  const EloFit fit = fit_elo(2, records, 0, 0.0, 1.0);
  EXPECT_TRUE(std::isfinite(fit.elo[1]));
  EXPECT_GT(fit.elo[1], 400);
  EXPECT_GT(fit.stderr_[1], 0);
}

TEST(Sprt, AcceptsTheTrueHypothesis) {
  // A 100-Elo stronger player: expected score 0.64.
  EXPECT_EQ(sprt(640, 0, 360, 0, 50, 0.05, 0.05).decision, SprtResult::Decision::kAcceptH1);
  // Equal players: H0 (elo 0) against H1 (elo 50).
  EXPECT_EQ(sprt(500, 0, 500, 0, 50, 0.05, 0.05).decision, SprtResult::Decision::kAcceptH0);
  // Too few games to decide.
  EXPECT_EQ(sprt(6, 0, 4, 0, 50, 0.05, 0.05).decision, SprtResult::Decision::kContinue);
}

TEST(Sprt, ParametersOutsideTheirRangeAreNamed) {
  EXPECT_EQ(check_sprt_parameters(0, 50, 0.05, 0.05), "");
  EXPECT_EQ(check_sprt_parameters(-10, 10, 0.001, 0.499), "");
  EXPECT_EQ(check_sprt_parameters(0, 50, 0.05, 2), "beta must be in (0, 0.5), not 2");
  EXPECT_EQ(check_sprt_parameters(0, 50, 0.05, 0.5), "beta must be in (0, 0.5), not 0.5");
  EXPECT_EQ(check_sprt_parameters(0, 50, 0, 0.05), "alpha must be in (0, 0.5), not 0");
  EXPECT_EQ(check_sprt_parameters(0, 50, -0.1, 0.05), "alpha must be in (0, 0.5), not -0.1");
  EXPECT_EQ(check_sprt_parameters(50, 0, 0.05, 0.05), "elo0 (50) must be below elo1 (0)");
  EXPECT_EQ(check_sprt_parameters(10, 10, 0.05, 0.05), "elo0 (10) must be below elo1 (10)");
  EXPECT_EQ(check_sprt_parameters(0, std::nan(""), 0.05, 0.05), "elo0 and elo1 must be numbers");
}

}  // namespace
}  // namespace quax
