// How many more moves a player needs to connect their edges if the opponent never replied:
// the leaf estimate that initialises proof and disproof numbers (a position where the
// attacker is two moves from connecting is easier to prove than one where they need five).
// Only a heuristic: it orders the search, never decides a value.
#pragma once

#include <cstdint>

#include "env/square_game.h"

namespace quax {

inline constexpr int kNoPath = 1 << 20;

// Moves (stones and link moves) `p` needs to connect its two edges, by the connection rules
// of the variant: orthogonal neighbours everywhere; in quax and link a diagonal through a
// block that holds no link costs one link move (none when p's link is already there); in
// quickway the link comes free with the stone; in crossway diagonals are free; in quadrex
// there are none. kNoPath when the opponent has cut every path.
int connection_distance(const SquareGame& game, Player p);

// Quax, link, quickway and crossway: the same count with a diagonal through a free block
// costing nothing unless the opponent holds both of its crossing cells (a bridge:
// solve/virtual_connection.h), in quickway and crossway a two-way join's far stone reached for
// nothing (solve/two_way_join.h), and a cell next to an edge joined to it for nothing where an
// edge template fits there. A lower bound on the stones and links p needs when bridges count
// as made, so a player with a virtual win is at 0, and one with a threat (one move from a
// virtual win) at most at 1.
int bridge_distance(const SquareGame& game, Player p);

// bridge_distance(game, p), and when it is 1, the empty cells where a stone of p's could bring
// it to 0: the only stones that can give p a virtual win (the threat scan of
// solve/virtual_connection.h tries no other). cells[x] = 1 on a path through x that costs
// nothing once x is p's; cells has size * size entries, untouched unless the result is 1.
int bridge_threat_cells(const SquareGame& game, Player p, uint8_t* cells);

}  // namespace quax
