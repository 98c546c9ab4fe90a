// Quickway's two-way joins (solve/virtual_connection.h says why each holds): two stones of
// one player a gap apart (two cells along a row or column) or a knight's move apart, with
// two empty cells each next to both stones (the routes: one along a side, the other across a
// diagonal that the new stone links by itself) and two side cells that are not the
// opponent's. Whatever the opponent plays on those cells, the owner plays a route and joins
// the two stones. Shared by the virtual-connection search and bridge_distance.
//
//   gap:    B s2        knight:  s2 B       (A the first stone, B the second, 1 and 2 the
//           1 2                  1  2        routes, s1 and s2 the side cells; each shape in
//           A s1                 A  s1       its eight orientations)
#pragma once

namespace quax {

// For the stone at (c, r), calls emit(cols, rows) once per join shape in each of its eight
// orientations, with five cells (columns and rows, possibly off the board): the other stone,
// the two routes, the two side cells.
template <class Emit>
void for_each_two_way_join(int c, int r, Emit emit) {
  // Cells (dx, dy) of the two shapes in their first orientation, in emit's order.
  static constexpr int kShapes[2][5][2] = {{{0, 2}, {0, 1}, {1, 1}, {1, 0}, {1, 2}},
                                           {{1, 2}, {0, 1}, {1, 1}, {1, 0}, {0, 2}}};
  for (const auto& shape : kShapes) {
    for (int orientation = 0; orientation < 8; ++orientation) {
      const bool transpose = orientation & 4;
      const int sx = orientation & 1 ? -1 : 1, sy = orientation & 2 ? -1 : 1;
      int cols[5], rows[5];
      for (int k = 0; k < 5; ++k) {
        const int dx = transpose ? shape[k][1] : shape[k][0], dy = transpose ? shape[k][0] : shape[k][1];
        cols[k] = c + sx * dx;
        rows[k] = r + sy * dy;
      }
      emit(cols, rows);
    }
  }
}

}  // namespace quax
