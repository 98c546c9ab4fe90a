#include "solve/hex_connection.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <vector>

#include "solve/connection_distance.h"  // kNoPath
#include "env/rng.h"                    // mix64
#include "solve/hex_h_search.h"

namespace quax {

namespace {

// Cells of HexCells (hex_h_search.h) as a CellSet: both index grid cells r * N + c.
CellSet cell_set(const HexCells& cells) {
  CellSet out;
  for (size_t c = 0; c < cells.size(); ++c)
    if (cells[c]) out.set(c);
  return out;
}

// What the three questions below need from one H-search of p's, kept for the position: the
// proof search asks about a position's last mover when it evaluates it and again when it
// expands it.
struct EdgeSummary {
  bool full = false, threatened = false;
  HexCells carrier;         // of the full connection
  HexCells region;          // the must-play region (when threatened and not full)
  HexCells threat_carrier;  // the full connection's carrier, or the smallest semi's
  HexCells threat_union;    // the carriers of every threat together
};

const EdgeSummary& edge_summary(const HexGame& game, Player p) {
  constexpr size_t kEntries = 1 << 14;
  struct Entry {
    uint64_t key = 0;
    bool used = false;
    EdgeSummary summary;
  };
  thread_local std::vector<Entry> cache(kEntries);
  // The size joins the key: positions of different boards (one thread, several searches) may
  // share a position key.
  const uint64_t key =
      game.position_key() ^ mix64(static_cast<uint64_t>(game.geometry().n) * 2 + (p == Player::kWhite));
  Entry& e = cache[key % kEntries];
  if (e.used && e.key == key) return e.summary;
  const EdgeConnections c = hex_edge_connections(game, p);
  EdgeSummary& s = e.summary;
  s.full = c.full;
  s.threatened = c.full || !c.semis.empty();
  s.carrier = c.full_carrier;
  s.region.set();
  s.threat_union.reset();
  for (const HexCells& semi : c.semis) {
    s.region &= semi;
    s.threat_union |= semi;
  }
  s.threat_carrier = c.full || c.semis.empty()
                         ? c.full_carrier
                         : *std::min_element(c.semis.begin(), c.semis.end(), [](const HexCells& a, const HexCells& b) {
                             return a.count() < b.count();
                           });
  if (c.full) {
    s.region.reset();
    s.threat_union = c.full_carrier;
  }
  e.key = key;
  e.used = true;
  return s;
}

}  // namespace

bool hex_connections_apply(const GameSpec& spec) {
  return spec.variant == Variant::kHex && spec.size <= kHSearchMaxSize;
}

int hex_connection_distance(const HexGame& game, Player p) {
  const HexGeometry& geo = game.geometry();
  const int n = geo.n;
  // Per grid cell: 0 empty, 1 p's, 2 the opponent's.
  std::vector<uint8_t> cell(static_cast<size_t>(geo.nn), 2);
  for (int c : geo.board_cells) cell[c] = game.stone(c) == Player::kNone ? 0 : game.stone(c) == p ? 1 : 2;
  const int unreached = std::numeric_limits<int>::max();
  std::vector<int> dist(cell.size(), unreached);
  std::deque<int> queue;
  auto cost = [&](int c) { return cell[c] == 1 ? 0 : 1; };
  for (int c : geo.board_cells)
    if (cell[c] != 2 && (hex_edge_rows(n, p, c) & 1)) {
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
    for (int k = 0; k < geo.neighbour_count[x]; ++k) {
      const int y = geo.neighbours[x][k];
      if (cell[y] == 2) continue;
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
  for (int c : geo.board_cells)
    if (hex_edge_rows(n, p, c) & 2) best = std::min(best, dist[c]);
  return best == unreached ? kNoPath : best;
}

bool hex_virtual_win(const HexGame& game, Player p, CellSet* carrier) {
  const EdgeSummary& s = edge_summary(game, p);
  if (s.full && carrier) *carrier = cell_set(s.carrier);
  return s.full;
}

CellSet hex_must_play_against(const HexGame& game, Player p, bool* threatened, CellSet* threat_cells) {
  const EdgeSummary& s = edge_summary(game, p);
  *threatened = s.threatened;
  if (threat_cells && s.threatened) *threat_cells = cell_set(s.threat_union);
  return s.threatened ? cell_set(s.region) : CellSet().set();
}

bool hex_has_threat(const HexGame& game, Player p, CellSet* carrier) {
  const EdgeSummary& s = edge_summary(game, p);
  if (s.threatened && carrier) *carrier = cell_set(s.threat_carrier);
  return s.threatened;
}

}  // namespace quax
