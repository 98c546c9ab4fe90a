// The Elo-over-training curve of `quax ladder` as a self-contained SVG file: axes with
// ticks and labels, one point per model with its 95% interval as an error bar, and
// baselines as labelled horizontal dashed lines. No plotting library needed.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace quax {

struct CurvePoint {
  double x = 0;     // training step
  double elo = 0;   // the y value
  double ci95 = 0;  // half-width of the 95% interval (0: none drawn)
  // An interval that is not symmetric (e.g. Wilson's for a score): drawn instead of ci95
  // when both are set.
  double low = std::numeric_limits<double>::quiet_NaN(), high = std::numeric_limits<double>::quiet_NaN();

  double lower() const { return std::isnan(low) || std::isnan(high) ? elo - ci95 : low; }
  double upper() const { return std::isnan(low) || std::isnan(high) ? elo + ci95 : high; }
};

struct ReferenceLine {
  std::string label;  // e.g. "uct:200"
  double elo = 0;
};

// `points` sorted by x or not; an empty list gives a plot with axes only.
std::string elo_curve_svg(const std::vector<CurvePoint>& points, const std::vector<ReferenceLine>& references,
                          const std::string& title, const std::string& x_label = "training step",
                          const std::string& y_label = "Elo");

// Tick values at a step of 1, 2 or 5 times a power of ten, about `target` intervals, from
// the last tick at or below lo to the first at or above hi. Precondition: lo <= hi.
std::vector<double> nice_ticks(double lo, double hi, int target = 6);

}  // namespace quax
