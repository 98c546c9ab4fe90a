// H-search (Anshelevich's rules for hex) between the two edges of one player: the connections
// that player holds whoever moves (full) and those one move away (semi), each with its
// *carrier*, the empty cells the opponent must take to break it. solve/hex_connection.h turns
// them into virtual wins, threats and must-play regions for the proof search.
//
// The points of player p: p's two edges, p's groups (stones joined by sides; a group touching
// an edge is that edge) and the empty cells. A connection between points x and y with carrier C
// says x and y join through C's cells whatever the opponent does there, given that x and y are
// p's (an empty endpoint counts as p's stone; endpoints are never in a carrier).
//  - Base: adjacent points are fully connected with the empty carrier (an empty cell on an
//    edge's row is adjacent to that edge).
//  - AND: full(x, z, A) and full(z, y, B) with A, B disjoint and neither holding x or y. If z is
//    p's group, full(x, y, A ∪ B): every opponent stone lands in at most one of A, B, and p
//    restores that one. If z is empty, semi(x, y, A ∪ B ∪ {z}) with key z: p playing z makes the
//    first case. Likewise full with semi over p's group gives a semi.
//  - OR: semis of x and y whose carriers have no cell in common give full(x, y, their union): any
//    opponent stone misses some semi's carrier, and p plays that semi's key.
// Dead cells and the pairs of cells p captures (solve/hex_dead_cell.h) are first filled with p's
// stones: a dead cell's colour decides nothing, and p answers in a captured pair, so what holds
// on the filled board holds on the board, each captured pair joining every carrier.
// Soundness is all the proof search needs: each rule only combines connections that hold, so
// every connection found holds. Not every connection is found (the rules are incomplete, and
// the lists below are bounded), and a connection's carrier may be larger than needed.
#pragma once

#include <bitset>
#include <vector>

#include "env/hex_game.h"

namespace quax {

// Grid cells r * N + c of boards up to kHSearchMaxSize.
constexpr int kHSearchMaxSize = 11;
using HexCells = std::bitset<kHSearchMaxSize * kHSearchMaxSize>;

// Bit s (0 or 1) set when grid cell `c` of an N x N rhombus lies on the row of p's edge s
// (Black: y = 0 and y = N - 1; White: x = 0 and x = N - 1).
inline int hex_edge_rows(int n, Player p, int c) {
  const int v = p == Player::kBlack ? c / n : c % n;
  return (v == 0 ? 1 : 0) | (v == n - 1 ? 2 : 0);
}

struct EdgeConnections {
  bool full = false;            // p's edges fully connected (or joined by stones)
  HexCells full_carrier;        // the smallest full carrier found and the captured pairs (empty: joined)
  std::vector<HexCells> semis;  // carriers, keys included, of semis between the edges (when !full)
};

// H-search for `p` on a hex position of the rhombus without sub-games, size at most
// kHSearchMaxSize. Stops at the first full connection of the edges. Bounded in work (a few
// hundred thousand combinations), so a position may hold connections it does not report.
EdgeConnections hex_edge_connections(const HexGame& game, Player p);

}  // namespace quax
