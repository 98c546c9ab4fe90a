#include "solve/connection_distance.h"

#include <algorithm>
#include <vector>

namespace quax {

int connection_distance(const SquareGame& game, Player p) {
  const int n = game.size();
  const Variant v = game.spec().variant;
  const bool link_moves = v == Variant::kQuax || v == Variant::kLink;
  const bool diagonals = v != Variant::kQuadrex;
  // Black runs from row 0 to row n-1; White from column 0 to column n-1. Work in a frame
  // where the player runs along y: (x, y) is (c, r) for Black and (r, c) for White.
  const bool black = p == Player::kBlack;
  auto cell_of = [&](int x, int y, int* c, int* r) {
    *c = black ? x : y;
    *r = black ? y : x;
  };
  auto entry = [&](int x, int y) {  // cost of standing on the cell
    int c, r;
    cell_of(x, y, &c, &r);
    const Player s = game.stone(c, r);
    return s == p ? 0 : (s == Player::kNone ? 1 : kNoPath);
  };
  // Extra cost of the diagonal from (x, y) to (x + dx, y + dy).
  auto diagonal = [&](int x, int y, int dx, int dy) {
    if (!diagonals) return kNoPath;
    if (v == Variant::kCrossway) return 0;
    int c1, r1, c2, r2;
    cell_of(x, y, &c1, &r1);
    cell_of(x + dx, y + dy, &c2, &r2);
    const int bc = std::min(c1, c2), br = std::min(r1, r2);
    const int want = (c2 - c1) == (r2 - r1) ? 0 : 1;  // `/` or `\`
    int d = 0;
    const Player owner = game.link_on(bc, br, &d);
    if (owner == Player::kNone) return link_moves ? 1 : 0;
    return owner == p && d == want ? 0 : kNoPath;
  };
  thread_local std::vector<int> dist;
  dist.assign(static_cast<size_t>(n * n), kNoPath);
  // A bucket queue (costs are small integers), kept between calls: this runs at every leaf.
  thread_local std::vector<std::vector<int>> buckets;
  buckets.resize(static_cast<size_t>(2 * n * n + 4));
  for (auto& b : buckets) b.clear();
  for (int x = 0; x < n; ++x) {
    const int e = entry(x, 0);
    if (e < kNoPath) {
      dist[x] = e;
      buckets[e].push_back(x);
    }
  }
  for (size_t b = 0; b < buckets.size(); ++b) {
    for (size_t i = 0; i < buckets[b].size(); ++i) {
      const int id = buckets[b][i];
      if (dist[id] != static_cast<int>(b)) continue;
      const int x = id % n, y = id / n;
      if (y == n - 1) return static_cast<int>(b);
      for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
          if (dx == 0 && dy == 0) continue;
          const int nx = x + dx, ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= n || ny >= n) continue;
          const int step = (dx != 0 && dy != 0) ? diagonal(x, y, dx, dy) : 0;
          if (step >= kNoPath) continue;
          const int e = entry(nx, ny);
          if (e >= kNoPath) continue;
          const int nd = static_cast<int>(b) + step + e;
          const int nid = ny * n + nx;
          if (nd < dist[nid] && nd < static_cast<int>(buckets.size())) {
            dist[nid] = nd;
            buckets[nd].push_back(nid);
          }
        }
      }
    }
  }
  return kNoPath;
}

}  // namespace quax
