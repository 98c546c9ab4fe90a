#include "solve/connection_distance.h"

#include <cstdint>

#include "solve/edge_template.h"
#include "solve/two_way_join.h"

namespace quax {

namespace {
constexpr int kMaxCells = 26 * 26;
constexpr uint8_t kBlocked = 255;

// The position from p's side for both counts: the cost to stand on each cell and to cross
// each diagonal. With `bridges_free`, a diagonal of a free block costs nothing unless both of
// its crossing cells are the opponent's (quax and link), and in quickway and crossway a
// two-way join's second stone is reached from the first for nothing when neither route is the
// opponent's.
struct Costs {
  int n = 0, nn = 0;
  bool black = true, bridges_free = false, joins = false;
  bool diagonals = false;   // any diagonal step at all (not in quadrex); `cross` is set only then
  uint8_t cell[kMaxCells];  // to stand on a cell: 0 own stone, 1 empty, blocked
  // To cross diagonal d (0 `/`, 1 `\`) of block b (its south-west cell): the link move in
  // quax and link, nothing where links come free or are not needed, blocked by any other link.
  uint8_t cross[2][kMaxCells];
};

// (This runs twice at every new leaf of the proof search: flat arrays, no allocation.)
void set_costs(const SquareGame& game, Player p, bool bridges_free, Costs* k) {
  const int n = game.size(), nn = n * n;
  const LinkRule links = variant_info(game.spec().variant).links;
  const bool link_moves = links == LinkRule::kChosen;
  k->n = n;
  k->nn = nn;
  k->black = p == Player::kBlack;
  k->bridges_free = bridges_free;
  k->joins = bridges_free && (links == LinkRule::kAutomatic || links == LinkRule::kDiagonal);
  k->diagonals = links != LinkRule::kNone;
  for (int x = 0; x < nn; ++x) {
    const Player s = game.stone(x % n, x / n);
    k->cell[x] = s == p ? 0 : (s == Player::kNone ? 1 : kBlocked);
  }
  if (!k->diagonals) return;
  for (int r = 0; r + 1 < n; ++r) {
    for (int c = 0; c + 1 < n; ++c) {
      const int b = r * n + c;
      if (links == LinkRule::kDiagonal) {
        k->cross[0][b] = k->cross[1][b] = 0;
        continue;
      }
      int d = 0;
      const Player owner = game.link_on(c, r, &d);
      if (owner == Player::kNone) {
        k->cross[0][b] = k->cross[1][b] = link_moves ? 1 : 0;
        if (bridges_free) {
          // Diagonal 0 `/` crosses the block's south-east and north-west cells, 1 `\` the
          // south-west and north-east ones.
          const Player other = opponent(p);
          k->cross[0][b] = game.stone(c + 1, r) == other && game.stone(c, r + 1) == other ? 1 : 0;
          k->cross[1][b] = game.stone(c, r) == other && game.stone(c + 1, r + 1) == other ? 1 : 0;
        }
      } else {
        k->cross[d][b] = owner == p ? 0 : kBlocked;
        k->cross[1 - d][b] = kBlocked;
      }
    }
  }
}

// Dial's algorithm from p's start edge (from the end edge when `reverse`) to the other edge.
// Without `dist_out`, returns the count at the first cell of the other edge (or joined to it
// by an edge template with bridges free); with it, settles every cell and leaves there the
// count to stand on each one, its own cost included (kNoPath where unreachable).
int dial(const Costs& k, bool reverse, int* dist_out) {
  const int n = k.n, nn = k.nn;
  static constexpr int kMaxDistance = 2 * kMaxCells + 4;
  static constexpr int kMaxPushes = 25 * kMaxCells;
  int own_dist[kMaxCells];
  int* dist = dist_out ? dist_out : own_dist;
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
  // The cell `along` p's edges and `depth` rows from the edge this run starts at.
  auto at = [&](int along, int depth) {
    if (reverse) depth = n - 1 - depth;
    return k.black ? depth * n + along : along * n + depth;
  };
  // Edge templates (solve/edge_template.h) count as made with bridges: a cell one or two rows
  // from an edge with a template there is as good as on that edge.
  auto has_template = [&](int along, int rows, bool start_side) {
    auto cell = [&](int a, int r) { return at(a, start_side ? r : n - 1 - r); };
    bool found = false;
    for_each_edge_template(
        n, along, rows, [&](int a, int r) { return k.cell[cell(a, r)] == 1; },  // cost 1: an empty cell
        [&](const int*, const int*, int) { found = true; });
    return found;
  };
  for (int i = 0; i < n; ++i) {
    const int x = at(i, 0);
    if (k.cell[x] != kBlocked) push(x, k.cell[x]);
  }
  // Cells one or two rows from the start edge here, from the end edge in the loop below.
  if (k.bridges_free) {
    for (int rows = 1; rows <= 2 && rows < n - 1; ++rows) {
      for (int i = 0; i < n; ++i) {
        const int x = at(i, rows);
        if (k.cell[x] != kBlocked && has_template(i, rows, true)) push(x, k.cell[x]);
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
      if (!dist_out) {
        const int depth = reverse ? n - 1 - (k.black ? r : c) : (k.black ? r : c);
        if (depth == n - 1) return b;
        const int from_end = n - 1 - depth;
        if (k.bridges_free && (from_end == 1 || from_end == 2) && has_template(k.black ? c : r, from_end, false))
          return b;
      }
      if (pushes + 24 > kMaxPushes) return b;  // cannot happen: each cell settles once per improvement
      if (k.joins) {
        for (const TwoWayJoin& j : two_way_joins()) {
          // The far stone first: most joins would not shorten its count.
          const int yc = c + j.dc[0], yr = r + j.dr[0];
          if (yc < 0 || yr < 0 || yc >= n || yr >= n) continue;
          const int y = yr * n + yc;
          if (k.cell[y] == kBlocked || b + k.cell[y] >= dist[y]) continue;
          bool fits = true;
          for (int m = 1; m < 3 && fits; ++m) {
            const int jc = c + j.dc[m], jr = r + j.dr[m];
            fits = jc >= 0 && jr >= 0 && jc < n && jr < n && k.cell[jr * n + jc] != kBlocked;
          }
          const int nd = b + k.cell[y];
          if (fits && nd <= max_distance) push(y, nd);
        }
      }
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          if (dr == 0 && dc == 0) continue;
          const int nc = c + dc, nr = r + dr;
          if (nc < 0 || nr < 0 || nc >= n || nr >= n) continue;
          const int y = nr * n + nc;
          if (k.cell[y] == kBlocked) continue;
          int step = 0;
          if (dr != 0 && dc != 0) {
            if (!k.diagonals) continue;
            const int block = (r < nr ? r : nr) * n + (c < nc ? c : nc);
            const uint8_t t = k.cross[dc == dr ? 0 : 1][block];
            if (t == kBlocked) continue;
            step = t;
          }
          const int nd = b + step + k.cell[y];
          if (nd < dist[y] && nd <= max_distance) push(y, nd);
        }
      }
    }
  }
  return kNoPath;
}

int distance(const SquareGame& game, Player p, bool bridges_free) {
  Costs k;
  set_costs(game, p, bridges_free, &k);
  return dial(k, false, nullptr);
}

}  // namespace

int connection_distance(const SquareGame& game, Player p) { return distance(game, p, false); }

int bridge_distance(const SquareGame& game, Player p) { return distance(game, p, true); }

int bridge_threat_cells(const SquareGame& game, Player p, uint8_t* cells) {
  Costs k;
  set_costs(game, p, true, &k);
  const int d = dial(k, false, nullptr);
  if (d != 1) return d;
  // A cell's count from each edge includes its own cost, 1 while empty: a stone there makes a
  // path of cost from_start + from_end - 2 through it. Paths avoiding it cost no less than
  // before (a stone only ever spoils a template), so nothing else reaches 0.
  int from_start[kMaxCells], from_end[kMaxCells];
  dial(k, false, from_start);
  dial(k, true, from_end);
  for (int x = 0; x < k.nn; ++x)
    cells[x] = k.cell[x] == 1 && from_start[x] < kNoPath && from_end[x] < kNoPath && from_start[x] + from_end[x] <= 2;
  return d;
}

}  // namespace quax
