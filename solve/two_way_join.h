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

#include <array>

namespace quax {

// One join shape in one orientation, as offsets from the first stone: the other stone
// (index 0), the two routes (1, 2), the two side cells (3, 4).
struct TwoWayJoin {
  int dc[5], dr[5];
};

// The 16 joins of a stone: both shapes in their eight orientations.
inline const std::array<TwoWayJoin, 16>& two_way_joins() {
  static const std::array<TwoWayJoin, 16> joins = [] {
    // Cells (dc, dr) of the two shapes in their first orientation, in TwoWayJoin's order.
    constexpr int kShapes[2][5][2] = {{{0, 2}, {0, 1}, {1, 1}, {1, 0}, {1, 2}},
                                      {{1, 2}, {0, 1}, {1, 1}, {1, 0}, {0, 2}}};
    std::array<TwoWayJoin, 16> out{};
    int i = 0;
    for (const auto& shape : kShapes) {
      for (int orientation = 0; orientation < 8; ++orientation, ++i) {
        const bool transpose = orientation & 4;
        const int sc = orientation & 1 ? -1 : 1, sr = orientation & 2 ? -1 : 1;
        for (int k = 0; k < 5; ++k) {
          out[i].dc[k] = sc * (transpose ? shape[k][1] : shape[k][0]);
          out[i].dr[k] = sr * (transpose ? shape[k][0] : shape[k][1]);
        }
      }
    }
    return out;
  }();
  return joins;
}

}  // namespace quax
