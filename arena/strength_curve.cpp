#include "arena/strength_curve.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "arena/elo_plot.h"

namespace quax {
namespace {
// The standard normal quantile of 97.5%: two-sided 95% intervals.
constexpr double kZ95 = 1.959964;

std::vector<StrengthPoint> by_minutes(std::vector<StrengthPoint> points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const StrengthPoint& a, const StrengthPoint& b) { return a.minutes < b.minutes; });
  return points;
}

}  // namespace

ScoreInterval score_interval(int wins, int draws, int losses) {
  const double n = wins + draws + losses;
  if (n <= 0) return {};
  const double p = (wins + 0.5 * draws) / n, z = kZ95, z2 = z * z;
  // Wilson's interval: unlike p +/- z*sqrt(p(1-p)/n) it stays inside [0, 1] and is not
  // empty at a score of 0 or 1, which small matches against a weak or a strong side reach.
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {p, std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

double minutes_to_target(const std::vector<StrengthPoint>& points, double target) {
  for (const auto& p : by_minutes(points))
    if (p.games() > 0 && score_interval(p.wins, p.draws, p.losses).score >= target) return p.minutes;
  return -1;
}

std::string strength_csv(const std::vector<StrengthPoint>& points) {
  std::string out = "minutes,step,games,wins,draws,losses,score,low,high,distinct,model_s_move,opponent_s_move\n";
  for (const auto& p : by_minutes(points)) {
    const auto s = score_interval(p.wins, p.draws, p.losses);
    out += fmt::format("{:g},{},{},{},{},{},{:.4f},{:.4f},{:.4f},{},{:.4f},{:.4f}\n", p.minutes, p.step, p.games(), p.wins,
                       p.draws, p.losses, s.score, s.low, s.high, p.distinct, p.model_seconds, p.opponent_seconds);
  }
  return out;
}

std::string strength_svg(const std::vector<StrengthPoint>& points, double target, const std::string& title) {
  std::vector<CurvePoint> curve;
  for (const auto& p : by_minutes(points)) {
    if (p.games() == 0) continue;
    const auto s = score_interval(p.wins, p.draws, p.losses);
    CurvePoint c;
    c.x = p.minutes;
    c.elo = 100 * s.score;
    c.low = 100 * s.low;
    c.high = 100 * s.high;
    curve.push_back(c);
  }
  return elo_curve_svg(curve, {{"target", 100 * target}}, title, "training minutes", "score %");
}

}  // namespace quax
