#include "solve/fill_connection.h"

#include <algorithm>
#include <array>
#include <cstdint>

namespace quax {

namespace {

constexpr int kMaxCells = 26 * 26;

// The position from p's side: 0 empty, 1 p's stone, 2 the opponent's.
struct FillBoard {
  int n = 0, nn = 0;
  bool rows = true;  // p joins row 1 to row N (Black), else column a to column N
  std::array<uint8_t, kMaxCells> cell{};

  bool on_start_edge(int x) const { return rows ? x / n == 0 : x % n == 0; }
  bool on_end_edge(int x) const { return rows ? x / n == n - 1 : x % n == n - 1; }
  // How many lines x lies from p's start edge, or from the end edge.
  int lines_from_edge(int x, bool start) const {
    const int a = rows ? x / n : x % n;
    return start ? a : n - 1 - a;
  }

  // The edge template (solve/fill_connection.h) of p's stone x one line from an edge, on the
  // side `side` (0 or 1) along the edge: its cells e (between x and the edge), e2 (on the edge
  // beside e) and x2 (beside x), empty, x2 fill-proof. False when there is none there.
  bool edge_template(int x, bool start, int side, std::array<int, 3>* cells) const {
    if (cell[x] != 1 || lines_from_edge(x, start) != 1) return false;
    const int toward = (rows ? n : 1) * (start ? -1 : 1), along = rows ? 1 : n;
    const int a = rows ? x % n : x / n, d = side == 0 ? -1 : 1;
    if (a + d < 0 || a + d >= n) return false;
    const int e = x + toward, x2 = x + d * along, e2 = e + d * along;
    if (cell[e] != 0 || cell[e2] != 0 || cell[x2] != 0 || !fill_proof(x2)) return false;
    *cells = {e, e2, x2};
    return true;
  }
  // The side of x's first edge template toward that edge: 0 or 1, -1 for none.
  int template_side(int x, bool start) const {
    std::array<int, 3> cells;
    for (int side = 0; side < 2; ++side)
      if (edge_template(x, start, side, &cells)) return side;
    return -1;
  }

  // Every block around empty cell x has one of p's stones on its diagonal away from x.
  bool fill_proof(int x) const {
    const int c = x % n, r = x / n;
    for (int dr = -1; dr <= 0; ++dr) {
      for (int dc = -1; dc <= 0; ++dc) {
        const int bc = c + dc, br = r + dr;
        if (bc < 0 || br < 0 || bc + 1 >= n || br + 1 >= n) continue;
        const int sw = br * n + bc, se = sw + 1, nw = sw + n, ne = nw + 1;
        // The diagonal that does not hold x.
        const bool x_on_sw_ne = x == sw || x == ne;
        const int u = x_on_sw_ne ? se : sw, v = x_on_sw_ne ? nw : ne;
        if (cell[u] != 1 && cell[v] != 1) return false;
      }
    }
    return true;
  }
};

// A breadth-first search over cells whose steps cost 0 (queued at the front) or 1 (at the
// back), without allocating: the searches run at every node of the proof search. A cell is
// queued once per improvement of its distance, at most once per step into it, and settled
// the first time it comes out.
class ZeroOneSearch {
 public:
  explicit ZeroOneSearch(int cells) {
    std::fill(dist, dist + cells + 1, -1);
    std::fill(settled_, settled_ + cells + 1, 0);
  }
  // Reaches x at distance d when that is shorter than before; false otherwise.
  bool reach(int x, int d, bool free_step) {
    if (settled_[x] || (dist[x] >= 0 && dist[x] <= d)) return false;
    dist[x] = static_cast<int16_t>(d);
    if (free_step) queue_[--head_] = static_cast<int16_t>(x);
    else queue_[tail_++] = static_cast<int16_t>(x);
    return true;
  }
  // The nearest cell not yet settled, now settled; -1 when none is left.
  int next() {
    while (head_ != tail_) {
      const int x = queue_[head_++];
      if (settled_[x]) continue;
      settled_[x] = 1;
      return x;
    }
    return -1;
  }

  int16_t dist[kMaxCells + 1];  // -1: not reached (one node past the cells: find_chain's end)

 private:
  static constexpr int kCapacity = 2 * 9 * (kMaxCells + 1);
  int16_t queue_[kCapacity];
  int head_ = kCapacity / 2, tail_ = kCapacity / 2;
  uint8_t settled_[kMaxCells + 1];
};

FillBoard fill_board_for(const SquareGame& game, Player p) {
  FillBoard b;
  b.n = game.size();
  b.nn = b.n * b.n;
  b.rows = p == Player::kBlack;
  for (int x = 0; x < b.nn; ++x) {
    const Player s = game.stone(x % b.n, x / b.n);
    b.cell[x] = s == Player::kNone ? 0 : (s == p ? 1 : 2);
  }
  return b;
}

// The fewest fill bridges and edge templates on a chain of p's stones from p's start edge to
// the end edge (a breadth-first search: steps along sides free, across a bridge or a template
// one), and the cells of those structures; false when there is no such chain. A template
// needs p's answer, so a chain whose template shares a cell with another structure of it is
// not taken: the search is made again without templates.
bool find_chain(const FillBoard& b, CellSet* carrier, bool templates = true) {
  const int n = b.n, end = b.nn;  // `end`: a node past the cells, the end edge
  ZeroOneSearch search(b.nn);
  // from: the previous cell (-1 at the start); via: a bridge's block (sw cell), -1 along a
  // side; edge_side: at the first cell and at `end`, the side of the template used, -1 none.
  std::array<int16_t, kMaxCells + 1> via, from, edge_side;
  for (int x = 0; x < b.nn; ++x) {
    if (b.cell[x] != 1) continue;
    const int side = templates && !b.on_start_edge(x) ? b.template_side(x, true) : -1;
    if (!b.on_start_edge(x) && side < 0) continue;
    search.reach(x, side < 0 ? 0 : 1, side < 0);
    from[x] = -1;
    via[x] = -1;
    edge_side[x] = static_cast<int16_t>(side);
  }
  for (int x = search.next(); x >= 0; x = search.next()) {
    if (x == end) break;
    const int c = x % n, r = x / n;
    if (b.on_end_edge(x) || templates) {
      const int side = b.on_end_edge(x) ? -1 : b.template_side(x, false);
      if ((b.on_end_edge(x) || side >= 0) && search.reach(end, search.dist[x] + (side >= 0), side < 0)) {
        from[end] = static_cast<int16_t>(x);
        edge_side[end] = static_cast<int16_t>(side);
      }
    }
    auto step = [&](int y, int cost, int block) {
      if (!search.reach(y, search.dist[x] + cost, cost == 0)) return;
      from[y] = static_cast<int16_t>(x);
      via[y] = static_cast<int16_t>(block);
    };
    if (c > 0 && b.cell[x - 1] == 1) step(x - 1, 0, -1);
    if (c + 1 < n && b.cell[x + 1] == 1) step(x + 1, 0, -1);
    if (r > 0 && b.cell[x - n] == 1) step(x - n, 0, -1);
    if (r + 1 < n && b.cell[x + n] == 1) step(x + n, 0, -1);
    for (int dr : {-1, 1}) {
      for (int dc : {-1, 1}) {
        const int yc = c + dc, yr = r + dr;
        if (yc < 0 || yr < 0 || yc >= n || yr >= n) continue;
        const int y = yr * n + yc;
        if (b.cell[y] != 1) continue;
        const int u = r * n + yc, v = yr * n + c;  // the block's crossing cells
        if (b.cell[u] != 0 || b.cell[v] != 0 || !(b.fill_proof(u) || b.fill_proof(v))) continue;
        step(y, 1, std::min(r, yr) * n + std::min(c, yc));
      }
    }
  }
  if (search.dist[end] < 0) return false;
  // The structures' cells: bridges may share theirs (each closes itself), templates may not.
  CellSet bridges, edges;
  bool overlap = false;
  auto add_template = [&](int x, bool start, int side) {
    std::array<int, 3> cells{};
    b.edge_template(x, start, side, &cells);
    for (int z : cells) {
      overlap = overlap || edges[static_cast<size_t>(z)];
      edges.set(static_cast<size_t>(z));
    }
  };
  int x = from[end];
  if (edge_side[end] >= 0) add_template(x, false, edge_side[end]);
  for (; from[x] >= 0; x = from[x]) {
    if (via[x] < 0) continue;
    const int sw = via[x], se = sw + 1, nw = sw + n, ne = nw + 1;
    for (int z : {sw, se, nw, ne})
      if (b.cell[z] == 0) bridges.set(static_cast<size_t>(z));
  }
  if (edge_side[x] >= 0) add_template(x, true, edge_side[x]);
  if (overlap || (bridges & edges).any()) return find_chain(b, carrier, false);
  if (carrier) *carrier = bridges | edges;
  return true;
}

// Marks the empty cells that could be a threat's key: on a chain whose only empty cell they
// are, counting every diagonal step between two cells whose crossing cells are empty (a
// bridge without the fill-proof test, of which a key's chain uses a subset) and starting one
// line from an edge as well as on it (an edge template). From each edge, the fewest empty
// cells a chain to x holds, x included; a key is 1 from both. False, with nothing marked,
// when no such chain reaches the end edge (the common case, told after the first search).
bool key_candidates(const FillBoard& b, std::array<uint8_t, kMaxCells>* keys) {
  const int n = b.n;
  auto from_edge = [&](ZeroOneSearch& search, bool start) {
    // A chain starts on the edge, or one line from it with an edge template.
    for (int x = 0; x < b.nn; ++x)
      if (b.cell[x] != 2 && b.lines_from_edge(x, start) <= 1) search.reach(x, b.cell[x] == 0, b.cell[x] != 0);
    for (int x = search.next(); x >= 0 && search.dist[x] <= 1; x = search.next()) {  // only 0 and 1 matter
      const int c = x % n, r = x / n;
      for (int dr = -1; dr <= 1; ++dr) {
        for (int dc = -1; dc <= 1; ++dc) {
          const int yc = c + dc, yr = r + dr;
          if ((dr == 0 && dc == 0) || yc < 0 || yr < 0 || yc >= n || yr >= n) continue;
          if (dr != 0 && dc != 0 && (b.cell[r * n + yc] != 0 || b.cell[yr * n + c] != 0)) continue;
          const int y = yr * n + yc;
          if (b.cell[y] != 2) search.reach(y, search.dist[x] + (b.cell[y] == 0), b.cell[y] != 0);
        }
      }
    }
  };
  ZeroOneSearch from_start(b.nn);
  from_edge(from_start, true);
  bool reached = false;
  for (int x = 0; x < b.nn && !reached; ++x)
    reached = b.lines_from_edge(x, false) <= 1 && from_start.dist[x] >= 0 && from_start.dist[x] <= 1;
  if (!reached) return false;
  ZeroOneSearch from_end(b.nn);
  from_edge(from_end, false);
  bool any = false;
  for (int x = 0; x < b.nn; ++x) {
    (*keys)[x] = b.cell[x] == 0 && from_start.dist[x] == 1 && from_end.dist[x] == 1 ? 1 : 0;
    any = any || (*keys)[x];
  }
  return any;
}

}  // namespace

bool fill_virtual_win(const SquareGame& game, Player p, CellSet* carrier) {
  return find_chain(fill_board_for(game, p), carrier);
}

namespace {

// Calls on_threat(key, carrier) for each of p's threats (none when p already holds a virtual
// win: callers ask find_chain first), keys fill-proof only when `fill_proof_keys`, until it
// returns false.
template <typename OnThreat>
void scan_threats(FillBoard& b, bool fill_proof_keys, OnThreat on_threat) {
  std::array<uint8_t, kMaxCells> keys;
  if (!key_candidates(b, &keys)) return;
  CellSet carrier;
  for (int x = 0; x < b.nn; ++x) {
    if (!keys[x] || (fill_proof_keys && !b.fill_proof(x))) continue;
    b.cell[x] = 1;
    const bool found = find_chain(b, &carrier);
    b.cell[x] = 0;
    if (found && !on_threat(x, carrier)) return;
  }
}

}  // namespace

bool fill_has_threat(const SquareGame& game, Player p) {
  FillBoard b = fill_board_for(game, p);
  if (find_chain(b, nullptr)) return true;
  bool found = false;
  scan_threats(b, false, [&](int, const CellSet&) {
    found = true;
    return false;
  });
  return found;
}

CellSet fill_must_play_against(const SquareGame& game, Player p, bool* threatened) {
  CellSet region;
  region.set();
  *threatened = false;
  FillBoard b = fill_board_for(game, p);
  if (find_chain(b, nullptr)) {
    *threatened = true;
    return CellSet();
  }
  scan_threats(b, true, [&](int key, CellSet carrier) {
    *threatened = true;
    region &= carrier.set(static_cast<size_t>(key));
    return region.any();  // an empty region cannot shrink further
  });
  return region;
}

}  // namespace quax
