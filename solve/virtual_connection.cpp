#include "solve/virtual_connection.h"

#include <algorithm>
#include <cstdint>

#include "solve/connection_distance.h"
#include "solve/edge_template.h"
#include "solve/fill_connection.h"
#include "solve/two_way_join.h"

namespace quax {

namespace {

constexpr int kMaxCells = 26 * 26;
// Bridges (at most two per block), quickway's gaps and knight's moves (at most eight per stone,
// each pair counted once) and edge templates (at most two per cell one or two rows from an edge).
constexpr int kMaxBridges = 2 * kMaxCells + 8 * kMaxCells + 8 * 26;
// The chain search's nodes: groups (named by a cell), then the two edges.
constexpr int kStartEdge = kMaxCells, kEndEdge = kMaxCells + 1, kMaxNodes = kMaxCells + 2;
// Chains tried per question: the search over groups could branch without end on a board
// of many small groups; a bounded search only answers "not found" more often.
constexpr int kSearchBudget = 4096;

// The position from one player's side, in flat arrays the threat scan can change and undo.
struct Board {
  int n = 0, nn = 0;
  bool rows = true;              // p connects row 1 to row N (Black), else column a to N
  bool automatic = false;        // quickway: a stone links its diagonal neighbours itself
  bool diagonal = false;         // crossway: diagonal neighbours are joined, no checkerboards
  uint8_t cell[kMaxCells];       // 0 empty, 1 p's stone, 2 the opponent's
  uint8_t link[kMaxCells];       // per block: 0 none, 1 p's `/`, 2 p's `\`, 3 the opponent's
};

Board board_for(const SquareGame& game, Player p) {
  Board b;
  b.n = game.size();
  b.nn = b.n * b.n;
  b.rows = p == Player::kBlack;
  b.automatic = variant_info(game.spec().variant).links == LinkRule::kAutomatic;
  b.diagonal = variant_info(game.spec().variant).links == LinkRule::kDiagonal;
  for (int x = 0; x < b.nn; ++x) {
    const Player s = game.stone(x % b.n, x / b.n);
    b.cell[x] = s == Player::kNone ? 0 : (s == p ? 1 : 2);
    b.link[x] = 0;
  }
  for (int r = 0; r + 1 < b.n; ++r) {
    for (int c = 0; c + 1 < b.n; ++c) {
      int d = 0;
      const Player owner = game.link_on(c, r, &d);
      if (owner != Player::kNone) b.link[r * b.n + c] = owner == p ? static_cast<uint8_t>(1 + d) : 3;
    }
  }
  return b;
}

// The cells of diagonal d of block (c, r): its ends, then its crossing cells.
void diagonal_cells(int n, int c, int r, int d, int* x, int* y, int* u, int* v) {
  const int sw = r * n + c, se = sw + 1, nw = sw + n, ne = nw + 1;
  if (d == 0) {
    *x = sw, *y = ne, *u = se, *v = nw;
  } else {
    *x = se, *y = nw, *u = sw, *v = ne;
  }
}

// Calls f(block, d, partner, u, v) for each block around cell x: the block (its south-west
// cell), its diagonal d through x, x's partner at the other end and the two other cells.
template <typename F>
void for_each_block_around(const Board& b, int x, F f) {
  const int n = b.n, c = x % n, r = x / n;
  for (int dr = -1; dr <= 0; ++dr) {
    for (int dc = -1; dc <= 0; ++dc) {
      const int bc = c + dc, br = r + dr;
      if (bc < 0 || br < 0 || bc + 1 >= n || br + 1 >= n) continue;
      for (int d = 0; d < 2; ++d) {
        int e1, e2, u, v;
        diagonal_cells(n, bc, br, d, &e1, &e2, &u, &v);
        if (e1 == x) f(br * n + bc, d, e2, u, v);
        if (e2 == x) f(br * n + bc, d, e1, u, v);
      }
    }
  }
}

// Crossway: may p place a stone on empty cell x? Not where some block around x has p's
// partner and the opponent's two other cells (the stone would complete a checkerboard).
// Elsewhere always.
bool legal_for_p(const Board& b, int x) {
  if (!b.diagonal) return true;
  bool legal = true;
  for_each_block_around(b, x, [&](int, int, int partner, int u, int v) {
    if (b.cell[partner] == 1 && b.cell[u] == 2 && b.cell[v] == 2) legal = false;
  });
  return legal;
}

class ChainFinder {
 public:
  explicit ChainFinder(const Board& b) : b_(b) {}

  bool find(CellSet* carrier) {
    const int n = b_.n, nn = b_.nn;
    for (int x = 0; x < nn; ++x) parent_[x] = static_cast<int16_t>(x);
    for (int x = 0; x < nn; ++x) {
      if (b_.cell[x] != 1) continue;
      const int c = x % n, r = x / n;
      if (c + 1 < n && b_.cell[x + 1] == 1) unite(x, x + 1);
      if (r + 1 < n && b_.cell[x + n] == 1) unite(x, x + n);
      if (b_.diagonal && r + 1 < n) {  // (a checkerboard, the only way to cross them, is illegal)
        if (c + 1 < n && b_.cell[x + n + 1] == 1) unite(x, x + n + 1);
        if (c > 0 && b_.cell[x + n - 1] == 1) unite(x, x + n - 1);
      }
    }
    for (int r = 0; r + 1 < n; ++r) {
      for (int c = 0; c + 1 < n; ++c) {
        const uint8_t l = b_.link[r * n + c];
        if (l != 1 && l != 2) continue;
        int x, y, u, v;
        diagonal_cells(n, c, r, l - 1, &x, &y, &u, &v);
        unite(x, y);
      }
    }
    // Edges per group root.
    reset(at_start_, false);
    reset(at_end_, false);
    at_end_[kEndEdge] = true;
    for (int i = 0; i < n; ++i) {
      const int s = b_.rows ? i : i * n, e = b_.rows ? (n - 1) * n + i : i * n + n - 1;
      if (b_.cell[s] == 1) at_start_[find_root(s)] = true;
      if (b_.cell[e] == 1) at_end_[find_root(e)] = true;
    }
    for (int x = 0; x < nn; ++x) {
      if (b_.cell[x] == 1 && find_root(x) == x && at_start_[x] && at_end_[x]) {
        if (carrier) carrier->reset();
        return true;
      }
    }
    // Bridges between different groups.
    bridges_ = 0;
    reset(first_, static_cast<int16_t>(-1));
    // (Only where links are moves: quickway's diagonal pairs link by themselves, crossway's
    // are joined without links.)
    for (int r = 0; r + 1 < n && !b_.automatic && !b_.diagonal; ++r) {
      for (int c = 0; c + 1 < n; ++c) {
        if (b_.link[r * n + c] != 0) continue;
        for (int d = 0; d < 2; ++d) {
          int x, y, u, v;
          diagonal_cells(n, c, r, d, &x, &y, &u, &v);
          if (b_.cell[x] != 1 || b_.cell[y] != 1) continue;
          const int gx = find_root(x), gy = find_root(y);
          if (gx == gy) continue;  // also when a crossing cell is p's: it touches both ends
          if (b_.cell[u] == 2 && b_.cell[v] == 2) continue;  // the opponent can link across
          const int id = bridges_++;
          carrier_[id][0] = static_cast<int16_t>(b_.cell[u] == 0 ? u : v);
          carrier_[id][1] = static_cast<int16_t>(b_.cell[u] == 0 && b_.cell[v] == 0 ? v : -1);
          carrier_[id][2] = -1;  // (the list ends at the first -1)
          add_end(id, 0, gx, gy);
          add_end(id, 1, gy, gx);
        }
      }
    }
    if (b_.automatic || b_.diagonal) add_two_way_joins();
    add_edge_templates();
    if (bridges_ == 0) return false;
    used_.reset();
    reset(visited_, false);
    budget_ = kSearchBudget;
    // From each group on the start edge, then from the edge itself (through its templates).
    for (int x = 0; x <= nn; ++x) {
      const int from = x < nn ? x : kStartEdge;
      if (x < nn && (b_.cell[x] != 1 || find_root(x) != x || !at_start_[x])) continue;
      visited_[from] = true;
      if (search(from)) {
        if (carrier) *carrier = used_;
        return true;
      }
      if (budget_ <= 0) return false;
    }
    return false;
  }

 private:
  // Sets a per-node array over this board's cells and the two edge nodes (the only nodes
  // used): it runs at every threat tried, where clearing all kMaxNodes cost more than the rest.
  template <typename T>
  void reset(T* nodes, T value) const {
    std::fill(nodes, nodes + b_.nn, value);
    nodes[kStartEdge] = nodes[kEndEdge] = value;
  }
  int find_root(int x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void unite(int a, int b) { parent_[find_root(a)] = static_cast<int16_t>(find_root(b)); }

  // Incidence lists: end slot 2 * id + side lives in group `from`'s list and leads to `to`.
  void add_end(int id, int side, int from, int to) {
    const int slot = 2 * id + side;
    to_[slot] = static_cast<int16_t>(to);
    next_[slot] = first_[from];
    first_[from] = static_cast<int16_t>(slot);
  }

  // The cell `along` cells along p's edges and `depth` rows in from p's start edge.
  int at(int along, int depth) const { return b_.rows ? depth * b_.n + along : along * b_.n + depth; }

  // Quickway's two-way joins (virtual_connection.h): from each stone of p's, the stones of
  // other groups a gap or a knight's move away whose two routes are empty and whose side
  // cells are not the opponent's; each pair once (from its lower cell).
  void add_two_way_joins() {
    const int n = b_.n;
    auto on_board = [n](int c, int r) { return c >= 0 && r >= 0 && c < n && r < n; };
    for (int a = 0; a < b_.nn; ++a) {
      if (b_.cell[a] != 1) continue;
      const int ac = a % n, ar = a / n;
      for (const TwoWayJoin& j : two_way_joins()) {
        // The other stone first: most joins stop there.
        if (!on_board(ac + j.dc[0], ar + j.dr[0])) continue;
        const int other = (ar + j.dr[0]) * n + ac + j.dc[0];
        if (other < a || b_.cell[other] != 1) continue;
        const int g = find_root(a), h = find_root(other);
        if (g == h) continue;
        int cells[4];
        bool fits = true;
        for (int k = 1; k < 5 && fits; ++k) {
          fits = on_board(ac + j.dc[k], ar + j.dr[k]);
          cells[k - 1] = (ar + j.dr[k]) * n + ac + j.dc[k];
        }
        if (!fits || b_.cell[cells[0]] != 0 || b_.cell[cells[1]] != 0 || b_.cell[cells[2]] == 2 ||
            b_.cell[cells[3]] == 2)
          continue;
        const int id = bridges_++;
        int count = 0;
        for (int x : cells)
          if (b_.cell[x] == 0) carrier_[id][count++] = static_cast<int16_t>(x);
        carrier_[id][count] = -1;
        add_end(id, 0, g, h);
        add_end(id, 1, h, g);
      }
    }
  }

  // Edge templates (solve/edge_template.h): a group's stone one or two rows from an edge it
  // does not touch, joined to that edge's node through the template's carrier.
  void add_edge_templates() {
    const int n = b_.n;
    for (int side = 0; side < 2; ++side) {
      const int edge_node = side == 0 ? kStartEdge : kEndEdge;
      // A cell `along` the edge and `rows` in from this side's edge.
      auto cell = [&](int along, int rows) { return at(along, side == 0 ? rows : n - 1 - rows); };
      auto empty = [&](int along, int rows) { return b_.cell[cell(along, rows)] == 0; };
      for (int rows = 1; rows <= 2; ++rows) {
        for (int i = 0; i < n; ++i) {
          const int x = cell(i, rows);
          if (b_.cell[x] != 1) continue;
          const int g = find_root(x);
          if (side == 0 ? at_start_[g] : at_end_[g]) continue;
          for_each_edge_template(n, i, rows, empty, [&](const int* along, const int* in, int count) {
            const int id = bridges_++;
            for (int k = 0; k < kMaxTemplateCells; ++k)
              carrier_[id][k] = static_cast<int16_t>(k < count ? cell(along[k], in[k]) : -1);
            add_end(id, 0, g, edge_node);
            add_end(id, 1, edge_node, g);
          });
        }
      }
    }
  }

  bool carrier_free(int id) const {
    for (int k = 0; k < kMaxTemplateCells && carrier_[id][k] >= 0; ++k)
      if (used_[static_cast<size_t>(carrier_[id][k])]) return false;
    return true;
  }
  void set_carrier(int id, bool on) {
    for (int k = 0; k < kMaxTemplateCells && carrier_[id][k] >= 0; ++k)
      used_.set(static_cast<size_t>(carrier_[id][k]), on);
  }

  // Depth first from node g (already visited) with the carriers in used_.
  bool search(int g) {
    if (at_end_[g]) return true;
    if (--budget_ <= 0) return false;
    for (int slot = first_[g]; slot >= 0; slot = next_[slot]) {
      const int h = to_[slot], id = slot / 2;
      if (visited_[h] || !carrier_free(id)) continue;
      visited_[h] = true;
      set_carrier(id, true);
      if (search(h)) return true;
      set_carrier(id, false);
      if (budget_ <= 0) return false;
      // h stays visited after a failed try: the search stays linear in the bridges, and
      // misses a chain only where two routes through h would need different carriers.
    }
    return false;
  }

  const Board& b_;
  int16_t parent_[kMaxCells];
  bool at_start_[kMaxNodes], at_end_[kMaxNodes], visited_[kMaxNodes];
  int bridges_ = 0;
  // Each bridge's, join's or template's empty cells; -1 past the last.
  int16_t carrier_[kMaxBridges][kMaxTemplateCells];
  int16_t first_[kMaxNodes], to_[2 * kMaxBridges], next_[2 * kMaxBridges];
  CellSet used_;
  int budget_ = 0;
};

bool virtual_win_on(const Board& b, CellSet* carrier) {
  ChainFinder finder(b);
  return finder.find(carrier);
}

// Every threat of p's in turn (stones first, then links), each with its key cell (for a stone)
// and carrier, and its key block (for a link; -1 for a stone); `on_threat(cells, key_block)`
// returns false to stop the scan. Stones are tried on the cells `keys` marks
// (bridge_threat_cells), or everywhere without it.
template <typename OnThreat>
void scan_threats(Board& b, const uint8_t* keys, OnThreat on_threat) {
  CellSet carrier;
  const int n = b.n;
  for (int x = 0; x < b.nn; ++x) {
    if (b.cell[x] != 0 || (keys && !keys[x]) || !legal_for_p(b, x)) continue;
    // Crossway: an opponent stone that would leave p's stone on x completing a checkerboard
    // stops the threat too (a block with p's partner, one crossing cell the opponent's and the
    // other empty: that empty cell).
    CellSet blockers;
    if (b.diagonal) {
      for_each_block_around(b, x, [&](int, int, int partner, int u, int v) {
        if (b.cell[partner] != 1) return;
        if (b.cell[u] == 2 && b.cell[v] == 0) blockers.set(static_cast<size_t>(v));
        if (b.cell[v] == 2 && b.cell[u] == 0) blockers.set(static_cast<size_t>(u));
      });
    }
    b.cell[x] = 1;
    // Quickway: the stone links its diagonal neighbours of p's in blocks without a link, as
    // the move would. Such a link can still be taken away before p plays x: by an opponent
    // stone on a crossing cell of its block whose other crossing cell is the opponent's
    // already (that stone links the other diagonal), so those cells join the threat's set.
    int linked[4], links = 0;
    CellSet crossings;
    if (b.automatic) {
      for_each_block_around(b, x, [&](int block, int d, int partner, int u, int v) {
        if (b.link[block] != 0 || b.cell[partner] != 1) return;
        b.link[block] = static_cast<uint8_t>(1 + d);
        linked[links++] = block;
        if (b.cell[u] == 0 && b.cell[v] == 2) crossings.set(static_cast<size_t>(u));
        if (b.cell[v] == 0 && b.cell[u] == 2) crossings.set(static_cast<size_t>(v));
      });
    }
    const bool found = virtual_win_on(b, &carrier);
    for (int i = 0; i < links; ++i) b.link[linked[i]] = 0;
    b.cell[x] = 0;
    if (found && !on_threat(carrier.set(x) | crossings | blockers, -1)) return;
  }
  if (b.automatic || b.diagonal) return;  // no link moves
  for (int r = 0; r + 1 < n; ++r) {
    for (int c = 0; c + 1 < n; ++c) {
      uint8_t& l = b.link[r * n + c];
      if (l != 0) continue;
      for (int d = 0; d < 2; ++d) {
        int x, y, u, v;
        diagonal_cells(n, c, r, d, &x, &y, &u, &v);
        if (b.cell[x] != 1 || b.cell[y] != 1) continue;
        l = static_cast<uint8_t>(1 + d);
        const bool found = virtual_win_on(b, &carrier);
        l = 0;
        if (found && !on_threat(carrier, r * n + c)) return;
      }
    }
  }
}

}  // namespace

bool virtual_connections_apply(const GameSpec& spec) {
  const VariantInfo& info = variant_info(spec.variant);
  if (info.shape != BoardShape::kSquare || info.turns != TurnRule::kOneAction) return false;
  if (info.fill_cascade) return info.links == LinkRule::kNone;  // quadrex: solve/fill_connection.h
  return info.links == LinkRule::kChosen || info.links == LinkRule::kAutomatic || info.links == LinkRule::kDiagonal;
}

namespace {
bool fills(const SquareGame& game) { return variant_info(game.spec().variant).fill_cascade; }
}  // namespace

// The scans below are cut short by bridge_distance(): 0 for a virtual win, at most 1 for a
// threat, and at 1 a threat's key stone lies on a path that then costs nothing
// (solve/connection_distance.h).
bool virtual_win(const SquareGame& game, Player p, CellSet* carrier) {
  if (fills(game)) return fill_virtual_win(game, p, carrier);
  if (bridge_distance(game, p) > 0) return false;
  const Board b = board_for(game, p);
  return virtual_win_on(b, carrier);
}

bool has_threat(const SquareGame& game, Player p) {
  if (fills(game)) return fill_has_threat(game, p);
  uint8_t keys[kMaxCells];
  const int distance = bridge_threat_cells(game, p, keys);
  if (distance > 1) return false;
  Board b = board_for(game, p);
  if (virtual_win_on(b, nullptr)) return true;
  bool found = false;
  scan_threats(b, distance == 1 ? keys : nullptr, [&](const CellSet&, int) {
    found = true;
    return false;
  });
  return found;
}

CellSet must_play_against(const SquareGame& game, Player p, bool* threatened, CellSet* link_blocks) {
  CellSet region, blocks;
  region.set();
  blocks.set();
  *threatened = false;
  if (fills(game)) {
    region = fill_must_play_against(game, p, threatened);
    if (*threatened) blocks.reset();  // quadrex has no links
  } else {
    uint8_t keys[kMaxCells];
    const int distance = bridge_threat_cells(game, p, keys);
    if (distance <= 1) {
      Board b = board_for(game, p);
      *threatened = virtual_win_on(b, nullptr);
      if (*threatened) {
        region.reset();
        blocks.reset();
      } else {
        scan_threats(b, distance == 1 ? keys : nullptr, [&](const CellSet& key_and_carrier, int key_block) {
          *threatened = true;
          region &= key_and_carrier;
          if (key_block < 0) {
            blocks.reset();
          } else {
            const bool kept = blocks[static_cast<size_t>(key_block)];
            blocks.reset();
            blocks.set(static_cast<size_t>(key_block), kept);
          }
          // An empty region with no block left cannot shrink further.
          return region.any() || blocks.any();
        });
      }
    }
  }
  if (link_blocks) *link_blocks = blocks;
  return region;
}

}  // namespace quax
