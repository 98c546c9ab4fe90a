// The shapes of quax's and link's edge templates (solve/virtual_connection.h explains why
// each one holds): a stone one or two rows from one of its own edges reaches that edge
// whatever the opponent plays, as long as the template's cells are empty. Shared by the
// virtual-connection search and bridge_distance (solve/connection_distance.h), which see the
// board through different arrays.
//
// Coordinates are relative to the edge: `along` the edge (0..n-1) and `rows` in from it (the
// edge row is 0). With every cell but the stone empty, no link can lie in the template's
// blocks (a link needs two stones), so emptiness is the whole condition.
#pragma once

namespace quax {

inline constexpr int kMaxTemplateCells = 9;

// For a stone at (along, rows), rows 1 or 2, calls emit(cells_along, cells_rows, count) once
// per template that fits the board and whose cells are all empty (empty(along, rows) says);
// the cells are the template's carrier. Two orientations each: toward smaller or larger
// `along` (k = -1, +1).
template <class Empty, class Emit>
void for_each_edge_template(int n, int along, int rows, Empty empty, Emit emit) {
  for (int k = -1; k <= 1; k += 2) {
    int a[kMaxTemplateCells], r[kMaxTemplateCells], count = 0;
    auto add = [&](int da, int row) {
      a[count] = along + da * k;
      r[count] = row;
      ++count;
    };
    if (rows == 1) {
      //    x2 x      (row 1)   an opponent stone on e: the owner plays e2, a bridge to x over
      //    e2 e      (edge)    x2; on e2 or x2: the owner plays e.
      add(0, 0), add(1, 0), add(1, 1);
    } else if (rows == 2) {
      //       s  x      (row 2)   an opponent stone on f or e: the owner plays y, a bridge to x
      //   y2  y  f  g1  (row 1)   (over s and f), with y's one-row template (z, z2, y2);
      //   z2  z  e  g0  (edge)    anywhere else: the owner plays f, beside x, with f's one-row
      //                           template toward whichever side (z, y or g0, g1) is empty.
      add(0, 1), add(0, 0), add(1, 1), add(1, 2), add(1, 0), add(2, 1), add(2, 0), add(-1, 1), add(-1, 0);
    } else {
      return;
    }
    bool fits = true;
    for (int i = 0; i < count && fits; ++i) fits = a[i] >= 0 && a[i] < n && r[i] < n && empty(a[i], r[i]);
    if (fits) emit(a, r, count);
  }
}

}  // namespace quax
