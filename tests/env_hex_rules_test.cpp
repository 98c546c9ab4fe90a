// hex, quadhex, y, quady, quady2 (env/hex_game.h): the server's worked examples, swap,
// notation, legal-move counts and the diagrams.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "env/hex_game.h"

namespace quax {
namespace {

// The Quadrant Y example of sources/seed-pbmserv-quadrant-y-help.txt, apex first; `+` and
// `.` are empty cells. With 34 x and 19 o it is not a game's end, so the tests build it with
// from_position.
const char* const kQuadrantYExample[] = {
    "+",
    "+ x",
    "+ x +",
    "x x . +",
    "o o x . +",
    "+ x o x . +",
    "+ . x o x . +",
    "+ + + x o x + +",
    "+ + . . x o x + x",
    "x . + . x o o x x o",
    "+ x . + x o . o o o +",
    "+ . x x x o . x . . . x",
    "+ . x o o o . + x x x x +",
    "+ . x o . . + + . . . x . +",
    "+ + x o + + + + + + + + x + +",
};

// The 14x14 Quadrant Hex example of sources/pbmserv-quadhex.txt, row 1 first, columns a..n
// (the page's line breaks undone); `-` and `.` are empty cells.
const char* const kQuadrantHexExample[] = {
    ". . . V . . . - - - - - - -", ". . . V . . . - - - - - - -", ". . . V . . . - - - - - - -",
    ". . . V . . . H H H H H H H", ". . . V . . . - - - - - - -", ". . . V . . . - - - - - - -",
    ". . . V . . . - - - - - - -", "- - - V - - - . . . . . . .", "- - - V - - - H H H H H H H",
    "- - - V - - - . . . . . . .", "- - - V V V V V V V V . . .", "- - - - - - - . . . V . . .",
    "H H H H H H H . . . V . . .", "- - - - - - - . . . V . . .",
};

// Stones of a diagram whose i-th line is grid row y = i (both shapes number rows that way).
std::vector<Player> stones_from(const char* const* lines, int n) {
  std::vector<Player> stones(n * n, Player::kNone);
  for (int y = 0; y < n; ++y) {
    std::istringstream in(lines[y]);
    std::string token;
    int x = 0;
    while (in >> token) {
      EXPECT_EQ(token.size(), 1u) << lines[y];
      const char ch = token[0];
      if (ch == 'x' || ch == 'V') stones[y * n + x] = Player::kBlack;
      if (ch == 'o' || ch == 'H') stones[y * n + x] = Player::kWhite;
      ++x;
    }
    EXPECT_EQ(x, n == 14 ? 14 : y + 1) << "line " << y + 1 << ": " << lines[y];
  }
  return stones;
}

int games_won(const HexGame& g, Player p, int level) {
  int count = 0;
  for (size_t i = 0; i < g.geometry().games.size(); ++i)
    if (g.geometry().games[i].level == level && g.game_winner(static_cast<int>(i)) == p) ++count;
  return count;
}

TEST(HexRules, QuadrantYExampleIsAWinForXThoughOWinsTheWholeBoard) {
  const GameSpec spec{Variant::kQuady, 15, true};
  const auto g = HexGame::from_position(spec, stones_from(kQuadrantYExample, 15), Player::kWhite, 100);
  EXPECT_EQ(g->game_winner(0), Player::kWhite);  // O connects all three sides
  EXPECT_EQ(games_won(*g, Player::kBlack, 1), 3);
  EXPECT_EQ(games_won(*g, Player::kWhite, 1), 1);
  EXPECT_EQ(g->points(Player::kBlack), 3);
  EXPECT_EQ(g->points(Player::kWhite), 2);
  EXPECT_EQ(g->outcome(), Outcome::kBlackWins);
  // The page: O's one sub-game is the centre (upside down) triangle, holding h8 and h15.
  const int centre = 4;
  const auto& cells = g->geometry().games[centre].cells;
  EXPECT_TRUE(std::count(cells.begin(), cells.end(), 7 * 15 + 7) && std::count(cells.begin(), cells.end(), 14 * 15 + 7));
  EXPECT_EQ(g->game_winner(centre), Player::kWhite);
  // Plain y on the same stones: only the whole board counts.
  const auto y = HexGame::from_position({Variant::kY, 15, true}, stones_from(kQuadrantYExample, 15), Player::kWhite, 100);
  EXPECT_EQ(y->outcome(), Outcome::kWhiteWins);
}

TEST(HexRules, QuadrantHexExampleIsAWinForHorzThoughVertWinsTheWholeBoard) {
  const GameSpec spec{Variant::kQuadhex, 14, false};
  const auto stones = stones_from(kQuadrantHexExample, 14);
  const auto g = HexGame::from_position(spec, stones, Player::kBlack, 42);
  EXPECT_EQ(g->game_winner(0), Player::kBlack);
  EXPECT_EQ(games_won(*g, Player::kWhite, 1), 3);
  EXPECT_EQ(games_won(*g, Player::kBlack, 1), 1);
  EXPECT_EQ(g->outcome(), Outcome::kWhiteWins);

  // Played out (Vert's 21 stones and Horz's 21 alternately): nobody reaches 3 points before
  // Horz's last stone, which ends the game.
  std::vector<int> vert, horz;
  for (int cell = 0; cell < 14 * 14; ++cell) {
    if (stones[cell] == Player::kBlack) vert.push_back(cell);
    if (stones[cell] == Player::kWhite) horz.push_back(cell);
  }
  ASSERT_EQ(vert.size(), 21u);
  ASSERT_EQ(horz.size(), 21u);
  HexGame play(spec);
  for (int i = 0; i < 21; ++i) {
    for (int cell : {vert[i], horz[i]}) {
      ASSERT_FALSE(play.is_over()) << "ended before " << play.action_to_string(cell);
      ASSERT_TRUE(play.is_legal(cell)) << play.why_illegal(cell);
      play.apply(cell);
    }
  }
  EXPECT_EQ(play.outcome(), Outcome::kWhiteWins);
  EXPECT_EQ(play.points(Player::kWhite), 3);
  EXPECT_EQ(play.points(Player::kBlack), 2);
  EXPECT_EQ(play.position_key(), g->position_key());  // same stones, both over
}

TEST(HexRules, GameCountsAndPointsToWin) {
  const struct {
    Variant v;
    int size;
    size_t games;
    int to_win;
  } cases[] = {{Variant::kHex, 7, 1, 1}, {Variant::kQuadhex, 10, 5, 3}, {Variant::kY, 9, 1, 1},
               {Variant::kQuady, 15, 5, 3}, {Variant::kQuady2, 17, 21, 11}};
  for (const auto& c : cases) {
    const HexGame g({c.v, c.size, true});
    EXPECT_EQ(g.geometry().games.size(), c.games) << variant_info(c.v).name;
    EXPECT_EQ(g.geometry().points_to_win, c.to_win) << variant_info(c.v).name;
  }
  // Quady's sub-triangles have side h = 8 (36 cells); quady2's smallest side 5 (15 cells).
  const HexGame quady({Variant::kQuady, 15, true});
  for (size_t i = 1; i < 5; ++i) EXPECT_EQ(quady.geometry().games[i].cells.size(), 36u);
  const HexGame quady2({Variant::kQuady2, 17, true});
  for (const auto& game : quady2.geometry().games)
    EXPECT_EQ(game.cells.size(), game.level == 0 ? 153u : game.level == 1 ? 45u : 15u);
}

TEST(HexRules, SpecChecksNameTheProblem) {
  EXPECT_NE(check_spec({Variant::kQuady, 14, true}).find("2k+1"), std::string::npos);
  EXPECT_NE(check_spec({Variant::kQuady2, 15, true}).find("4k+1"), std::string::npos);
  EXPECT_NE(check_spec({Variant::kQuadhex, 9, true}).find("even"), std::string::npos);
  EXPECT_EQ(check_spec({Variant::kQuady2, 13, true}), "");
  EXPECT_EQ(parse_variant("QuadY"), Variant::kQuady);
  EXPECT_EQ(parse_variant("quadhex"), Variant::kQuadhex);
}

TEST(HexRules, LegalMoveCountsThroughSwap) {
  for (Variant v : {Variant::kHex, Variant::kY}) {
    const int n = 6;
    HexGame g({v, n, true});
    const size_t cells = v == Variant::kHex ? n * n : n * (n + 1) / 2;
    std::vector<int> legal;
    g.legal_actions(&legal);
    EXPECT_EQ(legal.size(), cells);  // no swap on the first move
    const int first = g.parse_action("b3", nullptr);
    ASSERT_GE(first, 0);
    g.apply(first);
    g.legal_actions(&legal);
    EXPECT_EQ(legal.size(), cells - 1 + 1);  // plus swap
    g.apply(g.swap_action());
    EXPECT_EQ(g.to_move(), Player::kBlack);
    EXPECT_EQ(g.move_number(), 2);
    // Hex mirrors b3 to c2; y only recolours.
    const int target = g.parse_action(v == Variant::kHex ? "c2" : "b3", nullptr);
    EXPECT_EQ(g.stone(target), Player::kWhite);
    EXPECT_EQ(g.stones_of(Player::kWhite).size(), 1u);
    EXPECT_TRUE(g.stones_of(Player::kBlack).empty());
    g.legal_actions(&legal);
    EXPECT_EQ(legal.size(), cells - 1);
    EXPECT_NE(g.why_illegal(g.swap_action()).find("only allowed"), std::string::npos);
    EXPECT_NE(g.why_illegal(target).find("occupied"), std::string::npos);
  }
  HexGame no_pie({Variant::kQuady, 5, false});
  no_pie.apply(0);
  EXPECT_NE(no_pie.why_illegal(no_pie.swap_action()).find("pie rule is off"), std::string::npos);
}

TEST(HexRules, NotationRoundTripsAndRejectsOffBoardCells) {
  for (Variant v : {Variant::kHex, Variant::kQuady}) {
    const HexGame g({v, 15, true});
    int on_board = 0;
    for (int a = 0; a < g.num_actions(); ++a) {
      if (a < 225 && !g.geometry().on_board[a]) continue;
      ++on_board;
      std::string error;
      EXPECT_EQ(g.parse_action(g.action_to_string(a), &error), a) << g.action_to_string(a) << ": " << error;
      std::string upper = g.action_to_string(a);
      for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      EXPECT_EQ(g.parse_action(upper, &error), a);
    }
    EXPECT_EQ(on_board, (v == Variant::kHex ? 225 : 120) + 1);
  }
  const HexGame y({Variant::kQuady, 15, true});
  // The server's names: column letter along the base, row from the apex.
  EXPECT_EQ(y.parse_action("a1", nullptr), 0);
  EXPECT_EQ(y.parse_action("F6", nullptr), 5 * 15 + 5);
  EXPECT_EQ(y.parse_action("o15", nullptr), 15 * 15 - 1);
  std::string error;
  EXPECT_EQ(y.parse_action("b1", &error), -1);
  EXPECT_EQ(error, "'b1' is off the triangle (row 1 has columns a..a)");
  EXPECT_EQ(y.parse_action("a16", &error), -1);
  EXPECT_EQ(error, "'a16' is off the triangle of side 15");
  EXPECT_EQ(y.parse_action("e2-f3", &error), -1);
  EXPECT_NE(error.find("not a move"), std::string::npos);
  EXPECT_NE(y.why_illegal(1).find("off the triangle"), std::string::npos);
}

TEST(HexRules, DiagramsFollowTheServer) {
  const auto g = HexGame::from_position({Variant::kQuady, 15, true}, stones_from(kQuadrantYExample, 15),
                                        Player::kWhite, 100);
  std::istringstream text(g->board_text());
  std::vector<std::string> lines;
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  ASSERT_GE(lines.size(), 17u);
  // Row by row the same cells as the page (ignoring the indentation and row labels).
  for (int y = 0; y < 15; ++y) {
    const std::string& line = lines[y];
    EXPECT_EQ(line.substr(line.find('-') + 2), kQuadrantYExample[y]) << line;
  }
  EXPECT_EQ(lines[0], "               1- +");
  EXPECT_EQ(lines[14], "15- + + x o + + + + + + + + x + +");
  EXPECT_EQ(lines[16], "     a b c d e f g h i j k l m n o");
  EXPECT_NE(g->board_text().find("black wins"), std::string::npos);

  const auto h = HexGame::from_position({Variant::kQuadhex, 14, false}, stones_from(kQuadrantHexExample, 14),
                                        Player::kBlack, 42);
  const std::string ht = h->board_text();
  // North up, as the square boards and the browser draw it: row 14 first, row 1 last.
  const size_t row1 = ht.find("\n 1 . . . V . . . - - - - - - - 1\n");
  const size_t row14 = ht.find("\n             14 - - - - - - - . . . V . . . 14\n");
  ASSERT_NE(row1, std::string::npos) << ht;
  ASSERT_NE(row14, std::string::npos) << ht;
  EXPECT_LT(row14, row1) << ht;
  EXPECT_EQ(ht.rfind("                 a b c d e f g h i j k l m n\n", row14), 0u) << ht;
}

}  // namespace
}  // namespace quax
