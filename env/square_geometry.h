// The per-size tables of SquareGame (env/square_game.h), shared by every state of one size
// (env/size_cache.h) and read by the rules (square_game.cpp) and the network view
// (square_net.cpp). Private to those files.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "env/rng.h"
#include "env/square_game.h"

namespace quax {

namespace square_edge {
// SquareGame's union-find has the cells 0..NN-1 and then these four edge nodes; the same
// numbers are the bits of Geometry::edge_bits.
inline constexpr int kSouth = 0, kNorth = 1, kWest = 2, kEast = 3;
}  // namespace square_edge

// One block seen from one of its cells: the diagonal the cell lies on, the partner cell
// on that diagonal, and the two cells of the other diagonal.
struct BlockOfCell {
  int16_t block, d, partner, other1, other2;
};

struct SquareGame::Geometry {
  int n;
  // For each cell, its blocks in the order south-west, south-east, north-west, north-east
  // (the order docs/RULES.md fixes for the quadrex cascade); count[cell] of them exist.
  std::vector<std::array<BlockOfCell, 4>> blocks;
  std::vector<uint8_t> block_count;
  // Orthogonal neighbours (up to 4) and, for crossway, the diagonal ones.
  std::vector<std::array<int16_t, 4>> ortho;
  std::vector<uint8_t> ortho_count;
  std::vector<std::array<int16_t, 4>> diag;
  std::vector<uint8_t> diag_count;
  // Zobrist keys: stone[cell * 2 + player], link[(block * 2 + d) * 2 + player].
  std::vector<uint64_t> stone_key, link_key;
  // cell r*N + c -> c*N + r: White's network frame (also maps blocks, as a transpose keeps
  // each diagonal's orientation).
  std::vector<int16_t> transposed;
  // Which edges a cell lies on: bit square_edge::kSouth, square_edge::kNorth, square_edge::kWest, square_edge::kEast (a corner has two).
  std::vector<uint8_t> edge_bits;

  explicit Geometry(int size) : n(size) {
    const int nn = n * n;
    blocks.resize(nn);
    block_count.assign(nn, 0);
    ortho.resize(nn);
    ortho_count.assign(nn, 0);
    diag.resize(nn);
    diag_count.assign(nn, 0);
    auto at = [&](int c, int r) { return static_cast<int16_t>(r * n + c); };
    auto inside = [&](int c, int r) { return c >= 0 && r >= 0 && c < n && r < n; };
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const int x = at(c, r);
        // (block corner offset, diagonal, partner offset, other diagonal offsets)
        struct Rel { int bc, br, d, pc, pr, o1c, o1r, o2c, o2r; };
        const Rel rels[4] = {
            {c - 1, r - 1, 0, c - 1, r - 1, c, r - 1, c - 1, r},      // SW: x is NE corner
            {c, r - 1, 1, c + 1, r - 1, c, r - 1, c + 1, r},          // SE: x is NW corner
            {c - 1, r, 1, c - 1, r + 1, c - 1, r, c, r + 1},          // NW: x is SE corner
            {c, r, 0, c + 1, r + 1, c + 1, r, c, r + 1},              // NE: x is SW corner
        };
        for (const Rel& rel : rels) {
          if (rel.bc < 0 || rel.br < 0 || rel.bc >= n - 1 || rel.br >= n - 1) continue;
          blocks[x][block_count[x]++] = BlockOfCell{at(rel.bc, rel.br), static_cast<int16_t>(rel.d),
                                                    at(rel.pc, rel.pr), at(rel.o1c, rel.o1r),
                                                    at(rel.o2c, rel.o2r)};
        }
        const int oc[4][2] = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
        for (const auto& o : oc)
          if (inside(c + o[0], r + o[1])) ortho[x][ortho_count[x]++] = at(c + o[0], r + o[1]);
        const int dc[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
        for (const auto& o : dc)
          if (inside(c + o[0], r + o[1])) diag[x][diag_count[x]++] = at(c + o[0], r + o[1]);
      }
    }
    transposed.resize(nn);
    edge_bits.assign(nn, 0);
    for (int x = 0; x < nn; ++x) {
      const int c = x % n, r = x / n;
      edge_bits[x] = static_cast<uint8_t>((r == 0 ? 1 << square_edge::kSouth : 0) | (r == n - 1 ? 1 << square_edge::kNorth : 0) |
                                          (c == 0 ? 1 << square_edge::kWest : 0) | (c == n - 1 ? 1 << square_edge::kEast : 0));
    }
    for (int x = 0; x < nn; ++x) transposed[x] = static_cast<int16_t>((x % n) * n + x / n);
    stone_key.resize(nn * 2);
    link_key.resize(nn * 4);
    uint64_t seed = 0x51A7E5EEDULL + static_cast<uint64_t>(n);
    for (auto& k : stone_key) k = mix64(seed++);
    for (auto& k : link_key) k = mix64(seed++ ^ 0xABCDEFULL);
  }
};

}  // namespace quax
