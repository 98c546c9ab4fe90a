#include "solve/hex_connection.h"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <vector>

#include "solve/connection_distance.h"  // kNoPath

namespace quax {

namespace {

// Steps of the chain search before it gives up (false: none found).
constexpr int kMaxChainSteps = 20000;

// A position as the functions see it: per grid cell 0 empty, 1 the player's, 2 the other's,
// 3 off the board; p's stone can be added to a copy without a game.
struct Board {
  int n = 0;
  const HexGeometry* geo = nullptr;
  std::vector<uint8_t> cell;
};

Board board_of(const HexGame& game, Player p) {
  Board b;
  b.geo = &game.geometry();
  b.n = b.geo->n;
  b.cell.assign(static_cast<size_t>(b.geo->nn), 3);
  for (int c : b.geo->board_cells) {
    const Player owner = game.stone(c);
    b.cell[c] = owner == Player::kNone ? 0 : owner == p ? 1 : 2;
  }
  return b;
}

// The grid cell of (u, v) in the frame of edge `side` (0 or 1) of player `p`, or -1 off the
// board (see the header).
int frame_cell(int n, Player p, int side, int u, int v) {
  if (u < 0 || v < 0 || u >= n || v >= n) return -1;
  int x = u, y = v;
  if (p == Player::kWhite) std::swap(x, y);
  if (side == 1) {
    x = n - 1 - x;
    y = n - 1 - y;
  }
  return y * n + x;
}

// The edge-row distance of grid cell c in the frame of edge `side` of `p`: its v.
int frame_v(int n, Player p, int side, int c) {
  const int x = c % n, y = c / n;
  const int v = p == Player::kBlack ? y : x;
  return side == 0 ? v : n - 1 - v;
}
int frame_u(int n, Player p, int side, int c) {
  const int x = c % n, y = c / n;
  const int u = p == Player::kBlack ? x : y;
  return side == 0 ? u : n - 1 - u;
}

// A structure joining two nodes of the chain graph (groups 0..G-1, edges G and G+1): a fixed
// carrier (maybe empty: a group touching an edge; a ziggurat), or two cells to be chosen among
// `cells` (a bridge, a second-row template; more than kMaxCells options are cut, which only
// loses choices).
constexpr int kMaxCells = 8;
struct Join {
  int16_t a = 0, b = 0;
  bool choose_two = false;
  uint8_t count = 0;
  int16_t cells[kMaxCells] = {};
  void add(int c) {
    if (count < kMaxCells) cells[count++] = static_cast<int16_t>(c);
  }
};

// The working memory of one chain search, kept per thread: the threat scan runs hundreds of
// them a node, and allocating each anew cost a third of the time.
struct Scratch {
  std::vector<int> group, stack, pair_join, at_begin, at_list;
  std::vector<Join> joins;
  std::vector<std::array<bool, 2>> touches;
  std::vector<uint8_t> reached, reached_far, on_path;
};

// p's groups (stones joined by sides): s.group per cell (-1 elsewhere); the count returned.
int label_groups(const Board& b, Scratch& s) {
  s.group.assign(b.cell.size(), -1);
  int count = 0;
  for (int c : b.geo->board_cells) {
    if (b.cell[c] != 1 || s.group[c] >= 0) continue;
    s.group[c] = count;
    s.stack.assign(1, c);
    while (!s.stack.empty()) {
      const int x = s.stack.back();
      s.stack.pop_back();
      for (int k = 0; k < b.geo->neighbour_count[x]; ++k) {
        const int y = b.geo->neighbours[x][k];
        if (b.cell[y] == 1 && s.group[y] < 0) {
          s.group[y] = count;
          s.stack.push_back(y);
        }
      }
    }
    ++count;
  }
  return count;
}

// The structures of p's groups (see the header) into s.joins.
void find_joins(const Board& b, Player p, int groups, Scratch& s) {
  const int n = b.n;
  s.joins.clear();
  s.touches.assign(static_cast<size_t>(groups), {false, false});
  s.pair_join.assign(static_cast<size_t>(groups * groups), -1);
  for (int c : b.geo->board_cells)
    if (s.group[c] >= 0)
      for (int side = 0; side < 2; ++side)
        if (frame_v(n, p, side, c) == 0) s.touches[s.group[c]][side] = true;
  for (int g = 0; g < groups; ++g)
    for (int side = 0; side < 2; ++side)
      if (s.touches[g][side]) s.joins.push_back(Join{static_cast<int16_t>(g), static_cast<int16_t>(groups + side)});
  // Empty cells: the groups around each are bridged through it; an edge-row cell next to a
  // group not touching that edge is a second-row option.
  const size_t second_row_start = s.joins.size();
  std::vector<int>& edge_join = s.stack;  // per (group, side): index of its second-row join
  edge_join.assign(static_cast<size_t>(2 * groups), -1);
  for (int c : b.geo->board_cells) {
    if (b.cell[c] != 0) continue;
    int around[6], k_around = 0;
    for (int k = 0; k < b.geo->neighbour_count[c]; ++k) {
      const int g = s.group[b.geo->neighbours[c][k]];
      if (g >= 0 && std::find(around, around + k_around, g) == around + k_around) around[k_around++] = g;
    }
    for (int i = 0; i < k_around; ++i) {
      for (int j = i + 1; j < k_around; ++j) {
        const int g = std::min(around[i], around[j]), h = std::max(around[i], around[j]);
        int& index = s.pair_join[static_cast<size_t>(g * groups + h)];
        if (index < 0) {
          index = static_cast<int>(s.joins.size());
          s.joins.push_back(Join{static_cast<int16_t>(g), static_cast<int16_t>(h), true});
        }
        s.joins[static_cast<size_t>(index)].add(c);
      }
      for (int side = 0; side < 2; ++side) {
        const int g = around[i];
        if (s.touches[g][side] || frame_v(n, p, side, c) != 0) continue;
        int& index = edge_join[static_cast<size_t>(2 * g + side)];
        if (index < 0) {
          index = static_cast<int>(s.joins.size());
          s.joins.push_back(Join{static_cast<int16_t>(g), static_cast<int16_t>(groups + side), true});
        }
        s.joins[static_cast<size_t>(index)].add(c);
      }
    }
  }
  // Options structures with fewer than two cells join nothing.
  s.joins.erase(std::remove_if(s.joins.begin() + static_cast<std::ptrdiff_t>(second_row_start), s.joins.end(),
                               [](const Join& j) { return j.count < 2; }),
                s.joins.end());
  // Ziggurats of stones on the third row of an edge their group does not touch.
  for (int c : b.geo->board_cells) {
    const int g = s.group[c];
    if (g < 0) continue;
    for (int side = 0; side < 2; ++side) {
      if (s.touches[g][side] || frame_v(n, p, side, c) != 2) continue;
      const int u = frame_u(n, p, side, c);
      for (int mirror = 0; mirror < 2; ++mirror) {
        // The trapezoid widens towards +u, or in the mirror image towards -u (see the header).
        const int first = mirror ? u - 1 : u;
        std::pair<int, int> uv[8] = {{mirror ? u - 1 : u + 1, 2}};
        for (int k = 0; k < 3; ++k) uv[1 + k] = {first + k, 1};
        for (int k = 0; k < 4; ++k) uv[4 + k] = {first + k, 0};
        Join z{static_cast<int16_t>(g), static_cast<int16_t>(groups + side)};
        bool fits = true;
        for (const auto& [uu, vv] : uv) {
          const int cell = frame_cell(n, p, side, uu, vv);
          fits = fits && cell >= 0 && b.cell[cell] == 0;
          if (fits) z.add(cell);
        }
        if (fits) s.joins.push_back(z);
      }
    }
  }
}

// s.joins by node: one list sorted by node, at_list[at_begin[node] .. at_begin[node + 1]).
void index_joins(int nodes, Scratch& s) {
  s.at_begin.assign(static_cast<size_t>(nodes + 1), 0);
  for (const Join& j : s.joins) {
    ++s.at_begin[j.a + 1];
    ++s.at_begin[j.b + 1];
  }
  for (int v = 0; v < nodes; ++v) s.at_begin[v + 1] += s.at_begin[v];
  s.at_list.assign(static_cast<size_t>(s.at_begin[nodes]), 0);
  s.stack.assign(s.at_begin.begin(), s.at_begin.end() - 1);  // fill positions
  for (size_t i = 0; i < s.joins.size(); ++i) {
    s.at_list[s.stack[s.joins[i].a]++] = static_cast<int>(i);
    s.at_list[s.stack[s.joins[i].b]++] = static_cast<int>(i);
  }
}

int other_end(const Scratch& s, int join, int node) { return s.joins[join].a == node ? s.joins[join].b : s.joins[join].a; }

// The nodes reachable from `from` over s.joins with carriers allowed to overlap, into *reached.
void reach(int nodes, int from, Scratch& s, std::vector<uint8_t>* reached) {
  reached->assign(static_cast<size_t>(nodes), 0);
  s.stack.assign(1, from);
  (*reached)[from] = 1;
  while (!s.stack.empty()) {
    const int node = s.stack.back();
    s.stack.pop_back();
    for (int k = s.at_begin[node]; k < s.at_begin[node + 1]; ++k) {
      const int next = other_end(s, s.at_list[k], node);
      if (!(*reached)[next]) {
        (*reached)[next] = 1;
        s.stack.push_back(next);
      }
    }
  }
}

// Depth-first search for a chain from edge `groups` to edge `groups + 1` over s.joins with
// pairwise disjoint carriers; on success *carrier holds their union.
bool find_chain(int groups, Scratch& s, CellSet* carrier) {
  const int nodes = groups + 2;
  index_joins(nodes, s);
  // Most positions have no chain even with carriers allowed to overlap: a plain reachability
  // pass says so before the exponential search.
  reach(nodes, groups, s, &s.reached);
  if (!s.reached[groups + 1]) return false;
  s.on_path.assign(static_cast<size_t>(nodes), 0);
  CellSet used;
  int steps = 0;
  const int target = groups + 1;
  // Recursion depth is at most the number of nodes (a path visits each once).
  auto visit = [&](auto&& self, int node) -> bool {
    if (node == target) return true;
    if (++steps > kMaxChainSteps) return false;
    s.on_path[node] = 1;
    for (int k = s.at_begin[node]; k < s.at_begin[node + 1]; ++k) {
      const Join& j = s.joins[s.at_list[k]];
      const int next = other_end(s, s.at_list[k], node);
      if (s.on_path[next]) continue;
      CellSet mine;
      if (j.choose_two) {
        int taken = 0;
        for (int i = 0; i < j.count && taken < 2; ++i)
          if (!used[j.cells[i]]) {
            mine.set(j.cells[i]);
            ++taken;
          }
        if (taken < 2) continue;
      } else {
        bool clash = false;
        for (int i = 0; i < j.count; ++i) {
          clash = clash || used[j.cells[i]];
          mine.set(j.cells[i]);
        }
        if (clash) continue;
      }
      used |= mine;
      if (self(self, next)) return true;
      used &= ~mine;
    }
    s.on_path[node] = 0;
    return false;
  };
  if (!visit(visit, groups)) return false;
  if (carrier) *carrier = used;
  return true;
}

bool virtual_win_on(const Board& b, Player p, CellSet* carrier) {
  thread_local Scratch s;
  const int groups = label_groups(b, s);
  find_joins(b, p, groups, s);
  return find_chain(groups, s, carrier);
}

// The empty cells where p's stone might give a virtual win: every such cell (a superset). A
// new chain must pass through the stone's group M (the stone and the groups beside it) unless
// the edges were already joined with carriers allowed to overlap (then every empty cell is
// returned), so M must be joined to a node reachable from each edge before the stone. M's
// structures reach only: its groups' own partners; groups sharing an empty neighbour with one
// of its groups or with the stone (a bridge needs a common empty neighbour); an edge whose row
// holds an empty neighbour of one of its groups, or that the stone is within three rows of.
std::vector<int> threat_candidates(const Board& b, Player p) {
  thread_local Scratch s;
  const int groups = label_groups(b, s);
  find_joins(b, p, groups, s);
  const int nodes = groups + 2;
  index_joins(nodes, s);
  reach(nodes, groups, s, &s.reached);
  reach(nodes, groups + 1, s, &s.reached_far);
  std::vector<int> out;
  const int n = b.n;
  const auto& geo = *b.geo;
  if (s.reached[groups + 1]) {
    for (int c : geo.board_cells)
      if (b.cell[c] == 0) out.push_back(c);
    return out;
  }
  // near[side] of an empty cell: a group beside it reaches that edge, or it is on that edge's row.
  auto empty_near = [&](int e, int side) {
    if (frame_v(n, p, side, e) == 0) return true;
    const auto& reached = side == 0 ? s.reached : s.reached_far;
    for (int k = 0; k < geo.neighbour_count[e]; ++k) {
      const int g = s.group[geo.neighbours[e][k]];
      if (g >= 0 && reached[g]) return true;
    }
    return false;
  };
  // Per group and edge: the group reaches it, or one of its empty neighbours is near it.
  std::vector<std::array<bool, 2>> group_near(static_cast<size_t>(groups), {false, false});
  for (int g = 0; g < groups; ++g)
    for (int side = 0; side < 2; ++side) group_near[g][side] = (side == 0 ? s.reached : s.reached_far)[g];
  for (int e : geo.board_cells) {
    if (b.cell[e] != 0) continue;
    const bool near[2] = {empty_near(e, 0), empty_near(e, 1)};
    for (int k = 0; k < geo.neighbour_count[e]; ++k) {
      const int g = s.group[geo.neighbours[e][k]];
      if (g < 0) continue;
      for (int side = 0; side < 2; ++side) group_near[g][side] = group_near[g][side] || near[side];
    }
  }
  for (int c : geo.board_cells) {
    if (b.cell[c] != 0) continue;
    bool near[2];
    for (int side = 0; side < 2; ++side) {
      near[side] = frame_v(n, p, side, c) <= 2;
      for (int k = 0; k < geo.neighbour_count[c] && !near[side]; ++k) {
        const int y = geo.neighbours[c][k];
        near[side] = s.group[y] >= 0 ? group_near[s.group[y]][side] : b.cell[y] == 0 && empty_near(y, side);
      }
    }
    if (near[0] && near[1]) out.push_back(c);
  }
  return out;
}

}  // namespace

bool hex_connections_apply(const GameSpec& spec) { return spec.variant == Variant::kHex; }

int hex_connection_distance(const HexGame& game, Player p) {
  const Board b = board_of(game, p);
  const int n = b.n;
  const int unreached = std::numeric_limits<int>::max();
  std::vector<int> dist(b.cell.size(), unreached);
  std::deque<int> queue;
  auto cost = [&](int c) { return b.cell[c] == 1 ? 0 : 1; };
  for (int c : b.geo->board_cells)
    if (b.cell[c] != 2 && frame_v(n, p, 0, c) == 0) {
      dist[c] = cost(c);
      if (cost(c) == 0)
        queue.push_front(c);
      else
        queue.push_back(c);
    }
  // 0-1 breadth-first: cells popped in order of distance (a cell may be queued twice).
  while (!queue.empty()) {
    const int x = queue.front();
    queue.pop_front();
    for (int k = 0; k < b.geo->neighbour_count[x]; ++k) {
      const int y = b.geo->neighbours[x][k];
      if (b.cell[y] == 2) continue;
      const int d = dist[x] + cost(y);
      if (d >= dist[y]) continue;
      dist[y] = d;
      if (cost(y) == 0)
        queue.push_front(y);
      else
        queue.push_back(y);
    }
  }
  int best = unreached;
  for (int c : b.geo->board_cells)
    if (frame_v(n, p, 1, c) == 0) best = std::min(best, dist[c]);
  return best == unreached ? kNoPath : best;
}

bool hex_virtual_win(const HexGame& game, Player p, CellSet* carrier) {
  return virtual_win_on(board_of(game, p), p, carrier);
}

CellSet hex_must_play_against(const HexGame& game, Player p, bool* threatened) {
  Board b = board_of(game, p);
  CellSet region;
  if (virtual_win_on(b, p, nullptr)) {
    *threatened = true;
    return region;
  }
  *threatened = false;
  region.set();
  for (int c : threat_candidates(b, p)) {
    b.cell[c] = 1;
    CellSet carrier;
    if (virtual_win_on(b, p, &carrier)) {
      carrier.set(c);
      region &= carrier;
      *threatened = true;
    }
    b.cell[c] = 0;
  }
  if (!*threatened) region.set();
  return region;
}

bool hex_has_threat(const HexGame& game, Player p) {
  Board b = board_of(game, p);
  if (virtual_win_on(b, p, nullptr)) return true;
  for (int c : threat_candidates(b, p)) {
    b.cell[c] = 1;
    const bool win = virtual_win_on(b, p, nullptr);
    b.cell[c] = 0;
    if (win) return true;
  }
  return false;
}

}  // namespace quax
