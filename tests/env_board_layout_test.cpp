// Board layouts for drawing programs: every action a game can play is drawn once, inside the
// board, and the drawing agrees with the rules' adjacency (links join the cells they name,
// neighbouring hexagons are one unit apart, stymie's squares touch their four octagons).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "env/board_layout.h"
#include "env/game_state.h"
#include "env/hex_geometry.h"
#include "env/rng.h"

namespace quax {
namespace {

double distance(LayoutPoint a, LayoutPoint b) { return std::hypot(a.x - b.x, a.y - b.y); }

double distance_to_segment(LayoutPoint p, const LayoutSegment& s) {
  const double dx = s[1].x - s[0].x, dy = s[1].y - s[0].y, length2 = dx * dx + dy * dy;
  const double t = length2 > 0 ? std::clamp(((p.x - s[0].x) * dx + (p.y - s[0].y) * dy) / length2, 0.0, 1.0) : 0.0;
  return distance(p, {s[0].x + t * dx, s[0].y + t * dy});
}

bool inside(const BoardLayout& l, LayoutPoint p) { return p.x >= 0 && p.y >= 0 && p.x <= l.width && p.y <= l.height; }

std::map<int, const LayoutItem*> by_action(const BoardLayout& l) {
  std::map<int, const LayoutItem*> out;
  for (const auto& item : l.items) {
    EXPECT_TRUE(out.emplace(item.action, &item).second) << "action " << item.action << " drawn twice";
  }
  return out;
}

// Every spatial action legal in some position of many random games has an item, named as
// the rules name it.
TEST(BoardLayout, EveryPlayableActionIsDrawnOnceInsideTheBoard) {
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int v = 0; v < count; ++v) {
    for (int n = all[v].min_size; n <= std::min(all[v].max_size, all[v].min_size + 4); ++n) {
      const GameSpec spec{all[v].variant, n, all[v].swap_by_default};
      if (!check_spec(spec).empty()) continue;
      const BoardLayout layout = board_layout(spec);
      const auto items = by_action(layout);
      auto start = new_game(spec);
      for (const auto& item : layout.items) {
        EXPECT_EQ(item.label, start->action_to_string(item.action));
        EXPECT_TRUE(inside(layout, item.center)) << item.label;
        for (const auto& p : item.polygon) EXPECT_TRUE(inside(layout, p)) << item.label;
        for (const auto& s : item.segments) EXPECT_TRUE(inside(layout, s[0]) && inside(layout, s[1])) << item.label;
      }
      const int spatial = start->spatial_planes() * n * n;
      Rng rng(n * 31 + v);
      std::vector<int> legal;
      for (int game = 0; game < 20; ++game) {
        auto s = new_game(spec);
        while (!s->is_over()) {
          s->legal_actions(&legal);
          for (int a : legal) {
            if (a >= spatial) continue;
            ASSERT_TRUE(items.count(a)) << describe(spec) << ": no item for " << s->action_to_string(a);
          }
          s->apply(legal[rng.below(static_cast<int>(legal.size()))]);
        }
      }
    }
  }
}

TEST(BoardLayout, LinksJoinTheCellsTheyName) {
  for (Variant v : {Variant::kQuax, Variant::kCrossway, Variant::kTorax}) {
    const GameSpec spec{v, 6, false};
    const BoardLayout layout = board_layout(spec);
    const auto items = by_action(layout);
    auto start = new_game(spec);
    int links = 0;
    for (const auto& item : layout.items) {
      if (item.kind != LayoutItem::Kind::kLink) continue;
      ++links;
      const auto dash = item.label.find('-');
      ASSERT_NE(dash, std::string::npos) << item.label;
      std::string error;
      const LayoutPoint a = items.at(start->parse_action(item.label.substr(0, dash), &error))->center;
      const LayoutPoint b = items.at(start->parse_action(item.label.substr(dash + 1), &error))->center;
      if (item.segments.size() == 1) {  // a diagonal of one square block
        EXPECT_NEAR(distance(item.segments[0][0], item.segments[0][1]), std::sqrt(2.0), 1e-9) << item.label;
        const bool forward = distance(item.segments[0][0], a) < 1e-9 && distance(item.segments[0][1], b) < 1e-9;
        const bool backward = distance(item.segments[0][0], b) < 1e-9 && distance(item.segments[0][1], a) < 1e-9;
        EXPECT_TRUE(forward || backward) << item.label;
      } else {  // torax across the seam: a half diagonal from each of the two cells
        ASSERT_EQ(v, Variant::kTorax);
        ASSERT_EQ(item.segments.size(), 2u);
        std::set<std::pair<double, double>> ends{{item.segments[0][0].x, item.segments[0][0].y},
                                                 {item.segments[1][0].x, item.segments[1][0].y}};
        EXPECT_TRUE(ends.count({a.x, a.y}) && ends.count({b.x, b.y})) << item.label;
        for (const auto& s : item.segments) EXPECT_NEAR(distance(s[0], s[1]), std::sqrt(0.5), 1e-9) << item.label;
      }
    }
    EXPECT_EQ(links, 2 * (v == Variant::kTorax ? 36 : 25));
  }
}

TEST(BoardLayout, HexagonsOfNeighbouringCellsAreOneUnitApart) {
  for (Variant v : {Variant::kHex, Variant::kQuadhex, Variant::kY, Variant::kQuady}) {
    const int n = v == Variant::kQuadhex ? 8 : 7;
    const BoardLayout layout = board_layout({v, n, true});
    const auto items = by_action(layout);
    const auto geo = HexGeometry::get(v, n);
    ASSERT_EQ(items.size(), geo->board_cells.size());
    for (int cell : geo->board_cells) {
      for (int i = 0; i < geo->neighbour_count[cell]; ++i)
        EXPECT_NEAR(distance(items.at(cell)->center, items.at(geo->neighbours[cell][i])->center), 1.0, 1e-9);
      // and no other cell is that close
      for (int other : geo->board_cells) {
        bool neighbour = other == cell;
        for (int i = 0; i < geo->neighbour_count[cell]; ++i) neighbour |= geo->neighbours[cell][i] == other;
        if (!neighbour) {
          EXPECT_GT(distance(items.at(cell)->center, items.at(other)->center), 1.5);
        }
      }
    }
    EXPECT_EQ(layout.games.empty(), v == Variant::kHex || v == Variant::kY);
    EXPECT_EQ(layout.goals.size(), (v == Variant::kHex || v == Variant::kQuadhex) ? 2u : 0u);
  }
}

// The sides drawn for the quadrant sub-games are the rules' sides. On the triangles a cell's
// centre lies on a drawn side of a sub-game exactly when the cell is on a side of that game
// (neighbouring sub-triangles share those cells). On the rhombus each drawn piece is the edge
// a cell of the quarter shares with a neighbour outside it, one for every such pair.
TEST(BoardLayout, QuadrantSubGamesAreDrawnWithTheirSides) {
  const double edge = 1.0 / std::sqrt(3.0);  // a hexagon's side when neighbours are 1 apart
  const std::vector<std::pair<Variant, int>> boards{
      {Variant::kHex, 7}, {Variant::kY, 7}, {Variant::kQuadhex, 8}, {Variant::kQuady, 9}, {Variant::kQuady2, 9}};
  for (const auto& [v, n] : boards) {
    const GameSpec spec{v, n, true};
    const BoardLayout layout = board_layout(spec);
    const auto geo = HexGeometry::get(v, n);
    const auto items = by_action(layout);
    if (geo->games.size() == 1) {
      EXPECT_TRUE(layout.games.empty()) << describe(spec);
      continue;
    }
    ASSERT_EQ(layout.games.size(), geo->games.size()) << describe(spec);
    EXPECT_TRUE(layout.games[0].sides.empty());
    for (size_t g = 1; g < geo->games.size(); ++g) {
      const BoardLayout::Game& drawn = layout.games[g];
      const HexGeometry::Game& game = geo->games[g];
      EXPECT_EQ(drawn.level, game.level);
      EXPECT_TRUE(inside(layout, drawn.center)) << describe(spec) << " game " << g;
      const std::set<int> cells(game.cells.begin(), game.cells.end());
      if (geo->triangle) {
        ASSERT_EQ(drawn.sides.size(), 3u) << describe(spec) << " game " << g;
        for (int cell : game.cells) {
          uint8_t sides = 0;
          for (int m = geo->member_begin[cell]; m < geo->member_begin[cell + 1]; ++m)
            if (geo->members[m].game == static_cast<int>(g)) sides = geo->members[m].sides;
          bool on_a_side = false;
          for (const auto& s : drawn.sides) on_a_side |= distance_to_segment(items.at(cell)->center, s) < 1e-9;
          EXPECT_EQ(on_a_side, sides != 0) << describe(spec) << " game " << g << " cell " << items.at(cell)->label;
        }
        continue;
      }
      size_t pairs = 0;
      for (int cell : game.cells)
        for (int i = 0; i < geo->neighbour_count[cell]; ++i) {
          const int other = geo->neighbours[cell][i];
          if (cells.count(other)) continue;
          ++pairs;
          const LayoutPoint a = items.at(cell)->center, b = items.at(other)->center;
          int found = 0;
          for (const auto& s : drawn.sides) {
            // The shared edge: both its ends are corners of both hexagons.
            if (std::abs(distance(s[0], a) - edge) < 1e-9 && std::abs(distance(s[0], b) - edge) < 1e-9 &&
                std::abs(distance(s[1], a) - edge) < 1e-9 && std::abs(distance(s[1], b) - edge) < 1e-9)
              ++found;
          }
          EXPECT_EQ(found, 1) << describe(spec) << " game " << g << ": " << items.at(cell)->label << " and "
                              << items.at(other)->label;
        }
      EXPECT_GT(pairs, 0u);
      EXPECT_EQ(drawn.sides.size(), pairs) << describe(spec) << " game " << g;
    }
  }
}

TEST(BoardLayout, StymieSquaresTouchTheirFourOctagons) {
  const int n = 5;
  const BoardLayout layout = board_layout({Variant::kStymie, n, true});
  const auto items = by_action(layout);
  int squares = 0;
  for (const auto& item : layout.items) {
    if (item.kind != LayoutItem::Kind::kSquare) continue;
    ++squares;
    const int block = item.action - n * n, r = block / n, c = block % n;
    for (int dr = 0; dr < 2; ++dr)
      for (int dc = 0; dc < 2; ++dc) {
        const LayoutItem& octagon = *items.at((r + dr) * n + c + dc);
        ASSERT_EQ(octagon.kind, LayoutItem::Kind::kCell);
        // One corner of the square lies on a side of the octagon: the octagon's nearest vertex pair.
        double nearest = 1e9;
        for (const auto& p : item.polygon)
          for (const auto& q : octagon.polygon) nearest = std::min(nearest, distance(p, q));
        EXPECT_LT(nearest, 1e-9) << item.label;
      }
  }
  EXPECT_EQ(squares, (n - 1) * (n - 1));
}

}  // namespace
}  // namespace quax
