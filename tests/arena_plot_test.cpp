// The ladder's SVG plot: nice tick steps, every point and error bar drawn where its values
// say, baselines labelled, and text escaped.
#include <gtest/gtest.h>

#include <regex>

#include "arena/elo_plot.h"

namespace quax {
namespace {

int count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

void expect_ticks(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-12) << i;
}

TEST(NiceTicks, StepsOfOneTwoOrFiveCoveringTheRange) {
  expect_ticks(nice_ticks(0, 1000, 5), {0, 200, 400, 600, 800, 1000});
  expect_ticks(nice_ticks(-130, 470, 6), {-200, -100, 0, 100, 200, 300, 400, 500});
  expect_ticks(nice_ticks(0.2, 0.9, 4), {0.2, 0.4, 0.6, 0.8, 1.0});
  expect_ticks(nice_ticks(5, 5, 4), {4, 4.5, 5, 5.5, 6});
}

TEST(EloCurveSvg, PointsErrorBarsAxesAndReferences) {
  const std::vector<CurvePoint> points = {{200, 150, 40}, {0, -20, 30}, {400, 300, 50}};
  const std::string svg = elo_curve_svg(points, {{"random", 0}, {"uct:<200>", 250}}, "quax 7x7 & co");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  EXPECT_EQ(count(svg, "<circle"), 3);
  EXPECT_EQ(count(svg, "class=\"errorbar\""), 3);
  EXPECT_EQ(count(svg, "class=\"curve\""), 1);
  EXPECT_NE(svg.find("quax 7x7 &amp; co"), std::string::npos);
  EXPECT_NE(svg.find("uct:&lt;200&gt; (250)"), std::string::npos);
  EXPECT_NE(svg.find(">training step</text>"), std::string::npos);
  EXPECT_NE(svg.find(">Elo</text>"), std::string::npos);
  // x ticks 0..400 by 100 and y ticks -100..400 (covering -50..350) are labelled.
  for (const char* label : {">0</text>", ">100</text>", ">400</text>", ">-100</text>", ">300</text>"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  // The point of step 200 lies halfway between those of steps 0 and 400 in x, and the
  // higher Elo is drawn higher (smaller y).
  std::regex circle("<circle cx=\"([0-9.]+)\" cy=\"([0-9.]+)\"");
  std::vector<std::pair<double, double>> xy;
  for (std::sregex_iterator it(svg.begin(), svg.end(), circle), end; it != end; ++it)
    xy.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  ASSERT_EQ(xy.size(), 3u);  // sorted by step
  EXPECT_NEAR(xy[1].first, (xy[0].first + xy[2].first) / 2, 0.11);
  EXPECT_GT(xy[0].second, xy[1].second);
  EXPECT_GT(xy[1].second, xy[2].second);
  // Error bar of the first point: from elo - 30 to elo + 30, symmetric about the point.
  std::regex bar("<g class=\"errorbar\" stroke=\"#1f77b4\"><line x1=\"[0-9.]+\" y1=\"([0-9.]+)\" x2=\"[0-9.]+\" y2=\"([0-9.]+)\"");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, bar));
  EXPECT_NEAR((std::stod(m[1]) + std::stod(m[2])) / 2, xy[0].second, 0.11);
}

TEST(EloCurveSvg, EmptyCurveStillHasAxes) {
  const std::string svg = elo_curve_svg({}, {}, "nothing yet");
  EXPECT_EQ(count(svg, "<circle"), 0);
  EXPECT_NE(svg.find("class=\"axes\""), std::string::npos);
}

}  // namespace
}  // namespace quax
