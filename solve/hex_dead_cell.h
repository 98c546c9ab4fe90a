// Dead cells of hex: empty cells whose colour can no longer decide the game, so that a stone
// there, by either player, acts as a pass, which the proof search (solve/proof_search.h)
// need not try while another cell is empty; and pairs of cells one player captures.
//
// Why. Walk around an empty cell c: its six neighbours in turn, each next to the one before
// (a neighbour off the board is an edge, counted as its owner's stone). A chain of player X
// through c enters and leaves by two neighbours a and b that are X's when the game ends (X's
// stones now, X's edge, or cells empty now). If a and b are next to each other on the walk,
// they touch; if all the neighbours between them on one side of the walk are X's already
// (stones or X's edge), a and b are joined through those; either way the chain does without c.
// When every such pair of neighbours is joined without c, for X and for the other player, no
// chain ever needs c: whoever fills it, the winner of every way the game can end is the same.
// Hex is monotone (a stone of one's own never hurts), so a stone on a dead cell is no better
// than any other stone, and dropping it keeps the value of every position where another empty
// cell remains. (This is the local test of Hayward and van Rijswijck's dead cells; the
// patterns it finds include four neighbours of one colour in a row, and three of one colour
// against two of the other.)
// The diagonal neighbour past the obtuse corner touches both edges at once; it counts as
// neither player's, which only makes the test find fewer dead cells.
// Checked against the plain search on random positions (tests/solve_hex_dead_cell_test.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "env/hex_game.h"

namespace quax {

// Is the empty cell `cell` of `game` (hex on the rhombus) dead? The same on `stones`, one
// per grid cell y * n + x of an n x n rhombus (kNone for empty).
bool hex_dead_cell(const HexGame& game, int cell);
bool hex_dead_cell(int n, const Player* stones, int cell);

// Fills the dead cells of `stones` with `filler`, again and again while filling leaves others
// dead; returns how many. Sound for any filler: the winner of every ending is the same with
// either colour on each cell filled, the later ones judged with the earlier ones in place.
int fill_dead_cells(int n, std::vector<Player>* stones, Player filler);

// Captured pairs. Two adjacent empty cells a and b are *captured* by p when p's stone on either
// leaves the other dead (tested on the board with that one stone added).
// Why they may be filled with p's stones without changing the value, whoever is to move:
// p's stones never hurt p (hex is monotone), so filling can only help p. Back: whatever p does
// on the filled board, p does on the board, and when the opponent takes a or b, p takes the
// other; the opponent's stone is then on a dead cell, whose colour decides nothing, so the
// board is the filled one again and the opponent's move was a pass, which never helps in hex.
// (Hayward and van Rijswijck's captured cells, the pattern of two.) A connection of the filled
// board holds on the board only while p answers in the pair: the pair belongs to its carrier.
bool hex_captured_pair(int n, std::vector<Player>* stones, Player p, int a, int b);

// Fills the dead cells of `stones` and the pairs `p` captures with `p`'s stones, again and again
// while filling makes more of either; appends the cells of the captured pairs to `captured`
// (the dead ones need not join a carrier). Returns how many cells were filled.
int fill_dead_and_captured_cells(int n, std::vector<Player>* stones, Player p, std::vector<int>* captured);

// Clears in `mask` (the legal mask of `game`, the mover's moves) the stones on dead cells,
// keeping at least one: when every empty cell is dead, the first stays. Returns the number
// of moves cleared.
int drop_dead_cells(const HexGame& game, uint8_t* mask);

}  // namespace quax
