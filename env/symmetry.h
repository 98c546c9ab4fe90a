// The symmetries of the square board (docs/RULES.md section 5) acting on cells, blocks, actions,
// whole positions, input planes and policy vectors.
//
// A symmetry is one of the 8 elements of the dihedral group of the square, written as three
// bits applied in this order to a cell (c, r) of an N x N board (c = column from the west,
// r = row from the south, both from 0):
//   1. transpose:     (c, r) -> (r, c)         (mirror across the a1 diagonal)
//   2. flip columns:  c -> N-1-c               (west and east exchanged)
//   3. flip rows:     r -> N-1-r               (north and south exchanged)
// The four without the transpose keep each player's goal (identity, the two mirrors, the
// half turn); the four with it exchange the goals, so colours must be swapped with them
// (transpose, anti-transpose, the two quarter turns).
//
// Blocks (the 2x2 groups that hold links, named by their south-west cell) live on the
// (N-1) x (N-1) block grid and map like cells on that grid. A diagonal's orientation is kept
// by the transpose and by the half turn, and exchanged (`/` <-> `\`) by a single flip.
//
// The network frame. SquareGame::encode() writes planes in which the mover connects
// north-south (White's view is transposed). In that frame only the 4 goal-keeping symmetries
// map positions to positions of the same kind, so augmentation uses those. A board-frame
// symmetry g of a position whose mover is p corresponds to the network-frame symmetry
// net_symmetry(g, p) = F' g F^-1, where F (F') is the frame map of p (of the mover after g):
// the identity for Black, the transpose for White.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "env/types.h"

namespace quax {

class SquareGame;

struct Symmetry {
  bool transpose = false;
  bool flip_columns = false;
  bool flip_rows = false;

  // Index 0..7 (bit 0 transpose, bit 1 flip columns, bit 2 flip rows); 0 is the identity.
  int index() const { return (transpose ? 1 : 0) | (flip_columns ? 2 : 0) | (flip_rows ? 4 : 0); }
  static Symmetry from_index(int i) { return Symmetry{(i & 1) != 0, (i & 2) != 0, (i & 4) != 0}; }
  // True for the 4 that exchange the players' goals (and so their colours).
  bool swaps_colours() const { return transpose; }
  // True when a link's `/` becomes `\` and back.
  bool swaps_diagonals() const { return flip_columns != flip_rows; }
  bool operator==(const Symmetry& o) const { return index() == o.index(); }
  bool operator!=(const Symmetry& o) const { return !(*this == o); }
};

inline constexpr int kNumSymmetries = 8;
// The goal-keeping ones are the indices 0, 2, 4, 6 (no transpose bit).
inline constexpr std::array<int, 4> kGoalKeepingSymmetries = {0, 2, 4, 6};

// "identity", "mirror_we", "mirror_ns", "half_turn", "transpose", "anti_transpose",
// "quarter_turn_ccw", "quarter_turn_cw".
std::string symmetry_name(Symmetry s);

// (a then b): the symmetry x -> b(a(x)).
Symmetry compose(Symmetry a, Symmetry b);
Symmetry inverse(Symmetry s);
// The mirror across the a1 diagonal, which the swap-pieces convention uses.
inline Symmetry transpose_symmetry() { return Symmetry{true, false, false}; }

// Maps a point (x, y) of an m x m grid: m = N for cells, N-1 for blocks.
void map_point(Symmetry s, int m, int x, int y, int* out_x, int* out_y);
// Cell index r*N + c of an N x N board.
int map_cell(Symmetry s, int n, int cell);
// Block index r*N + c (south-west cell) of an N x N board; 0 <= c, r < N-1.
int map_block(Symmetry s, int n, int block);
// A player's colour after s (swapped by the goal-exchanging ones).
Player map_player(Symmetry s, Player p);
Outcome map_outcome(Symmetry s, Outcome o);

// An action of the square action layout (env/square_game.h): cells, `/` links, `\` links,
// then swap and pass, which are unchanged. Padding entries of the link planes (row or
// column N-1) map to themselves: they are never legal.
int map_square_action(Symmetry s, int n, int action);

// The whole position after s: stones and links moved, colours and the player to move
// swapped for the goal-exchanging ones, same ply. For a finished game the player who
// would have moved next is taken from the ply's parity (Black moves at even plies).
//
// Note on `swap`: the swap-pieces convention moves the opening stone across the a1
// diagonal T, so swap does not commute with every s: instead
//   s(apply(x, swap)) == apply(t(x), swap)   with t = T s T^-1.
std::unique_ptr<SquareGame> transform_position(Symmetry s, const SquareGame& game);

// The network-frame symmetry that corresponds to board-frame symmetry g for a position whose
// player to move is `mover` (see the top of this file). Always goal-keeping.
Symmetry net_symmetry(Symmetry g, Player mover);

// --- Planes and policies, generic over layouts ----------------------------------------
//
// Each plane of an input block (or each spatial plane of an action layout) says how it
// moves under a symmetry:
//  - kCell: an N x N image of cells; maps as an image.
//  - kBlockSlash / kBlockBackslash: the `/` or `\` diagonals of the (N-1) x (N-1) block grid
//    padded to N x N (row and column N-1 zero). Blocks map on the block grid; when the
//    symmetry exchanges orientations the plane's contents move to its `partner` plane (the
//    plane of the other orientation with the same owner), and the partner's move here.
//  - kConstant: the same value everywhere (swap available, ones, ...); copied unchanged.
// Later variants add kinds here (hex cells, octagon/square of 4.8.8, ...).
enum class PlaneKind : uint8_t { kCell, kBlockSlash, kBlockBackslash, kConstant };

struct PlaneSpec {
  PlaneKind kind = PlaneKind::kCell;
  int partner = -1;  // for block planes: index of the other orientation's plane
};

// The 8 input planes of SquareGame::encode() and the 3 spatial action planes of its layout.
const std::vector<PlaneSpec>& square_input_planes();
const std::vector<PlaneSpec>& square_action_planes();

// out = s applied to in, both [planes.size(), N, N]. in and out must not overlap.
// Block-plane padding entries of out are set to zero.
void transform_planes(Symmetry s, int n, const std::vector<PlaneSpec>& planes, const float* in, float* out);

// A policy (or legal mask) over an action layout: planes.size() spatial planes of N x N
// followed by `extra` non-spatial actions, which are copied unchanged. in and out must not
// overlap. Padding entries of block planes are set to zero.
void transform_policy(Symmetry s, int n, const std::vector<PlaneSpec>& planes, int extra, const float* in,
                      float* out);
void transform_policy(Symmetry s, int n, const std::vector<PlaneSpec>& planes, int extra, const uint8_t* in,
                      uint8_t* out);

}  // namespace quax
