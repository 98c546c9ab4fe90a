// The time-to-strength curve: scores and their Wilson intervals, the first time a target is
// reached, and the CSV/SVG forms.
#include <gtest/gtest.h>

#include <sstream>

#include "arena/strength_curve.h"

namespace quax {
namespace {

TEST(StrengthCurve, WilsonIntervalsMatchPublishedValues) {
  // Newcombe (1998), table I: 0/10 -> [0, 0.2775]; 9/10 -> [0.5958, 0.9821].
  auto s = score_interval(0, 0, 10);
  EXPECT_DOUBLE_EQ(s.score, 0.0);
  EXPECT_NEAR(s.low, 0.0, 1e-9);
  EXPECT_NEAR(s.high, 0.2775, 1e-4);
  s = score_interval(9, 0, 1);
  EXPECT_DOUBLE_EQ(s.score, 0.9);
  EXPECT_NEAR(s.low, 0.5958, 1e-4);
  EXPECT_NEAR(s.high, 0.9821, 1e-4);
  // A perfect score still has room below it, and never above 1.
  s = score_interval(20, 0, 0);
  EXPECT_DOUBLE_EQ(s.high, 1.0);
  EXPECT_NEAR(s.low, 0.8389, 1e-4);
}

TEST(StrengthCurve, DrawsCountHalf) {
  const auto with_draws = score_interval(45, 10, 45), without = score_interval(50, 0, 50);
  EXPECT_DOUBLE_EQ(with_draws.score, 0.5);
  EXPECT_DOUBLE_EQ(with_draws.low, without.low);
  EXPECT_EQ(score_interval(0, 0, 0).score, 0.0);
}

TEST(StrengthCurve, MinutesToTargetIsTheEarliestPointAtOrAboveIt) {
  // Out of order on purpose, with a later dip: the first crossing in time counts.
  std::vector<StrengthPoint> points = {
      {10, 400, 19, 0, 1}, {2.5, 100, 3, 0, 17}, {7.5, 300, 17, 0, 3}, {5, 200, 18, 0, 2}};
  EXPECT_DOUBLE_EQ(minutes_to_target(points, 0.9), 5);    // 18/20 is exactly 0.9
  EXPECT_DOUBLE_EQ(minutes_to_target(points, 0.95), 10);
  EXPECT_DOUBLE_EQ(minutes_to_target(points, 0.1), 2.5);  // 3/20 = 0.15
  EXPECT_DOUBLE_EQ(minutes_to_target(points, 0.99), -1);
  // A point without games never reaches anything.
  EXPECT_DOUBLE_EQ(minutes_to_target({{1, 0, 0, 0, 0}}, 0.0), -1);
}

TEST(StrengthCurve, CsvHasOneSortedRowPerPoint) {
  std::vector<StrengthPoint> points = {{5, 200, 18, 0, 2, 11}, {2.5, 100, 3, 2, 15, 20}};
  points[0].model_seconds = 0.25;
  points[0].opponent_seconds = 1.5;
  const std::string csv = strength_csv(points);
  std::istringstream in(csv);
  std::string header, first, second, extra;
  std::getline(in, header);
  std::getline(in, first);
  std::getline(in, second);
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_EQ(header, "minutes,step,games,wins,draws,losses,score,low,high,distinct,model_s_move,opponent_s_move");
  EXPECT_EQ(first.substr(0, first.find(",0.")), "2.5,100,20,3,2,15");
  EXPECT_EQ(second.substr(0, 22), "5,200,20,18,0,2,0.9000");
  EXPECT_NE(first.find(",20,0.0000,0.0000"), std::string::npos);  // distinct, then no timed moves
  EXPECT_NE(second.find(",11,0.2500,1.5000"), std::string::npos);
}

TEST(StrengthCurve, SvgDrawsEveryPointAndTheTarget) {
  const std::string svg = strength_svg({{2.5, 100, 3, 0, 17}, {5, 200, 18, 0, 2}, {7.5, -1, 0, 0, 0}}, 0.9, "t");
  size_t circles = 0;
  for (size_t at = svg.find("<circle"); at != std::string::npos; at = svg.find("<circle", at + 1)) ++circles;
  EXPECT_EQ(circles, 2u);  // the point without games is not drawn
  EXPECT_NE(svg.find("target (90)"), std::string::npos);
  EXPECT_NE(svg.find("training minutes"), std::string::npos);
}

}  // namespace
}  // namespace quax
