#include "solve/hex_connection.h"

#include <algorithm>
#include <array>
#include <deque>
#include <limits>
#include <vector>

#include "solve/connection_distance.h"  // kNoPath
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
  const EdgeConnections e = hex_edge_connections(game, p);
  if (e.full && carrier) *carrier = cell_set(e.full_carrier);
  return e.full;
}

CellSet hex_must_play_against(const HexGame& game, Player p, bool* threatened) {
  const EdgeConnections e = hex_edge_connections(game, p);
  *threatened = e.full || !e.semis.empty();
  CellSet region;
  if (e.full) return region;
  if (e.semis.empty()) return region.set();
  HexCells common = e.semis.front();
  for (const HexCells& s : e.semis) common &= s;
  return cell_set(common);
}

bool hex_has_threat(const HexGame& game, Player p) {
  const EdgeConnections e = hex_edge_connections(game, p);
  return e.full || !e.semis.empty();
}

}  // namespace quax
