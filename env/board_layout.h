// Where each spatial action of a board is drawn, for programs that draw boards (the browser
// board of `quax serve`): a polygon for every cell (squares, octagons and stymie's small
// squares, hexagons), one segment for every link (two on the torus when it crosses the seam),
// the edges each player must connect, and the games of the quadrant boards with their sides.
//
// Coordinates are board units (a square cell is 1 x 1, a hexagon's neighbours are 1 apart),
// y grows downwards and north is at the top, as in SVG; a margin of kLayoutMargin on every
// side holds the coordinates.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "env/types.h"

namespace quax {

constexpr double kLayoutMargin = 1.0;

struct LayoutPoint {
  double x = 0, y = 0;
};
using LayoutSegment = std::array<LayoutPoint, 2>;

struct LayoutItem {
  enum class Kind { kCell, kLink, kSquare };  // kSquare: stymie's squares between octagons
  int action = -1;                            // board frame
  Kind kind = Kind::kCell;
  std::vector<LayoutPoint> polygon;           // cells and squares
  std::vector<LayoutSegment> segments;        // links
  LayoutPoint center;
  std::string label;                          // the action's notation
};

struct BoardLayout {
  double width = 0, height = 0;
  std::vector<LayoutItem> items;  // one per spatial action that exists on the board, by action
  // The edges each player connects (none on the triangle, where both need all three sides,
  // nor on the torus).
  std::vector<std::pair<Player, std::vector<LayoutSegment>>> goals;
  std::vector<std::vector<LayoutPoint>> shaded_cells;  // rhombus: cells of odd finest quadrants
  // The games of a quadrant board (quadhex, quady, quady2) in HexGeometry::games order, the
  // whole board first; empty on every other board. `sides` are lines to draw over the cells
  // (a tint under them would hide under stones and heat maps): on the triangles the three
  // lines through the centres of the cells on a sub-game's sides (neighbouring sub-triangles
  // share those cells, so the line runs through them); on the rhombus the hexagon edges a
  // quarter shares with the cells of other quarters (its outer sides are the board's edges).
  // The whole board has none. `center` is the mean of the game's cell centres, where a drawing
  // marks who won it.
  struct Game {
    int level = 0;  // HexGeometry::Game::level: 0 the whole board, 1 a quadrant, 2 quady2's finer split
    LayoutPoint center;
    std::vector<LayoutSegment> sides;
  };
  std::vector<Game> games;
  bool wrap = false;                                   // torax: the board is a torus
  struct Label {
    std::string text;
    LayoutPoint at;
  };
  std::vector<Label> coordinates;
};

// The layout of every position of `spec`. Precondition: check_spec(spec) is empty.
BoardLayout board_layout(const GameSpec& spec);

}  // namespace quax
