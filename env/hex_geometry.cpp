#include "env/hex_geometry.h"
#include "env/rng.h"

#include <map>
#include <mutex>
#include <utility>

namespace quax {

namespace {

// A game under construction: its cells with their side bits.
using Region = std::vector<std::pair<int16_t, uint8_t>>;

// Rhombus quadrants: columns [x0, x1], rows [y0, y1], cut into four halves of equal size.
void add_rhombus_games(int n, int x0, int x1, int y0, int y1, int level, int depth,
                       std::vector<std::pair<int, Region>>* out) {
  Region region;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      region.emplace_back(static_cast<int16_t>(y * n + x),
                          static_cast<uint8_t>((y == y0 ? 1 : 0) | (y == y1 ? 2 : 0) | (x == x0 ? 4 : 0) |
                                               (x == x1 ? 8 : 0)));
  out->emplace_back(level, std::move(region));
  if (level == depth) return;
  const int hx = (x1 - x0 + 1) / 2, hy = (y1 - y0 + 1) / 2;
  for (int qy = 0; qy < 2; ++qy)
    for (int qx = 0; qx < 2; ++qx)
      add_rhombus_games(n, x0 + qx * hx, x0 + qx * hx + hx - 1, y0 + qy * hy, y0 + qy * hy + hy - 1, level + 1,
                        depth, out);
}

// Triangle games in barycentric coordinates: an upright triangle is {a >= k[0], b >= k[1],
// c >= k[2]}, an upside-down one {a <= k[0], ...}; its sides are the lines coordinate = k[i].
// docs/RULES.md's split with h = (s+1)/2, m = h-1: the three corner triangles move one bound by m
// towards the inside, the centre one (of the other orientation) has every bound m inside.
void add_triangle_games(int n, bool upright, std::array<int, 3> k, int side, int level, int depth,
                        std::vector<std::pair<int, Region>>* out) {
  Region region;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x <= y; ++x) {
      const int coord[3] = {x, y - x, n - 1 - y};
      bool inside = true;
      uint8_t sides = 0;
      for (int i = 0; i < 3; ++i) {
        inside &= upright ? coord[i] >= k[i] : coord[i] <= k[i];
        if (coord[i] == k[i]) sides |= static_cast<uint8_t>(1 << i);
      }
      if (inside) region.emplace_back(static_cast<int16_t>(y * n + x), sides);
    }
  out->emplace_back(level, std::move(region));
  if (level == depth) return;
  const int m = (side - 1) / 2, sign = upright ? 1 : -1;
  for (int i = 0; i < 3; ++i) {
    std::array<int, 3> corner = k;
    corner[i] += sign * m;
    add_triangle_games(n, upright, corner, m + 1, level + 1, depth, out);
  }
  const std::array<int, 3> centre = {k[0] + sign * m, k[1] + sign * m, k[2] + sign * m};
  add_triangle_games(n, !upright, centre, m + 1, level + 1, depth, out);
}

}  // namespace

bool is_hex_variant(Variant v) {
  const BoardShape shape = variant_info(v).shape;
  return shape == BoardShape::kRhombus || shape == BoardShape::kTriangle;
}

HexGeometry::HexGeometry(Variant v, int size)
    : triangle(variant_info(v).shape == BoardShape::kTriangle),
      n(size),
      nn(size * size),
      depth(variant_info(v).split_depth) {
  on_board.assign(nn, 0);
  neighbours.resize(nn);
  neighbour_count.assign(nn, 0);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (!triangle || x <= y) on_board[y * n + x] = 1;
  // The six directions; the two diagonal ones differ between the shapes.
  const int dirs[2][6][2] = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}},
                             {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}}};
  for (int cell = 0; cell < nn; ++cell) {
    if (!on_board[cell]) continue;
    board_cells.push_back(static_cast<int16_t>(cell));
    const int x = cell % n, y = cell / n;
    for (const auto& d : dirs[triangle ? 1 : 0]) {
      const int nx = x + d[0], ny = y + d[1];
      if (nx < 0 || ny < 0 || nx >= n || ny >= n || !on_board[ny * n + nx]) continue;
      neighbours[cell][neighbour_count[cell]++] = static_cast<int16_t>(ny * n + nx);
    }
  }

  std::vector<std::pair<int, Region>> regions;
  if (triangle) {
    add_triangle_games(n, true, {0, 0, 0}, n, 0, depth, &regions);
    goal[0] = goal[1] = 7;
  } else {
    add_rhombus_games(n, 0, n - 1, 0, n - 1, 0, depth, &regions);
    goal[0] = 1 | 2;
    goal[1] = 4 | 8;
  }
  points_to_win = static_cast<int>(regions.size()) / 2 + 1;

  // Nodes numbered game by game; node_of[g][cell] = -1 when the cell is not in game g.
  std::vector<std::vector<int16_t>> node_of(regions.size(), std::vector<int16_t>(nn, -1));
  std::vector<std::vector<std::pair<int, uint8_t>>> per_cell(nn);  // (game, sides)
  border.assign(nn, 0);
  for (size_t g = 0; g < regions.size(); ++g) {
    Game game;
    game.level = regions[g].first;
    for (const auto& [cell, sides] : regions[g].second) {
      game.cells.push_back(cell);
      node_of[g][cell] = static_cast<int16_t>(num_nodes++);
      per_cell[cell].emplace_back(static_cast<int>(g), sides);
      if (game.level > 0 && sides != 0) border[cell] = 1;
    }
    games.push_back(std::move(game));
  }
  member_begin.assign(nn + 1, 0);
  for (int cell = 0; cell < nn; ++cell) {
    member_begin[cell] = static_cast<int32_t>(members.size());
    for (const auto& [g, sides] : per_cell[cell]) {
      Member m{};
      m.game = static_cast<int16_t>(g);
      m.node = node_of[g][cell];
      m.sides = sides;
      for (int i = 0; i < neighbour_count[cell]; ++i) {
        const int other = neighbours[cell][i];
        if (node_of[g][other] < 0) continue;
        m.nb_node[m.count] = node_of[g][other];
        m.nb_cell[m.count] = static_cast<int16_t>(other);
        ++m.count;
      }
      members.push_back(m);
    }
  }
  member_begin[nn] = static_cast<int32_t>(members.size());

  on_board_plane.assign(on_board.begin(), on_board.end());
  border_plane.assign(border.begin(), border.end());

  shade.assign(nn, 0);
  transposed.resize(nn);
  for (int cell = 0; cell < nn; ++cell) {
    const int x = cell % n, y = cell / n;
    transposed[cell] = static_cast<int16_t>(x * n + y);
    if (!triangle && depth > 0) {
      const int q = n >> depth;  // side of the finest quadrants
      shade[cell] = static_cast<uint8_t>(((x / q) + (y / q)) % 2);
    }
  }

  auto identity = [&] {
    std::vector<int16_t> p(nn);
    for (int i = 0; i < nn; ++i) p[i] = static_cast<int16_t>(i);
    return p;
  };
  symmetries.push_back(identity());
  if (triangle) {
    // (a, b, c) -> a permutation of it; x = a, y = N-1 - c.
    const int perms[5][3] = {{1, 0, 2}, {2, 1, 0}, {0, 2, 1}, {1, 2, 0}, {2, 0, 1}};
    for (const auto& p : perms) {
      std::vector<int16_t> map = identity();
      for (int cell : board_cells) {
        const int x = cell % n, y = cell / n;
        const int coord[3] = {x, y - x, n - 1 - y};
        const int a = coord[p[0]], c = coord[p[2]];
        map[cell] = static_cast<int16_t>((n - 1 - c) * n + a);
      }
      symmetries.push_back(std::move(map));
    }
  } else {
    std::vector<int16_t> half = identity();
    for (int cell = 0; cell < nn; ++cell) half[cell] = static_cast<int16_t>(nn - 1 - cell);
    symmetries.push_back(std::move(half));
  }

  stone_key.resize(nn * 2);
  uint64_t seed = 0x4E58A11ULL + static_cast<uint64_t>(n) * 131 + static_cast<uint64_t>(v);
  for (auto& k : stone_key) k = mix64(seed++);
}

std::shared_ptr<const HexGeometry> HexGeometry::get(Variant v, int n) {
  // One table per game, whatever the name it is played under: a rules file's copy of quady
  // keys its positions as quady does.
  v = rules_of(v);
  static std::mutex mu;
  static std::map<std::pair<int, int>, std::shared_ptr<const HexGeometry>> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto& g = cache[{static_cast<int>(v), n}];
  if (!g) g = std::make_shared<const HexGeometry>(v, n);
  return g;
}

}  // namespace quax
