#include "solve/connection_distance.h"

#include <cstdint>

#include "solve/edge_template.h"
#include "solve/two_way_join.h"

namespace quax {

namespace {
constexpr int kMaxCells = 26 * 26;
constexpr uint8_t kBlocked = 255;

// Both counts: with `bridges_free`, a diagonal of a free block costs nothing unless both of
// its crossing cells are the opponent's (quax and link), and in quickway and crossway a
// two-way join's second stone is reached from the first for nothing when neither route is the
// opponent's.
int distance(const SquareGame& game, Player p, bool bridges_free) {
  // This runs twice at every new leaf of the proof search: flat arrays, no allocation.
  const int n = game.size(), nn = n * n;
  const LinkRule links = variant_info(game.spec().variant).links;
  const bool link_moves = links == LinkRule::kChosen;
  const bool diagonals = links != LinkRule::kNone;
  const bool black = p == Player::kBlack;

  uint8_t cost[kMaxCells];  // to stand on a cell: 0 own stone, 1 empty, blocked
  for (int x = 0; x < nn; ++x) {
    const Player s = game.stone(x % n, x / n);
    cost[x] = s == p ? 0 : (s == Player::kNone ? 1 : kBlocked);
  }
  // To cross diagonal d (0 `/`, 1 `\`) of block b (its south-west cell): the link move in
  // quax and link, nothing where links come free or are not needed, blocked by any other link.
  uint8_t cross[2][kMaxCells];
  if (diagonals) {
    for (int r = 0; r + 1 < n; ++r) {
      for (int c = 0; c + 1 < n; ++c) {
        const int b = r * n + c;
        if (links == LinkRule::kDiagonal) {
          cross[0][b] = cross[1][b] = 0;
          continue;
        }
        int d = 0;
        const Player owner = game.link_on(c, r, &d);
        if (owner == Player::kNone) {
          cross[0][b] = cross[1][b] = link_moves ? 1 : 0;
          if (bridges_free) {
            // Diagonal 0 `/` crosses the block's south-east and north-west cells, 1 `\` the
            // south-west and north-east ones.
            const Player other = opponent(p);
            cross[0][b] = game.stone(c + 1, r) == other && game.stone(c, r + 1) == other ? 1 : 0;
            cross[1][b] = game.stone(c, r) == other && game.stone(c + 1, r + 1) == other ? 1 : 0;
          }
        } else {
          cross[d][b] = owner == p ? 0 : kBlocked;
          cross[1 - d][b] = kBlocked;
        }
      }
    }
  }

  // Dial's algorithm: one list of cells per distance, in flat arrays.
  static constexpr int kMaxDistance = 2 * kMaxCells + 4;
  static constexpr int kMaxPushes = 25 * kMaxCells;
  int dist[kMaxCells];
  int head[kMaxDistance];
  int next[kMaxPushes], node[kMaxPushes];
  int pushes = 0;
  for (int x = 0; x < nn; ++x) dist[x] = kNoPath;
  const int max_distance = 2 * nn + 2;
  for (int i = 0; i <= max_distance; ++i) head[i] = -1;
  auto push = [&](int x, int dd) {
    dist[x] = dd;
    node[pushes] = x;
    next[pushes] = head[dd];
    head[dd] = pushes++;
  };
  // Edge templates (solve/edge_template.h) count as made with bridges: a cell one or two rows
  // from an edge with a template there is as good as on that edge.
  auto at = [&](int along, int depth) { return black ? depth * n + along : along * n + depth; };
  auto has_template = [&](int along, int rows, bool start_side) {
    auto cell = [&](int a, int r) { return at(a, start_side ? r : n - 1 - r); };
    bool found = false;
    for_each_edge_template(
        n, along, rows, [&](int a, int r) { return cost[cell(a, r)] == 1; },  // cost 1: an empty cell
        [&](const int*, const int*, int) { found = true; });
    return found;
  };
  for (int i = 0; i < n; ++i) {
    const int x = at(i, 0);  // row 1 for Black, column a for White
    if (cost[x] != kBlocked) push(x, cost[x]);
  }
  // Cells one or two rows from the start edge here, from the end edge in the loop below.
  if (bridges_free) {
    for (int rows = 1; rows <= 2 && rows < n - 1; ++rows) {
      for (int i = 0; i < n; ++i) {
        const int x = at(i, rows);
        if (cost[x] != kBlocked && has_template(i, rows, true)) push(x, cost[x]);
      }
    }
  }
  for (int b = 0; b <= max_distance; ++b) {
    while (head[b] >= 0) {
      const int e = head[b];
      head[b] = next[e];
      const int x = node[e];
      if (dist[x] != b) continue;
      const int c = x % n, r = x / n;
      if (black ? r == n - 1 : c == n - 1) return b;
      const int from_end = n - 1 - (black ? r : c);
      if (bridges_free && (from_end == 1 || from_end == 2) && has_template(black ? c : r, from_end, false)) return b;
      if (pushes + 24 > kMaxPushes) return b;  // cannot happen: each cell settles once per improvement
      if (bridges_free && (links == LinkRule::kAutomatic || links == LinkRule::kDiagonal)) {
        for (const TwoWayJoin& j : two_way_joins()) {
          bool fits = true;
          for (int k = 0; k < 3 && fits; ++k) {
            const int jc = c + j.dc[k], jr = r + j.dr[k];
            fits = jc >= 0 && jr >= 0 && jc < n && jr < n && cost[jr * n + jc] != kBlocked;
          }
          if (!fits) continue;
          const int y = (r + j.dr[0]) * n + c + j.dc[0];
          const int nd = b + cost[y];
          if (nd < dist[y] && nd <= max_distance) push(y, nd);
        }
      }
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          if (dr == 0 && dc == 0) continue;
          const int nc = c + dc, nr = r + dr;
          if (nc < 0 || nr < 0 || nc >= n || nr >= n) continue;
          const int y = nr * n + nc;
          if (cost[y] == kBlocked) continue;
          int step = 0;
          if (dr != 0 && dc != 0) {
            if (!diagonals) continue;
            const int block = (r < nr ? r : nr) * n + (c < nc ? c : nc);
            const uint8_t k = cross[dc == dr ? 0 : 1][block];
            if (k == kBlocked) continue;
            step = k;
          }
          const int nd = b + step + cost[y];
          if (nd < dist[y] && nd <= max_distance) push(y, nd);
        }
      }
    }
  }
  return kNoPath;
}

}  // namespace

int connection_distance(const SquareGame& game, Player p) { return distance(game, p, false); }

int bridge_distance(const SquareGame& game, Player p) { return distance(game, p, true); }

}  // namespace quax
