#include "arena/balance_map_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "env/board_layout.h"

namespace quax {
namespace {

constexpr double kScale = 48;         // pixels per board unit
constexpr double kLegendHeight = 84;  // pixels below the board for the legend
constexpr double kTitleHeight = 28;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string proof_mark(GameValue v) {
  switch (v) {
    case GameValue::kWin:
      return "W";
    case GameValue::kLoss:
      return "L";
    case GameValue::kDraw:
      return "D";
    default:
      return "";
  }
}

}  // namespace

std::string value_colour(double value) {
  const double v = std::clamp(std::isfinite(value) ? value : 0.0, -1.0, 1.0);
  // From white towards red (215, 48, 39) below 0 and towards blue (33, 102, 172) above.
  const int to[3] = {v < 0 ? 215 : 33, v < 0 ? 48 : 102, v < 0 ? 39 : 172};
  const double t = std::abs(v);
  int rgb[3];
  for (int i = 0; i < 3; ++i) rgb[i] = static_cast<int>(std::lround(255 + t * (to[i] - 255)));
  return fmt::format("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2]);
}

std::string opening_map_svg(const GameSpec& spec, const std::vector<OpeningValue>& openings, const std::string& title) {
  const BoardLayout layout = board_layout(spec);
  std::map<int, const OpeningValue*> by_action;
  for (const OpeningValue& o : openings) by_action[o.action] = &o;
  const double width = std::max(layout.width * kScale, 440.0);
  const double board_left = (width - layout.width * kScale) / 2;
  const double height = kTitleHeight + layout.height * kScale + kLegendHeight;
  auto x_of = [&](const LayoutPoint& p) { return board_left + p.x * kScale; };
  auto y_of = [&](const LayoutPoint& p) { return kTitleHeight + p.y * kScale; };
  auto px = [&](const LayoutPoint& p) { return fmt::format("{:.1f},{:.1f}", x_of(p), y_of(p)); };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" viewBox=\"0 0 {:.0f} {:.0f}\" "
      "font-family=\"sans-serif\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{:.1f}\" y=\"19\" font-size=\"13\" text-anchor=\"middle\">{}</text>\n",
      width, height, width, height, width / 2, escape(title));
  // The goal edges under the cells, thick, in each player's colour.
  for (const auto& [player, segments] : layout.goals)
    for (const LayoutSegment& s : segments) {
      svg += fmt::format(
          "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"6\"/>\n",
          x_of(s[0]), y_of(s[0]), x_of(s[1]), y_of(s[1]), player == Player::kBlack ? "#222222" : "#bbbbbb");
    }
  for (const LayoutItem& item : layout.items) {
    if (item.polygon.empty()) continue;  // links: no first move is one
    const auto it = by_action.find(item.action);
    std::string points;
    for (const LayoutPoint& p : item.polygon) points += (points.empty() ? "" : " ") + px(p);
    const std::string fill = it == by_action.end() ? "#e6e6e6" : value_colour(it->second->value);
    svg += fmt::format("<polygon points=\"{}\" fill=\"{}\" stroke=\"#666666\" stroke-width=\"1\">", points, fill);
    if (it != by_action.end())
      svg += fmt::format("<title>{} {:+.2f}</title>", escape(it->second->move), it->second->value);
    svg += "</polygon>\n";
    if (it == by_action.end()) continue;
    const double cx = board_left + item.center.x * kScale, cy = kTitleHeight + item.center.y * kScale;
    // Dark cells take white writing.
    const char* ink = std::abs(it->second->value) > 0.6 ? "#ffffff" : "#000000";
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"13\" text-anchor=\"middle\" fill=\"{}\">{:+.0f}</text>\n", cx,
        cy + 1, ink, 100 * it->second->value);
    const std::string mark = proof_mark(it->second->proven);
    if (!mark.empty())
      svg += fmt::format(
          "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" font-weight=\"bold\" "
          "text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
          cx, cy + 14, ink, mark);
  }
  for (const auto& label : layout.coordinates)
    svg += fmt::format(
        "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" fill=\"#555555\" text-anchor=\"middle\" "
        "dominant-baseline=\"middle\">{}</text>\n",
        board_left + label.at.x * kScale, kTitleHeight + label.at.y * kScale, escape(label.text));
  // The legend: the scale from -1 to +1 in 21 steps, labelled.
  const double ly = kTitleHeight + layout.height * kScale + 14, lx = width / 2 - 150, step = 300.0 / 21;
  for (int i = 0; i < 21; ++i)
    svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"14\" fill=\"{}\"/>\n", lx + i * step,
                       ly, step + 0.5, value_colour(-1.0 + i / 10.0));
  svg += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"300\" height=\"14\" fill=\"none\" stroke=\"#666666\"/>\n",
                     lx, ly);
  for (const auto& [at, anchor, text] : {std::tuple<double, const char*, const char*>{0, "start", "-1 loses"},
                                         {150, "middle", "0"},
                                         {300, "end", "+1 wins"}})
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"{}\">{}</text>\n", lx + at,
                       ly + 27, anchor, text);
  svg += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">value of the first move "
      "for the player who made it (search)</text>\n",
      width / 2, ly + 44);
  svg += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-size=\"11\" text-anchor=\"middle\">W, L, D: proven by the "
      "solver (win, loss, draw)</text>\n",
      width / 2, ly + 59);
  svg += "</svg>\n";
  return svg;
}

}  // namespace quax
