#include "env/board_layout.h"

#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/hex_geometry.h"
#include "env/move_text.h"

namespace quax {
namespace {

constexpr double kSqrt3 = 1.7320508075688772;
constexpr double kM = kLayoutMargin;

std::vector<LayoutPoint> regular_polygon(LayoutPoint c, int corners, double radius, double first_angle) {
  std::vector<LayoutPoint> out;
  for (int i = 0; i < corners; ++i) {
    const double a = first_angle + 2.0 * M_PI * i / corners;
    out.push_back({c.x + radius * std::cos(a), c.y + radius * std::sin(a)});
  }
  return out;
}

std::vector<LayoutPoint> unit_square(LayoutPoint c) {
  return {{c.x - 0.5, c.y - 0.5}, {c.x + 0.5, c.y - 0.5}, {c.x + 0.5, c.y + 0.5}, {c.x - 0.5, c.y + 0.5}};
}

// The octagon of the 4.8.8 tiling in a unit square: corners cut so that the gaps between
// four octagons are squares.
std::vector<LayoutPoint> octagon(LayoutPoint c) {
  const double h = 0.5 / (1.0 + std::sqrt(2.0));  // half a side
  return {{c.x - h, c.y - 0.5}, {c.x + h, c.y - 0.5}, {c.x + 0.5, c.y - h}, {c.x + 0.5, c.y + h},
          {c.x + h, c.y + 0.5}, {c.x - h, c.y + 0.5}, {c.x - 0.5, c.y + h}, {c.x - 0.5, c.y - h}};
}

// Square grids (the quax family, quikquax, torax, stymie): cell (row r, column c) centred at
// (c + 1/2, N - r - 1/2), plus the margin.
class SquareGrid {
 public:
  explicit SquareGrid(int n) : n_(n) {}
  LayoutPoint center(int r, int c) const { return {kM + c + 0.5, kM + (n_ - 1 - r) + 0.5}; }
  // A link from cell (r1, c1) towards (r1 + dr, c1 + dc); on the torus it may leave the
  // board, and is then drawn as two halves, one at each end.
  std::vector<LayoutSegment> link(int r, int c, int dr, int dc, bool torus) const {
    const int r2 = r + dr, c2 = c + dc;
    const LayoutPoint a = center(r, c);
    if (!torus || (r2 >= 0 && r2 < n_ && c2 >= 0 && c2 < n_)) return {{a, center(r2, c2)}};
    const LayoutPoint b = center((r2 + n_) % n_, (c2 + n_) % n_);
    return {{a, LayoutPoint{a.x + 0.5 * dc, a.y - 0.5 * dr}}, {b, LayoutPoint{b.x - 0.5 * dc, b.y + 0.5 * dr}}};
  }
  void add_coordinates(BoardLayout* out) const {
    for (int c = 0; c < n_; ++c) out->coordinates.push_back({column_letter(c), {kM + c + 0.5, kM + n_ + 0.45}});
    for (int r = 0; r < n_; ++r) out->coordinates.push_back({std::to_string(r + 1), {kM - 0.45, center(r, 0).y}});
  }
  void add_goals(BoardLayout* out) const {
    const double lo = kM, hi = kM + n_;
    out->goals.push_back({Player::kBlack, {{LayoutPoint{lo, lo}, LayoutPoint{hi, lo}}, {LayoutPoint{lo, hi}, LayoutPoint{hi, hi}}}});
    out->goals.push_back({Player::kWhite, {{LayoutPoint{lo, lo}, LayoutPoint{lo, hi}}, {LayoutPoint{hi, lo}, LayoutPoint{hi, hi}}}});
  }

 private:
  int n_;
};

void square_layout(const GameState& start, BoardLayout* out) {
  const int n = start.size(), nn = n * n;
  const BoardShape shape = variant_info(start.spec().variant).shape;
  const bool torus = shape == BoardShape::kTorus, stymie = shape == BoardShape::kOctagons;
  const SquareGrid grid(n);
  out->width = out->height = n + 2 * kM;
  out->wrap = torus;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) {
      const LayoutPoint at = grid.center(r, c);
      const int a = r * n + c;
      out->items.push_back({a, LayoutItem::Kind::kCell, stymie ? octagon(at) : unit_square(at), {}, at,
                            start.action_to_string(a)});
    }
  // Blocks: named by their south-west cell; the last row and column hold none except on the torus.
  const int blocks = torus ? n : n - 1;
  for (int plane = 1; plane < start.spatial_planes(); ++plane)
    for (int r = 0; r < blocks; ++r)
      for (int c = 0; c < blocks; ++c) {
        const int a = plane * nn + r * n + c;
        LayoutItem item{a, stymie ? LayoutItem::Kind::kSquare : LayoutItem::Kind::kLink, {}, {}, {},
                        start.action_to_string(a)};
        const LayoutPoint corner{grid.center(r, c).x + 0.5, grid.center(r, c).y - 0.5};
        item.center = corner;
        if (stymie) {
          item.polygon = regular_polygon(corner, 4, 0.5 / (1.0 + std::sqrt(2.0)) * std::sqrt(2.0), 0.0);
        } else if (plane == 1) {  // `/`: south-west to north-east
          item.segments = grid.link(r, c, 1, 1, torus);
        } else {  // `\`: south-east to north-west
          item.segments = grid.link(r, (c + 1) % n, 1, -1, torus);
        }
        out->items.push_back(std::move(item));
      }
  grid.add_coordinates(out);
  if (!torus) grid.add_goals(out);
}

// The side bits of `cell` in game `game` (HexGeometry::Member::sides), 0 when the cell is
// not in that game or on none of its sides.
uint8_t sides_in_game(const HexGeometry& geo, int game, int cell) {
  for (int m = geo.member_begin[cell]; m < geo.member_begin[cell + 1]; ++m)
    if (geo.members[m].game == game) return geo.members[m].sides;
  return 0;
}

// BoardLayout::games of a quadrant board; `at` holds the centre of every on-board cell.
void add_games(const HexGeometry& geo, const std::vector<LayoutPoint>& at, BoardLayout* out) {
  if (geo.games.size() < 2) return;
  const double half_edge = 0.5 / kSqrt3;  // half a hexagon's side when neighbours are 1 apart
  for (size_t g = 0; g < geo.games.size(); ++g) {
    const HexGeometry::Game& game = geo.games[g];
    BoardLayout::Game drawn;
    drawn.level = game.level;
    for (int cell : game.cells) {
      drawn.center.x += at[cell].x / static_cast<double>(game.cells.size());
      drawn.center.y += at[cell].y / static_cast<double>(game.cells.size());
    }
    if (game.level > 0 && geo.triangle) {
      // Its corners are the cells on two of its sides; every two corners share a side.
      std::vector<LayoutPoint> corners;
      for (int cell : game.cells) {
        const uint8_t s = sides_in_game(geo, static_cast<int>(g), cell);
        if ((s & 1) + ((s >> 1) & 1) + ((s >> 2) & 1) >= 2) corners.push_back(at[cell]);
      }
      if (corners.size() == 3)
        drawn.sides = {LayoutSegment{corners[0], corners[1]}, LayoutSegment{corners[1], corners[2]},
                       LayoutSegment{corners[2], corners[0]}};
    } else if (game.level > 0) {
      std::vector<uint8_t> in_game(geo.nn, 0);
      for (int cell : game.cells) in_game[cell] = 1;
      for (int cell : game.cells)
        for (int i = 0; i < geo.neighbour_count[cell]; ++i) {
          const int other = geo.neighbours[cell][i];
          if (in_game[other]) continue;
          // The edge two neighbouring hexagons share: through the midpoint of their centres,
          // perpendicular to the line joining them (which is 1 long).
          const LayoutPoint a = at[cell], b = at[other];
          const LayoutPoint mid{(a.x + b.x) / 2, (a.y + b.y) / 2};
          const double dx = -(b.y - a.y) * half_edge, dy = (b.x - a.x) * half_edge;
          drawn.sides.push_back({LayoutPoint{mid.x - dx, mid.y - dy}, LayoutPoint{mid.x + dx, mid.y + dy}});
        }
    }
    out->games.push_back(std::move(drawn));
  }
}

void hex_layout(const GameState& start, BoardLayout* out) {
  const int n = start.size();
  const auto geo = HexGeometry::get(start.spec().variant, n);
  const double row_step = kSqrt3 / 2.0, radius = 1.0 / kSqrt3;
  // Rhombus: x = column, y = row - 1 (south first), each row shifted half a cell east of the
  // one below. Triangle: y counted from the apex at the top, row y holding x = 0..y.
  auto center = [&](int x, int y) -> LayoutPoint {
    if (geo->triangle) return {kM + 0.5 * (n - 1) + x - 0.5 * y + 0.5, kM + y * row_step + 0.5};
    return {kM + x + 0.5 * y + 0.5, kM + (n - 1 - y) * row_step + 0.5};
  };
  out->width = geo->triangle ? n + 2 * kM : n + 0.5 * (n - 1) + 2 * kM;
  out->height = (n - 1) * row_step + 1.0 + 2 * kM;
  std::vector<LayoutPoint> centers(geo->nn);
  for (int cell : geo->board_cells) {
    const LayoutPoint at = center(cell % n, cell / n);
    centers[cell] = at;
    auto hexagon = regular_polygon(at, 6, radius, M_PI / 6.0);
    if (!geo->triangle && geo->shade[cell]) out->shaded_cells.push_back(hexagon);
    out->items.push_back({cell, LayoutItem::Kind::kCell, std::move(hexagon), {}, at, start.action_to_string(cell)});
  }
  add_games(*geo, centers, out);
  if (geo->triangle) {  // letters along the base, rows numbered from the apex
    for (int x = 0; x < n; ++x) {
      const LayoutPoint p = center(x, n - 1);
      out->coordinates.push_back({column_letter(x), {p.x, p.y + 0.95}});
    }
    for (int y = 0; y < n; ++y) {
      const LayoutPoint p = center(0, y);
      out->coordinates.push_back({std::to_string(y + 1), {p.x - 0.95, p.y}});
    }
    return;
  }
  for (int x = 0; x < n; ++x) {
    const LayoutPoint p = center(x, 0);
    out->coordinates.push_back({column_letter(x), {p.x, p.y + 0.95}});
  }
  for (int y = 0; y < n; ++y) {
    const LayoutPoint p = center(0, y);
    out->coordinates.push_back({std::to_string(y + 1), {p.x - 0.95, p.y}});
  }
  // Goal edges just outside the outer cells: Black the south and north rows, White the west
  // and east columns.
  const double off = 0.62;
  auto shifted = [](LayoutPoint p, double dx, double dy) { return LayoutPoint{p.x + dx, p.y + dy}; };
  out->goals.push_back(
      {Player::kBlack,
       {{shifted(center(0, 0), -0.5, off), shifted(center(n - 1, 0), 0.5, off)},
        {shifted(center(0, n - 1), -0.5, -off), shifted(center(n - 1, n - 1), 0.5, -off)}}});
  out->goals.push_back(
      {Player::kWhite,
       {{shifted(center(0, 0), -off, 0.3), shifted(center(0, n - 1), -off, -0.3)},
        {shifted(center(n - 1, 0), off, 0.3), shifted(center(n - 1, n - 1), off, -0.3)}}});
}

}  // namespace

BoardLayout board_layout(const GameSpec& spec) {
  const auto start = new_game(spec);
  BoardLayout out;
  if (is_hex_variant(spec.variant))
    hex_layout(*start, &out);
  else
    square_layout(*start, &out);
  return out;
}

}  // namespace quax
