// The union-find every connection game here keeps its groups in: plain sets over an int16_t
// parent array (the square family, stymie, the hexagonal boards), and sets with a winding
// vector for the torus (torax), which tell a loop around the torus from one that shrinks to a
// point. Each game owns its arrays and decides which root a union keeps (SquareGame keeps its
// edge nodes as roots); these are the finds and the torus's union, written once.
#pragma once

#include <cstdint>

namespace quax {

// The root of x's set, halving the path on the way (every node visited is pointed at its
// grandparent). `parent` may be a mutable member of a const game: the sets do not change.
// Inline: the games call it for every stone placed, in random playouts too.
inline int find_root(int16_t* parent, int x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// Sets of cells on a torus, each node with the number of times the path to its parent crosses
// the west-east and south-north seams (wrap_c, wrap_r; the total along a path is a node's wrap
// vector relative to its root). Views arrays the game owns; copying the view copies no sets.
struct WindingSets {
  int16_t* parent;
  int8_t* wrap_c;
  int8_t* wrap_r;

  // The root of x's set; *wc, *wr get x's wrap vector relative to it. Compresses the path,
  // keeping every node's vector right.
  int find(int x, int* wc, int* wr) const {
    // Two passes: find the root and the total wrap, then point the path straight at the root
    // with each node's own total.
    int root = x, tc = 0, tr = 0;
    while (parent[root] != root) {
      tc += wrap_c[root];
      tr += wrap_r[root];
      root = parent[root];
    }
    int y = x, yc = tc, yr = tr;
    while (parent[y] != y) {
      const int next = parent[y], nc = yc - wrap_c[y], nr = yr - wrap_r[y];
      parent[y] = static_cast<int16_t>(root);
      wrap_c[y] = static_cast<int8_t>(yc);
      wrap_r[y] = static_cast<int8_t>(yr);
      y = next, yc = nc, yr = nr;
    }
    *wc = tc;
    *wr = tr;
    return root;
  }

  // Joins a and b along an edge a -> b that crosses the seams (dc, dr) times. True when a and
  // b were already in one set with a wrap difference other than (dc, dr): the edge closes a
  // cycle whose crossings do not cancel, a loop around the torus.
  bool unite(int a, int b, int dc, int dr) const {
    // With W(x) the wrap vector of x relative to its root, the edge asks W(b) - W(a) = (dc, dr).
    int ac, ar, bc, br;
    const int ra = find(a, &ac, &ar), rb = find(b, &bc, &br);
    if (ra == rb) return bc - ac != dc || br - ar != dr;
    parent[ra] = static_cast<int16_t>(rb);
    // W(ra) relative to rb, so that W(a) = ac + W(ra) satisfies W(b) - W(a) = (dc, dr).
    wrap_c[ra] = static_cast<int8_t>(bc - ac - dc);
    wrap_r[ra] = static_cast<int8_t>(br - ar - dr);
    return false;
  }

  // True when a and b are in one set and their wrap vectors differ by other than (dc, dr).
  bool closes_loop(int a, int b, int dc, int dr) const {
    int ac, ar, bc, br;
    find(a, &ac, &ar);
    find(b, &bc, &br);
    return bc - ac != dc || br - ar != dr;
  }
};

}  // namespace quax
