#include "arena/elo_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace quax {

std::vector<double> nice_ticks(double lo, double hi, int target) {
  if (hi - lo < 1e-9) {
    lo -= 1;
    hi += 1;
  }
  const double raw = (hi - lo) / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  // From the multiple of `step` at or below lo to the one at or above hi, so that axes
  // drawn over the ticks end on labelled values.
  std::vector<double> out;
  const long first = static_cast<long>(std::floor(lo / step + 1e-9)), last = static_cast<long>(std::ceil(hi / step - 1e-9));
  for (long k = first; k <= last; ++k) out.push_back(static_cast<double>(k) * step);
  return out;
}

namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string number(double v) {
  if (std::abs(v) >= 1e6) return fmt::format("{:.3g}", v);
  return std::abs(v - std::round(v)) < 1e-9 ? fmt::format("{:.0f}", v) : fmt::format("{:g}", v);
}

}  // namespace

std::string elo_curve_svg(const std::vector<CurvePoint>& points, const std::vector<ReferenceLine>& references,
                          const std::string& title, const std::string& x_label, const std::string& y_label) {
  const double width = 720, height = 440, left = 70, right = 150, top = 40, bottom = 60;
  const double pw = width - left - right, ph = height - top - bottom;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 100;
  bool first = true;
  for (const auto& p : points) {
    x_lo = first ? p.x : std::min(x_lo, p.x);
    x_hi = first ? p.x : std::max(x_hi, p.x);
    y_lo = first ? p.lower() : std::min(y_lo, p.lower());
    y_hi = first ? p.upper() : std::max(y_hi, p.upper());
    first = false;
  }
  for (const auto& r : references) {
    y_lo = std::min(y_lo, r.elo);
    y_hi = std::max(y_hi, r.elo);
  }
  if (x_hi - x_lo < 1e-9) x_lo -= 1, x_hi += 1;
  const auto xt = nice_ticks(x_lo, x_hi), yt = nice_ticks(y_lo, y_hi);
  // The axes span the ticks, so every tick sits on the frame.
  x_lo = std::min(x_lo, xt.front()), x_hi = std::max(x_hi, xt.back());
  y_lo = std::min(y_lo, yt.front()), y_hi = std::max(y_hi, yt.back());
  auto sx = [&](double x) { return left + (x - x_lo) / (x_hi - x_lo) * pw; };
  auto sy = [&](double y) { return top + (1 - (y - y_lo) / (y_hi - y_lo)) * ph; };

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{0}\" height=\"{1}\" fill=\"white\"/>\n",
      width, height);
  s += fmt::format("<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>\n", left + pw / 2,
                   escape(title));
  s += "<g class=\"axes\" stroke=\"black\">\n";
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\"/>\n", left, top + ph, left + pw);
  s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\"/>\n", left, top, top + ph);
  s += "</g>\n<g class=\"ticks\" font-size=\"11\">\n";
  for (double t : xt) {
    const double x = sx(t);
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"black\"/>", x, top + ph,
                     top + ph + 5);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", x, top + ph + 18, number(t));
  }
  for (double t : yt) {
    const double y = sy(t);
    s += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>", left, y,
                     left + pw);
    s += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"black\"/>", left - 5, y,
                     left);
    s += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 8, y + 4, number(t));
  }
  s += "</g>\n";
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", left + pw / 2, height - 15,
                   escape(x_label));
  s += fmt::format("<text x=\"18\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 18 {0})\">{1}</text>\n",
                   top + ph / 2, escape(y_label));
  s += "<g class=\"references\">\n";
  for (const auto& r : references) {
    const double y = sy(r.elo);
    s += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#888\" stroke-dasharray=\"6 4\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" fill=\"#555\">{5} ({6:.0f})</text>\n",
        left, y, left + pw, left + pw + 6, y + 4, escape(r.label), r.elo);
  }
  s += "</g>\n";
  std::vector<CurvePoint> sorted = points;
  std::sort(sorted.begin(), sorted.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.x < b.x; });
  if (sorted.size() > 1) {
    s += "<polyline class=\"curve\" fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"";
    for (const auto& p : sorted) s += fmt::format("{:.1f},{:.1f} ", sx(p.x), sy(p.elo));
    s += "\"/>\n";
  }
  s += "<g class=\"points\">\n";
  for (const auto& p : sorted) {
    const double x = sx(p.x);
    if (p.upper() > p.lower())
      s += fmt::format(
          "<g class=\"errorbar\" stroke=\"#1f77b4\"><line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>"
          "<line x1=\"{3:.1f}\" y1=\"{1:.1f}\" x2=\"{4:.1f}\" y2=\"{1:.1f}\"/>"
          "<line x1=\"{3:.1f}\" y1=\"{2:.1f}\" x2=\"{4:.1f}\" y2=\"{2:.1f}\"/></g>",
          x, sy(p.lower()), sy(p.upper()), x - 4, x + 4);
    s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"#1f77b4\"><title>{} {}: {:.0f} [{:.0f}, {:.0f}]</title></circle>\n",
                     x, sy(p.elo), escape(x_label), number(p.x), p.elo, p.lower(), p.upper());
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace quax
