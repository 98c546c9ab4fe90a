#include "solve/hex_h_search.h"

#include <algorithm>
#include <deque>

#include "solve/hex_dead_cell.h"

namespace quax {

namespace {

// Bounds of one search. Lists are kept minimal (no carrier holds another of its pair's), and
// a pair keeps at most these many: later ones are dropped, which only loses connections.
constexpr int kMaxFulls = 16;
constexpr int kMaxSemis = 32;
constexpr int kOrDepth = 4;       // semis one OR combines
constexpr int kMaxWork = 400000;  // carrier combinations tried

constexpr int kEdges = 2;  // points 0 and 1: p's edges

bool subset(const HexCells& a, const HexCells& b) { return (a & ~b).none(); }

struct Item {
  int x, y;
  bool full;
  HexCells carrier;
};

// The working memory of one search, kept per thread and reused.
struct Search {
  int points = 0;
  std::vector<int16_t> point_cell;                  // per point: its empty cell, or -1 (edges and groups)
  std::vector<int16_t> point_of;                    // per grid cell: its point, or -1 (the opponent's, off the board)
  std::vector<std::vector<HexCells>> fulls, semis;  // per pair slot x * points + y, x < y
  std::vector<int> touched;                         // slots with entries, to clear next time
  std::vector<std::vector<int>> partners;           // per point: the points it has a full with
  std::deque<Item> queue;
  std::vector<HexCells> others;  // or_rule's copy of a pair's semis
  std::vector<int> stack;
  std::vector<Player> stones;  // the position's, dead cells filled
  int work = 0;
  bool edges_full = false;

  int slot(int x, int y) const { return std::min(x, y) * points + std::max(x, y); }
  void touch(int s) {
    if (fulls[s].empty() && semis[s].empty()) touched.push_back(s);
  }
  bool stone_like(int point) const { return point_cell[point] < 0; }
  // An empty endpoint must stay out of the other connection's carrier.
  bool outside(int point, const HexCells& carrier) const {
    return point_cell[point] < 0 || !carrier[static_cast<size_t>(point_cell[point])];
  }

  void reset(int n_points) {
    for (int s : touched) {
      fulls[s].clear();
      semis[s].clear();
    }
    touched.clear();
    points = n_points;
    const size_t slots = static_cast<size_t>(points) * points;
    if (fulls.size() < slots) {
      fulls.resize(slots);
      semis.resize(slots);
    }
    // Slots are indexed with this search's point count: entries left from a search with another
    // count were cleared above through `touched`.
    partners.resize(static_cast<size_t>(points));
    for (int p = 0; p < points; ++p) partners[p].clear();
    queue.clear();
    work = 0;
    edges_full = false;
  }

  void add_full(int x, int y, const HexCells& c) {
    if (x == y) return;
    const int s = slot(x, y);
    auto& list = fulls[s];
    for (const HexCells& f : list)
      if (subset(f, c)) return;
    list.erase(std::remove_if(list.begin(), list.end(), [&](const HexCells& f) { return subset(c, f); }), list.end());
    if (static_cast<int>(list.size()) >= kMaxFulls) return;
    touch(s);
    if (list.empty()) {
      partners[x].push_back(y);
      partners[y].push_back(x);
    }
    list.push_back(c);
    auto& semi = semis[s];
    semi.erase(std::remove_if(semi.begin(), semi.end(), [&](const HexCells& t) { return subset(c, t); }), semi.end());
    if (std::min(x, y) == 0 && std::max(x, y) == 1) edges_full = true;
    queue.push_back(Item{x, y, true, c});
  }

  void add_semi(int x, int y, const HexCells& c) {
    if (x == y) return;
    const int s = slot(x, y);
    for (const HexCells& f : fulls[s])
      if (subset(f, c)) return;
    auto& list = semis[s];
    for (const HexCells& t : list)
      if (subset(t, c)) return;
    list.erase(std::remove_if(list.begin(), list.end(), [&](const HexCells& t) { return subset(c, t); }), list.end());
    if (static_cast<int>(list.size()) >= kMaxSemis) return;
    touch(s);
    list.push_back(c);
    queue.push_back(Item{x, y, false, c});
    or_rule(x, y, c);
  }

  // OR: the new semi with subsets of the pair's others whose carriers share no cell. Each
  // semi taken must shrink the intersection, which bounds the subsets tried.
  void or_rule(int x, int y, const HexCells& added) {
    // A copy without the added one (the last): add_full below edits the pair's semis. Kept in
    // one buffer per search, not allocated per call.
    const auto& list = semis[slot(x, y)];
    others.assign(list.begin(), list.end() - 1);
    auto combine = [&](auto&& self, const HexCells& common, const HexCells& all, size_t from, int depth) -> void {
      for (size_t i = from; i < others.size() && work < kMaxWork && !edges_full; ++i) {
        ++work;
        const HexCells shrunk = common & others[i];
        if (shrunk == common) continue;
        if (shrunk.none()) {
          add_full(x, y, all | others[i]);
        } else if (depth + 1 < kOrDepth) {
          self(self, shrunk, all | others[i], i + 1, depth + 1);
        }
      }
    };
    combine(combine, added, added, 0, 1);
  }

  // AND of a new connection (x, y) with the fulls (and, over p's groups, the semis) at each
  // of its ends taken as the midpoint. Edges are not midpoints: joining two cells through an
  // edge says nothing the edge's own connections do not.
  void and_rule(const Item& item) {
    for (int side = 0; side < 2; ++side) {
      const int mid = side == 0 ? item.x : item.y, end = side == 0 ? item.y : item.x;
      if (mid < kEdges) continue;
      const bool stone = stone_like(mid);
      if (!item.full && !stone) continue;  // semi AND anything over an empty cell: nothing
      // Index loops: add_* append to other points' lists, never to mid's.
      for (size_t k = 0; k < partners[mid].size() && work < kMaxWork && !edges_full; ++k) {
        const int far = partners[mid][k];
        if (far == end) continue;
        const int s = slot(mid, far);
        for (size_t i = 0; i < fulls[s].size() && !edges_full; ++i) {
          ++work;
          const HexCells other = fulls[s][i];
          if ((item.carrier & other).any() || !outside(end, other) || !outside(far, item.carrier)) continue;
          HexCells joined = item.carrier | other;
          if (!item.full) {
            add_semi(end, far, joined);
          } else if (stone) {
            add_full(end, far, joined);
          } else {
            joined.set(static_cast<size_t>(point_cell[mid]));
            add_semi(end, far, joined);
          }
        }
        if (!item.full || !stone) continue;
        for (size_t i = 0; i < semis[s].size() && !edges_full; ++i) {
          ++work;
          const HexCells other = semis[s][i];
          if ((item.carrier & other).any() || !outside(end, other) || !outside(far, item.carrier)) continue;
          add_semi(end, far, item.carrier | other);
        }
      }
    }
  }
};

}  // namespace

EdgeConnections hex_edge_connections(const HexGame& game, Player p) {
  thread_local Search s;
  EdgeConnections out;
  const HexGeometry& geo = game.geometry();
  const int n = geo.n;
  // Dead cells and the pairs p captures (solve/hex_dead_cell.h) filled with p's stones, which
  // then join p's groups: a connection of the filled board is one of the board itself, the
  // captured pairs added to its carrier (p answers there).
  s.stones.assign(static_cast<size_t>(geo.nn), Player::kNone);
  for (int c : geo.board_cells) s.stones[c] = game.stone(c);
  std::vector<int> captured;
  fill_dead_and_captured_cells(n, &s.stones, p, &captured);
  HexCells pairs;
  for (int c : captured) pairs.set(static_cast<size_t>(c));
  out.full_carrier = pairs;
  // Points: the edges, then p's groups not touching an edge, then the empty cells.
  s.point_of.assign(static_cast<size_t>(geo.nn), -1);
  int next = kEdges;
  std::vector<int>& members = s.stack;
  for (int c : geo.board_cells) {
    if (s.stones[c] != p || s.point_of[c] >= 0) continue;
    // One group: its cells, and the edges it touches.
    members.assign(1, c);
    s.point_of[c] = -2;
    int rows = 0;
    for (size_t i = 0; i < members.size(); ++i) {
      const int x = members[i];
      rows |= hex_edge_rows(n, p, x);
      for (int k = 0; k < geo.neighbour_count[x]; ++k) {
        const int y = geo.neighbours[x][k];
        if (s.stones[y] == p && s.point_of[y] == -1) {
          s.point_of[y] = -2;
          members.push_back(y);
        }
      }
    }
    if (rows == 3) {
      out.full = true;
      return out;
    }
    const int point = rows == 1 ? 0 : rows == 2 ? 1 : next++;
    for (int x : members) s.point_of[x] = static_cast<int16_t>(point);
  }
  for (int c : geo.board_cells)
    if (s.stones[c] == Player::kNone) s.point_of[c] = static_cast<int16_t>(next++);
  s.reset(next);
  s.point_cell.assign(static_cast<size_t>(next), -1);
  for (int c : geo.board_cells)
    if (s.stones[c] == Player::kNone) s.point_cell[s.point_of[c]] = static_cast<int16_t>(c);

  // Base: each empty cell with its neighbours and its edges.
  const HexCells none;
  for (int c : geo.board_cells) {
    if (s.stones[c] != Player::kNone) continue;
    const int pc = s.point_of[c];
    for (int k = 0; k < geo.neighbour_count[c]; ++k) {
      const int q = s.point_of[geo.neighbours[c][k]];
      // Groups and edges come before the empty cells: q < pc takes each of them, and each
      // pair of empty cells once.
      if (q >= 0 && q < pc) s.add_full(pc, q, none);
    }
    const int rows = hex_edge_rows(n, p, c);
    if (rows & 1) s.add_full(pc, 0, none);
    if (rows & 2) s.add_full(pc, 1, none);
  }
  while (!s.queue.empty() && !s.edges_full && s.work < kMaxWork) {
    const Item item = s.queue.front();
    s.queue.pop_front();
    s.and_rule(item);
  }
  const int edges = s.slot(0, 1);
  if (!s.fulls[edges].empty()) {
    out.full = true;
    out.full_carrier |= *std::min_element(s.fulls[edges].begin(), s.fulls[edges].end(),
                                          [](const HexCells& a, const HexCells& b) { return a.count() < b.count(); });
    return out;
  }
  out.semis = s.semis[edges];
  for (HexCells& semi : out.semis) semi |= pairs;
  return out;
}

}  // namespace quax
