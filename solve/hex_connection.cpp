#include "solve/hex_connection.h"

#include <algorithm>
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

// A structure joining two nodes of the chain graph (groups 0..G-1, edges G and G+1).
struct Join {
  int a = 0, b = 0;
  // Either a fixed carrier (maybe empty: a group touching an edge, a ziggurat) or two cells to
  // be chosen among `options` (a bridge, a second-row template).
  bool choose_two = false;
  std::vector<int> cells;
};

// p's groups (stones joined by sides): *group per cell (-1 elsewhere), the count returned.
int label_groups(const Board& b, std::vector<int>* group) {
  group->assign(b.cell.size(), -1);
  int count = 0;
  std::vector<int> stack;
  for (int c : b.geo->board_cells) {
    if (b.cell[c] != 1 || (*group)[c] >= 0) continue;
    (*group)[c] = count;
    stack.push_back(c);
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      for (int k = 0; k < b.geo->neighbour_count[x]; ++k) {
        const int y = b.geo->neighbours[x][k];
        if (b.cell[y] == 1 && (*group)[y] < 0) {
          (*group)[y] = count;
          stack.push_back(y);
        }
      }
    }
    ++count;
  }
  return count;
}

std::vector<Join> joins_of(const Board& b, Player p, const std::vector<int>& group, int groups) {
  std::vector<Join> out;
  const int n = b.n;
  auto empty = [&](int c) { return c >= 0 && b.cell[c] == 0; };
  // Each group's empty neighbours.
  std::vector<std::vector<int>> liberties(static_cast<size_t>(groups));
  for (int c : b.geo->board_cells) {
    if (b.cell[c] != 0) continue;
    int seen[6], k_seen = 0;
    for (int k = 0; k < b.geo->neighbour_count[c]; ++k) {
      const int g = group[b.geo->neighbours[c][k]];
      if (g < 0 || std::find(seen, seen + k_seen, g) != seen + k_seen) continue;
      seen[k_seen++] = g;
      liberties[g].push_back(c);
    }
  }
  for (int g = 0; g < groups; ++g) {
    // Bridges: two common empty neighbours with a later group.
    for (int h = g + 1; h < groups; ++h) {
      Join j{g, h, true, {}};
      for (int c : liberties[g])
        if (std::find(liberties[h].begin(), liberties[h].end(), c) != liberties[h].end()) j.cells.push_back(c);
      if (j.cells.size() >= 2) out.push_back(std::move(j));
    }
    for (int side = 0; side < 2; ++side) {
      const int edge = groups + side;
      // Touching the edge; else two empty neighbours on the edge row.
      bool touches = false;
      Join second_row{g, edge, true, {}};
      for (int c : liberties[g])
        if (frame_v(n, p, side, c) == 0) second_row.cells.push_back(c);
      for (int c : b.geo->board_cells)
        if (group[c] == g && frame_v(n, p, side, c) == 0) touches = true;
      if (touches) {
        out.push_back(Join{g, edge, false, {}});
        continue;
      }
      if (second_row.cells.size() >= 2) out.push_back(std::move(second_row));
      // Ziggurats of the group's stones on the third row.
      for (int c : b.geo->board_cells) {
        if (group[c] != g || frame_v(n, p, side, c) != 2) continue;
        const int u = frame_u(n, p, side, c);
        for (int mirror = 0; mirror < 2; ++mirror) {
          // The trapezoid widens towards +u, or in the mirror image towards -u (see the header).
          const int first = mirror ? u - 1 : u;
          std::vector<std::pair<int, int>> uv = {{mirror ? u - 1 : u + 1, 2}};
          for (int k = 0; k < 3; ++k) uv.push_back({first + k, 1});
          for (int k = 0; k < 4; ++k) uv.push_back({first + k, 0});
          Join z{g, edge, false, {}};
          bool fits = true;
          for (const auto& [uu, vv] : uv) {
            const int cell = frame_cell(n, p, side, uu, vv);
            if (!empty(cell)) {
              fits = false;
              break;
            }
            z.cells.push_back(cell);
          }
          if (fits) out.push_back(std::move(z));
        }
      }
    }
  }
  return out;
}

// Depth-first search for a chain from edge `groups` to edge `groups + 1` over `joins` with
// pairwise disjoint carriers; on success *carrier holds their union.
bool find_chain(const std::vector<Join>& joins, int groups, CellSet* carrier) {
  std::vector<std::vector<int>> at(static_cast<size_t>(groups + 2));
  for (size_t i = 0; i < joins.size(); ++i) {
    at[joins[i].a].push_back(static_cast<int>(i));
    at[joins[i].b].push_back(static_cast<int>(i));
  }
  std::vector<uint8_t> on_path(static_cast<size_t>(groups + 2), 0);
  CellSet used;
  int steps = 0;
  const int target = groups + 1;
  // Recursion depth is at most the number of nodes (a path visits each once).
  auto visit = [&](auto&& self, int node) -> bool {
    if (node == target) return true;
    if (++steps > kMaxChainSteps) return false;
    on_path[node] = 1;
    for (int i : at[node]) {
      const Join& j = joins[i];
      const int next = j.a == node ? j.b : j.a;
      if (on_path[next]) continue;
      CellSet mine;
      if (j.choose_two) {
        int taken = 0;
        for (int c : j.cells)
          if (!used[c] && taken < 2) {
            mine.set(c);
            ++taken;
          }
        if (taken < 2) continue;
      } else {
        bool clash = false;
        for (int c : j.cells) {
          clash = clash || used[c];
          mine.set(c);
        }
        if (clash) continue;
      }
      used |= mine;
      if (self(self, next)) return true;
      used &= ~mine;
    }
    on_path[node] = 0;
    return false;
  };
  if (!visit(visit, groups)) return false;
  if (carrier) *carrier = used;
  return true;
}

bool virtual_win_on(const Board& b, Player p, CellSet* carrier) {
  std::vector<int> group;
  const int groups = label_groups(b, &group);
  return find_chain(joins_of(b, p, group, groups), groups, carrier);
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
  for (int c : game.geometry().board_cells) {
    if (b.cell[c] != 0) continue;
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
  for (int c : game.geometry().board_cells) {
    if (b.cell[c] != 0) continue;
    b.cell[c] = 1;
    const bool win = virtual_win_on(b, p, nullptr);
    b.cell[c] = 0;
    if (win) return true;
  }
  return false;
}

}  // namespace quax
