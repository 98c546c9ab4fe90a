// The hexagonal boards of docs/RULES.md section 4 as tables shared by every state of one
// (variant, size): which grid cells are on the board, their six neighbours, the games played
// on the board (the whole board and, for the quadrant variants, its sub-games) with each
// cell's sides in each game, and the network-frame symmetries.
//
// Grid: cell = y * N + x on an N x N grid.
//  - Rhombus (hex, quadhex): x = column (0 = `a`), y = row - 1 (row 1 = south). Neighbours
//    (x±1, y), (x, y±1), (x+1, y-1), (x-1, y+1). Side bits in a game: 1 south row, 2 north
//    row, 4 west column, 8 east column; Black needs 1|2, White 4|8.
//  - Triangle (y, quady): x = column - 1 along the base, y = row - 1 counted from the apex,
//    on the board when x <= y. Neighbours (x±1, y), (x, y±1), (x+1, y+1), (x-1, y-1).
//    In the barycentric coordinates (a, b, c) = (x, y - x, N-1 - y), which sum to N-1 and
//    which every neighbour step changes by a permutation of (1, -1, 0), a game is a
//    triangle whose sides are the lines a, b or c = constant: side bits 1, 2, 4; both
//    players need all three.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "env/types.h"

namespace quax {

// The variants played on hexagons (their registered shape is the rhombus or the triangle).
bool is_hex_variant(Variant v);

struct HexGeometry {
  bool triangle = false;
  int n = 0, nn = 0;
  // Levels of quadrant splitting: 0 for hex and y, 1 for quadhex and quady, 2 for quady2.
  int depth = 0;

  std::vector<uint8_t> on_board;       // per grid cell
  std::vector<int16_t> board_cells;    // the on-board cells, ascending
  std::vector<std::array<int16_t, 6>> neighbours;
  std::vector<uint8_t> neighbour_count;

  struct Game {
    int level = 0;  // 0 = the whole board
    std::vector<int16_t> cells;
  };
  std::vector<Game> games;  // games[0] is the whole board
  int points_to_win = 1;    // a majority of games.size() (which is odd: 1, 5 or 21)
  uint8_t goal[2] = {0, 0};  // side bits a group of each player must reach

  // One union-find node per (game, cell of that game). members[member_begin[cell] ..
  // member_begin[cell + 1]) are the cell's memberships, with the nodes of its neighbours
  // in the same game.
  struct Member {
    int16_t game, node;
    uint8_t sides, count;
    std::array<int16_t, 6> nb_node, nb_cell;
  };
  std::vector<Member> members;
  std::vector<int32_t> member_begin;
  int num_nodes = 0;

  std::vector<uint8_t> border;   // on a side of some sub-game (the server's `+`); all 0 without sub-games
  // The same two as float planes for encode(); both are unchanged by the transpose (quadrant
  // borders are symmetric about the a1 diagonal), so they serve White's frame too.
  std::vector<float> on_board_plane, border_plane;
  std::vector<uint8_t> shade;    // rhombus diagrams: cell of an odd finest quadrant (the server's `-`)
  std::vector<int16_t> transposed;  // rhombus: (x, y) -> (y, x), White's network frame and the swap mirror
  // Network-frame symmetries as cell permutations (off-board cells map to themselves);
  // symmetries[0] is the identity. Rhombus: identity and half turn. Triangle: the six
  // permutations of (a, b, c).
  std::vector<std::vector<int16_t>> symmetries;
  std::vector<uint64_t> stone_key;  // [cell * 2 + player]

  // Cached per (game, size): variants of the same game rules (rules_of) share one table, so
  // their position keys agree. Precondition: is_hex_variant(v) and check_spec passes.
  static std::shared_ptr<const HexGeometry> get(Variant v, int n);

  HexGeometry(Variant v, int n);
};

}  // namespace quax
