// Inferior moves of quax, link and quickway: moves that act as a pass, which the proof search
// (solve/proof_search.h) need not try while a stone can be placed elsewhere.
//
// Why a pass-like move may be skipped. These three games are monotone: an extra stone of p's
// never hurts p. It joins p's groups and edges at least as much as before; it takes a cell
// from the opponent; p's links need only p's own stones, so none is lost (a link a stone's
// automatic links in quickway forbid would cross a diagonal of p's own stones, which are
// already joined through them); and a link of p's only closes a block where the opponent
// could have linked. So from any position p does at least as well after a stone of p's as
// after a pass: p plays on as after the pass, and when that play asks for the cell the extra
// stone holds, p places a stone anywhere else. A move that changes nothing a connection can
// use is therefore no better than any stone placement, for either player, and dropping it
// keeps the value of every position where a placement remains. Not in crossway, where an
// own stone can make a cell illegal for p (a checkerboard), nor in quadrex, where an own
// stone across the opponent's diagonal pair fills that block's last cell for the opponent.
//
// The two kinds:
//  - A *useless link*: p's link across a block holding a third stone of p's. The stone sits
//    orthogonally next to both ends, so they are joined already; and the block's other
//    diagonal holds that stone, so the opponent could never link across it. The block's
//    link slot then matters to nobody: the move is a pass.
//  - A *dead cell*: an empty cell whose orthogonal neighbours on the board are all stones of
//    one player q, and where every block around it (on the board) holds q's stone on the
//    corner opposite the cell, or q's link across the cell's two neighbours there.
//      * Either way the two neighbours in that block are joined, so the neighbours form one
//        group around the cell, and a stone of q's on it would join nothing new: its links
//        could only reach the opposite corners, which touch the same neighbours; each edge it
//        lies on is touched by its neighbour along that edge.
//      * The opponent's stone there would have no neighbour of its own colour ever, and no
//        link either (each block is linked already, or its opposite corner is q's), so it
//        joins nothing; on its own it spans no edge to edge.
//    A stone on a dead cell, by either player, is a pass.
// Checked against the search without it on random quax, link and quickway positions
// (tests/solve_inferior_move_test.cpp).
#pragma once

#include <cstdint>

#include "env/square_game.h"

namespace quax {

// True for the variants whose positions drop_pass_like_moves understands (quax, link,
// quickway), with the pie rule out of play (checked by the caller).
bool inferior_moves_apply(const GameSpec& spec);

// Clears in `mask` (the legal mask of `game`, the mover's moves) the useless links and the
// stones on dead cells, keeping at least one stone placement: when every empty cell is dead,
// the first stays. Returns the number of moves cleared.
int drop_pass_like_moves(const SquareGame& game, uint8_t* mask);

}  // namespace quax
