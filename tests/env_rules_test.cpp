// Every rule and every rejection of RULES.md sections 1-2 for quax, link, quickway,
// crossway and quadrex, each on a small position built by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "diagram_position.h"
#include "env/game_state.h"
#include "env/square_game.h"

namespace quax {
namespace {

using testing::parse_diagram;

int act(const GameState& s, const std::string& move) {
  std::string error;
  const int a = s.parse_action(move, &error);
  EXPECT_GE(a, 0) << move << ": " << error;
  return a;
}

// Plays space-separated moves, each of which must be legal.
void play(GameState& s, const std::string& moves) {
  std::istringstream in(moves);
  for (std::string m; in >> m;) {
    const int a = act(s, m);
    ASSERT_EQ(s.why_illegal(a), "") << "move " << m;
    s.apply(a);
  }
}

std::string why(const GameState& s, const std::string& move) { return s.why_illegal(act(s, move)); }

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<std::string> legal_names(const GameState& s) {
  std::vector<int> legal;
  s.legal_actions(&legal);
  std::vector<std::string> out;
  for (int a : legal) out.push_back(s.action_to_string(a));
  return out;
}

bool mask_all_zero(const GameState& s) {
  std::vector<uint8_t> mask(s.num_actions(), 7);
  s.legal_mask(mask.data());
  return std::all_of(mask.begin(), mask.end(), [](uint8_t m) { return m == 0; });
}

SquareGame game(Variant v, int size) { return SquareGame(GameSpec{v, size, variant_info(v).swap_by_default}); }

// --- Section 1: common conventions ----------------------------------------------------

TEST(Conventions, PlayerAliases) {
  for (const char* b : {"black", "Black", "b", "V", "vert", "x", "X"}) EXPECT_EQ(parse_player(b), Player::kBlack) << b;
  for (const char* w : {"white", "W", "h", "horz", "o", "red", "Red", "r"}) EXPECT_EQ(parse_player(w), Player::kWhite) << w;
  for (const char* bad : {"", "blue", "none", "vh"}) EXPECT_FALSE(parse_player(bad).has_value()) << bad;
}

// A client switching variants keeps its size where it can, else gets the nearest allowed one.
TEST(Conventions, NearestValidSize) {
  EXPECT_EQ(nearest_valid_size(Variant::kQuax, 5), 5);
  EXPECT_EQ(nearest_valid_size(Variant::kQuikQuax, 5), 6);   // even sizes only; a tie goes up
  EXPECT_EQ(nearest_valid_size(Variant::kQuikQuax, 3), 4);   // below the minimum
  EXPECT_EQ(nearest_valid_size(Variant::kQuikQuax, 25), 26);
  EXPECT_EQ(nearest_valid_size(Variant::kQuady2, 8), 9);     // sizes 4k+1
  EXPECT_EQ(nearest_valid_size(Variant::kQuady2, 11), 13);
  EXPECT_EQ(nearest_valid_size(Variant::kQuady, 26), 25);    // above the maximum
  EXPECT_EQ(nearest_valid_size(Variant::kStymie, 20), 12);
  EXPECT_EQ(nearest_valid_size(Variant::kQuadhex, 3), 6);
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i)
    for (int n = 1; n <= 30; ++n) {
      const int size = nearest_valid_size(all[i].variant, n);
      EXPECT_EQ(check_spec(GameSpec{all[i].variant, size, false}), "") << all[i].name << " " << n;
      if (check_spec(GameSpec{all[i].variant, n, false}).empty()) {
        EXPECT_EQ(size, n) << all[i].name;
      }
    }
}

TEST(Conventions, SizesThreeToTwentySix) {
  for (Variant v : {Variant::kQuax, Variant::kLink, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    EXPECT_EQ(check_spec(GameSpec{v, 3, true}), "");
    EXPECT_EQ(check_spec(GameSpec{v, 26, true}), "");
    EXPECT_NE(check_spec(GameSpec{v, 2, true}), "");
    EXPECT_NE(check_spec(GameSpec{v, 27, true}), "");
  }
  EXPECT_EQ(default_spec(Variant::kQuax), (GameSpec{Variant::kQuax, 11, true}));
  EXPECT_EQ(default_spec(Variant::kLink), (GameSpec{Variant::kLink, 8, false}));
  EXPECT_EQ(default_spec(Variant::kQuickway), (GameSpec{Variant::kQuickway, 11, true}));
  EXPECT_EQ(default_spec(Variant::kCrossway), (GameSpec{Variant::kCrossway, 19, true}));
  EXPECT_EQ(default_spec(Variant::kQuadrex), (GameSpec{Variant::kQuadrex, 19, true}));
}

TEST(Conventions, BlackMovesFirstAndTurnsAlternate) {
  auto s = game(Variant::kQuax, 5);
  EXPECT_EQ(s.to_move(), Player::kBlack);
  play(s, "c3");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  play(s, "a1");
  EXPECT_EQ(s.to_move(), Player::kBlack);
  EXPECT_EQ(s.move_number(), 2);
  EXPECT_EQ(s.stones_of(Player::kBlack), std::vector<std::string>{"c3"});
  EXPECT_EQ(s.stones_of(Player::kWhite), std::vector<std::string>{"a1"});
}

// Black connects rows 1 and N, White columns a and N; a corner cell counts for both of its edges.
TEST(Conventions, CornerBelongsToBothEdges) {
  for (Variant v : {Variant::kQuax, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    // Column a holds both west corners: it is Black's north-south line.
    auto black = parse_diagram("V . .\nV . .\nV . .").position(v, Player::kWhite, 5);
    EXPECT_EQ(black->outcome(), Outcome::kBlackWins) << variant_info(v).name;
    // Row 3 holds both north corners: it is White's west-east line.
    auto white = parse_diagram("H H H\n. . .\n. . .").position(v, Player::kBlack, 6);
    EXPECT_EQ(white->outcome(), Outcome::kWhiteWins) << variant_info(v).name;
    // A row is no goal for Black, a column none for White.
    EXPECT_EQ(parse_diagram("V V V\n. . .\n. . .").position(v, Player::kWhite, 5)->outcome(), Outcome::kOngoing);
    EXPECT_EQ(parse_diagram(". . H\n. . H\n. . H").position(v, Player::kBlack, 6)->outcome(), Outcome::kOngoing);
  }
}

TEST(Conventions, NothingIsPlayedAfterTheEnd) {
  auto s = game(Variant::kQuax, 3);
  play(s, "a1 b1 a2 b2 a3");
  EXPECT_EQ(s.outcome(), Outcome::kBlackWins);
  EXPECT_EQ(s.to_move(), Player::kNone);
  EXPECT_TRUE(mask_all_zero(s));
  EXPECT_TRUE(contains(why(s, "c3"), "game is over"));
  EXPECT_TRUE(contains(why(s, "swap"), "game is over"));
}

// --- Swap (pie rule), swap-pieces convention ------------------------------------------

TEST(Swap, MirrorsTheStoneAcrossTheA1DiagonalAndBlackMovesNext) {
  for (Variant v : {Variant::kQuax, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    auto s = game(v, 5);
    play(s, "c1");  // column c = 3, row 1 -> column a, row 3
    ASSERT_EQ(why(s, "swap"), "");
    play(s, "swap");
    EXPECT_EQ(s.stones_of(Player::kBlack), std::vector<std::string>{});
    EXPECT_EQ(s.stones_of(Player::kWhite), std::vector<std::string>{"a3"});
    EXPECT_EQ(s.to_move(), Player::kBlack);
    EXPECT_EQ(s.move_number(), 2);
    EXPECT_FALSE(s.swap_available());
    EXPECT_TRUE(contains(why(s, "swap"), "only allowed as white's first move"));
    // The new white stone plays like any other.
    EXPECT_TRUE(contains(why(s, "a3"), "occupied"));
  }
}

TEST(Swap, StoneOnTheDiagonalKeepsItsCell) {
  auto s = game(Variant::kQuax, 5);
  play(s, "d4 swap");
  EXPECT_EQ(s.stones_of(Player::kWhite), std::vector<std::string>{"d4"});
}

TEST(Swap, OnlyAtPlyOne) {
  auto s = game(Variant::kQuax, 5);
  EXPECT_NE(why(s, "swap"), "");  // Black's first move
  play(s, "b2");
  EXPECT_EQ(why(s, "swap"), "");
  play(s, "c3");
  EXPECT_NE(why(s, "swap"), "");
  play(s, "d4");
  EXPECT_NE(why(s, "swap"), "");
}

TEST(Swap, OnlyWhereThePieRuleIsOn) {
  auto link = game(Variant::kLink, 5);  // RULES.md: link has no swap
  play(link, "b2");
  EXPECT_TRUE(contains(why(link, "swap"), "pie rule is off"));
  for (Variant v : {Variant::kQuax, Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    SquareGame s(GameSpec{v, 5, false});
    play(s, "b2");
    EXPECT_TRUE(contains(why(s, "swap"), "pie rule is off")) << variant_info(v).name;
    const auto legal = legal_names(s);
    EXPECT_EQ(std::count(legal.begin(), legal.end(), "swap"), 0);
  }
}

// --- quax and link --------------------------------------------------------------------

TEST(Quax, PlacementOnlyOnEmptyCells) {
  auto s = game(Variant::kQuax, 5);
  play(s, "b2 c3");
  EXPECT_TRUE(contains(why(s, "b2"), "occupied"));  // own stone
  EXPECT_TRUE(contains(why(s, "c3"), "occupied"));  // opponent's stone
  EXPECT_EQ(why(s, "d4"), "");
}

TEST(Quax, LinkNeedsTwoOwnStones) {
  auto s = game(Variant::kQuax, 5);
  play(s, "b2 c3");                                 // black b2, white c3
  EXPECT_NE(why(s, "b2-c3"), "");                   // one of them is white's
  EXPECT_NE(why(s, "a1-b2"), "");                   // a1 is empty
  play(s, "a1 d4");                                 // black a1, white d4
  EXPECT_NE(why(s, "c3-d4"), "");                   // white's pair: not for black
  EXPECT_EQ(why(s, "a1-b2"), "");
  play(s, "e5");                                    // black elsewhere
  EXPECT_NE(why(s, "a1-b2"), "");                   // black's pair: not for white
  EXPECT_EQ(why(s, "c3-d4"), "");
}

TEST(Quax, NoLinkAcrossAnExistingLinkOnEitherDiagonal) {
  // Block b2 holds black b2, c3 (`/`) and white c2, b3 (`\`).
  auto s = game(Variant::kQuax, 5);
  play(s, "b2 c2 c3 b3");
  EXPECT_EQ(why(s, "b2-c3"), "");
  play(s, "b2-c3");
  EXPECT_TRUE(contains(why(s, "c2-b3"), "already holds a link"));   // crossing link
  play(s, "a5");
  // Re-placing one's own link (the server's "pass") is not a move here (RULES.md Decision).
  EXPECT_TRUE(contains(why(s, "b2-c3"), "already holds a link"));
  const auto legal = legal_names(s);
  EXPECT_EQ(std::count(legal.begin(), legal.end(), "b2-c3"), 0);
  EXPECT_EQ(s.links_of(Player::kBlack), std::vector<std::string>{"b2-c3"});
  EXPECT_EQ(s.links_of(Player::kWhite), std::vector<std::string>{});
  EXPECT_EQ(s.links_of(Player::kNone), std::vector<std::string>{});  // not the free blocks
}

TEST(Quax, OneLinkPerBlockEvenWhenAllFourStonesAreOwn) {
  auto s = game(Variant::kQuax, 5);
  play(s, "b2 e5 c3 e4 c2 e3 b3 e1");
  EXPECT_EQ(why(s, "b2-c3"), "");
  EXPECT_EQ(why(s, "c2-b3"), "");
  play(s, "c2-b3 a5");
  EXPECT_TRUE(contains(why(s, "b2-c3"), "already holds a link"));
}

TEST(Quax, LinkOnlyBetweenDiagonalNeighbours) {
  auto s = game(Variant::kQuax, 5);
  std::string error;
  EXPECT_LT(s.parse_action("b2-b3", &error), 0);
  EXPECT_LT(s.parse_action("b2-d4", &error), 0);
  EXPECT_LT(s.parse_action("b2-b2", &error), 0);
}

// A link between stones already connected through the block's other cells is pointless but legal.
TEST(Quax, RedundantLinkIsLegal) {
  auto s = game(Variant::kQuax, 5);
  play(s, "a1 e5 b1 e4 b2 e3");
  EXPECT_EQ(why(s, "a1-b2"), "");
  play(s, "a1-b2");
  EXPECT_EQ(s.links_of(Player::kBlack), std::vector<std::string>{"a1-b2"});
}

TEST(Quax, LinkedDiagonalConnectsUnlinkedDoesNot) {
  // Black a1, b2, c3 on 3x3: a chain from row 1 to row 3 only through two links.
  for (Variant v : {Variant::kQuax, Variant::kLink}) {
    SquareGame s(GameSpec{v, 3, false});
    play(s, "a1 c1 b2 a3 c3 b3");
    EXPECT_EQ(s.outcome(), Outcome::kOngoing);
    play(s, "a1-b2 c2");
    EXPECT_EQ(s.outcome(), Outcome::kOngoing);
    play(s, "b2-c3");
    EXPECT_EQ(s.outcome(), Outcome::kBlackWins) << variant_info(v).name;
    EXPECT_TRUE(mask_all_zero(s));
  }
}

TEST(Quax, LinkMovesAreLegalOnlyInQuaxAndLink) {
  for (Variant v : {Variant::kQuickway, Variant::kCrossway, Variant::kQuadrex}) {
    SquareGame s(GameSpec{v, 5, false});
    // Black a1 and c3 are not diagonal neighbours of any white stone; b2 is black's.
    play(s, "a1 e5 e1 a5 b2 d5");
    const std::string reason = why(s, "a1-b2");
    EXPECT_NE(reason, "") << variant_info(v).name;
    if (v == Variant::kQuickway)
      EXPECT_TRUE(contains(reason, "automatically")) << reason;
    else
      EXPECT_TRUE(contains(reason, "no link moves")) << reason;
    for (const auto& m : legal_names(s)) EXPECT_EQ(m.find('-'), std::string::npos) << m;
  }
}

TEST(Quax, PassIsNotAMove) {
  for (Variant v : {Variant::kQuax, Variant::kLink, Variant::kQuickway, Variant::kQuadrex}) {
    SquareGame s(GameSpec{v, 5, true});
    EXPECT_TRUE(contains(why(s, "pass"), "not a move")) << variant_info(v).name;
  }
}

// --- quickway -------------------------------------------------------------------------

TEST(Quickway, NewDiagonalPairIsLinkedAutomaticallyForTheMover) {
  auto s = game(Variant::kQuickway, 5);
  play(s, "b2 e5 c3");
  EXPECT_EQ(s.links_of(Player::kBlack), std::vector<std::string>{"b2-c3"});
  play(s, "e4 d2");  // d2 forms the `\` pair d2-c3
  EXPECT_EQ(s.links_of(Player::kBlack), (std::vector<std::string>{"b2-c3", "d2-c3"}));
  EXPECT_EQ(s.links_of(Player::kWhite), std::vector<std::string>{});
}

TEST(Quickway, OneStoneCanCloseFourPairs) {
  auto s = game(Variant::kQuickway, 5);
  play(s, "b2 a5 d2 a4 b4 a3 d4 e1 c3");
  EXPECT_EQ(s.links_of(Player::kBlack), (std::vector<std::string>{"b2-c3", "d2-c3", "c3-b4", "c3-d4"}));
}

TEST(Quickway, FirstComeFirstLinkedAndCrosscutStaysUnlinked) {
  auto s = game(Variant::kQuickway, 5);
  play(s, "b2 c2 c3");  // black pair b2-c3 is linked at once
  play(s, "b3");        // white's pair c2-b3 crosses it: no link for white
  EXPECT_EQ(s.links_of(Player::kBlack), std::vector<std::string>{"b2-c3"});
  EXPECT_EQ(s.links_of(Player::kWhite), std::vector<std::string>{});
  // The other way round: the first pair in a block is the one linked.
  auto t = game(Variant::kQuickway, 5);
  play(t, "b2 c2 e5 b3 c3");
  EXPECT_EQ(t.links_of(Player::kWhite), std::vector<std::string>{"c2-b3"});
  EXPECT_EQ(t.links_of(Player::kBlack), std::vector<std::string>{});
}

TEST(Quickway, AutomaticLinksConnect) {
  auto s = game(Variant::kQuickway, 3);
  play(s, "a1 c1 b2 a3");
  EXPECT_EQ(s.outcome(), Outcome::kOngoing);
  play(s, "c3");  // a1-b2-c3, both diagonals linked automatically
  EXPECT_EQ(s.outcome(), Outcome::kBlackWins);
}

TEST(Quickway, UnlinkedDiagonalDoesNotConnect) {
  // White's b3 .. c2 pair is crossed by black's link: white a3-b3 and c2-c1 stay apart.
  auto s = game(Variant::kQuickway, 3);
  play(s, "a1 b3 b2 c2");  // black a1-b2 linked; white b3-c2 linked (block b2 was free)
  EXPECT_EQ(s.links_of(Player::kWhite), std::vector<std::string>{"c2-b3"});
  auto t = game(Variant::kQuickway, 4);
  play(t, "b2 b3 c3 a3");  // black b2-c3 linked first in block b2
  play(t, "d1 c2");        // white's c2 forms the pair c2-b3 across black's link
  EXPECT_EQ(t.links_of(Player::kWhite), std::vector<std::string>{});
  EXPECT_EQ(t.outcome(), Outcome::kOngoing);  // white a3-b3 and c2 are not connected
}

// --- crossway -------------------------------------------------------------------------

TEST(Crossway, CompletingACheckerboardIsIllegalForTheMoverOnly) {
  // Block a1: white b1 and a2, black b2; black may not take a1, white may.
  auto d = parse_diagram(". . .\nH V .\n. H .");
  auto black = d.position(Variant::kCrossway, Player::kBlack, 4);
  EXPECT_TRUE(contains(why(*black, "a1"), "checkerboard"));
  EXPECT_EQ(why(*black, "c3"), "");
  auto white = d.position(Variant::kCrossway, Player::kWhite, 4);
  EXPECT_EQ(why(*white, "a1"), "");
  // Same shape with colours exchanged.
  auto e = parse_diagram(". . .\nV H .\n. V .").position(Variant::kCrossway, Player::kWhite, 4);
  EXPECT_TRUE(contains(why(*e, "a1"), "checkerboard"));
}

TEST(Crossway, ThreeOfOneColourInABlockIsFine) {
  auto d = parse_diagram(". . .\nV V .\n. V .").position(Variant::kCrossway, Player::kBlack, 4);
  EXPECT_EQ(why(*d, "a1"), "");
  auto w = parse_diagram(". . .\nV V .\n. V .").position(Variant::kCrossway, Player::kWhite, 4);
  EXPECT_EQ(why(*w, "a1"), "");
}

TEST(Crossway, StonesConnectToAllEightNeighbours) {
  auto s = game(Variant::kCrossway, 3);
  play(s, "a1 a2 b2 b3 c3");
  EXPECT_EQ(s.outcome(), Outcome::kBlackWins);
}

// Kam's double hole (sources/post-2008-crossway-draws.txt): only Black can place, so White
// must pass; pass is legal then and only then.
TEST(Crossway, ForcedPassOnlyWhenNoPlacementExists) {
  const auto d = parse_diagram(
      "H H V H V\n"
      "V H . V V\n"
      "V V . H V\n"
      "V H V H V\n"
      "H H V H H");
  auto white = d.position(Variant::kCrossway, Player::kWhite, 22);
  ASSERT_EQ(white->outcome(), Outcome::kOngoing);
  EXPECT_TRUE(white->must_pass());
  EXPECT_EQ(legal_names(*white), std::vector<std::string>{"pass"});
  EXPECT_TRUE(contains(why(*white, "c3"), "must pass"));
  EXPECT_TRUE(contains(why(*white, "c4"), "must pass"));
  white->apply(white->pass_action());
  EXPECT_EQ(white->to_move(), Player::kBlack);
  EXPECT_EQ(white->move_number(), 23);
  EXPECT_EQ(legal_names(*white), (std::vector<std::string>{"c3", "c4"}));
  EXPECT_TRUE(contains(why(*white, "pass"), "only allowed when no placement is legal"));

  auto black = d.position(Variant::kCrossway, Player::kBlack, 21);
  EXPECT_FALSE(black->must_pass());
  EXPECT_EQ(legal_names(*black), (std::vector<std::string>{"c3", "c4"}));
  EXPECT_NE(why(*black, "pass"), "");
  auto fresh = game(Variant::kCrossway, 5);
  EXPECT_NE(why(fresh, "pass"), "");
}

// Kam's single hole: neither player may place there, yet the game goes on elsewhere.
TEST(Crossway, HoleNeitherPlayerMayFill) {
  const auto d = parse_diagram(
      ". . . . .\n"
      ". . . . .\n"
      "H V . . .\n"
      "V . H . .\n"
      ". H V . .");
  for (Player p : {Player::kBlack, Player::kWhite}) {
    auto s = d.position(Variant::kCrossway, p, 6);
    EXPECT_TRUE(contains(why(*s, "b2"), "checkerboard"));
    EXPECT_EQ(s->outcome(), Outcome::kOngoing);
    EXPECT_FALSE(s->must_pass());
  }
}

// RULES.md's draw (neither can place, nobody has won): an exhaustive search of all 3^9 and
// 3^16 colourings of the 3x3 and 4x4 boards (any stone counts) found no such position, and
// random crowded 3x3..6x6 positions (env_random_games_test) none either, so there is no
// position to test it on; the pass and no-placement paths above are the ones it uses.

// --- quadrex --------------------------------------------------------------------------

TEST(Quadrex, FillsTheFourthCellWithThePairsColour) {
  auto s = game(Variant::kQuadrex, 5);
  play(s, "a1 b1 b2");  // black pair a1-b2, white b1, a2 empty -> a2 black
  EXPECT_EQ(s.stones_of(Player::kBlack), (std::vector<std::string>{"a1", "a2", "b2"}));
  EXPECT_EQ(s.stones_of(Player::kWhite), std::vector<std::string>{"b1"});
}

TEST(Quadrex, FillCanHelpTheOpponent) {
  auto s = game(Variant::kQuadrex, 5);
  play(s, "a1 e5 b2 b1");  // white's own b1 completes black's pattern: a2 becomes black
  EXPECT_EQ(s.stones_of(Player::kBlack), (std::vector<std::string>{"a1", "a2", "b2"}));
  EXPECT_EQ(s.to_move(), Player::kBlack);
}

TEST(Quadrex, SideBySidePairDoesNotFill) {
  auto s = game(Variant::kQuadrex, 5);
  play(s, "a1 a2 b1");  // black a1, b1 side by side, white a2: b2 stays empty
  EXPECT_EQ(s.stones_of(Player::kBlack), (std::vector<std::string>{"a1", "b1"}));
  EXPECT_EQ(s.stones_of(Player::kWhite), std::vector<std::string>{"a2"});
  EXPECT_EQ(why(s, "b2"), "");
}

TEST(Quadrex, ConnectionIsOrthogonalOnly) {
  auto s = parse_diagram(". . V\n. V .\nV . .").position(Variant::kQuadrex, Player::kWhite, 5);
  EXPECT_EQ(s->outcome(), Outcome::kOngoing);
}

// A fill made on White's move completes Black's chain: Black wins on White's move.
TEST(Quadrex, FillCanWinForTheOtherPlayer) {
  auto s = parse_diagram("V . .\nV . .\n. V .").position(Variant::kQuadrex, Player::kWhite, 4);
  ASSERT_EQ(s->outcome(), Outcome::kOngoing);
  play(*s, "b2");
  EXPECT_EQ(s->stones_of(Player::kBlack), (std::vector<std::string>{"a1", "b1", "a2", "a3"}));
  EXPECT_EQ(s->outcome(), Outcome::kBlackWins);
}

// A five-fill cascade from one white stone, four fills black and one white; the position
// after it was computed by a separate transcription of RULES.md (a Python script), not by
// this engine.
TEST(Quadrex, LongCascadeFillsBothColours) {
  const auto before = parse_diagram(
      ". H . V V .\n"
      "V H . . V .\n"
      ". . V . H H\n"
      ". V . V . H\n"
      "V . . H . .\n"
      "V H . H . .");
  const auto after = parse_diagram(
      ". H . V V .\n"
      "V H . V V .\n"
      "V V V V H H\n"
      ". V H V . H\n"
      "V . H H . .\n"
      "V H . H . .");
  auto s = before.position(Variant::kQuadrex, Player::kWhite, 18);
  ASSERT_EQ(s->outcome(), Outcome::kOngoing);
  play(*s, "c3");
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c)
      EXPECT_EQ(s->stone(c, r), after.stones[r * 6 + c]) << static_cast<char>('a' + c) << r + 1;
  EXPECT_EQ(s->outcome(), Outcome::kOngoing);
  EXPECT_EQ(s->to_move(), Player::kBlack);
}

// --- cheap copies -----------------------------------------------------------------------

TEST(Copy, CloneAndCopyFromGiveTheSamePosition) {
  auto s = game(Variant::kQuax, 5);
  play(s, "a1 e5 b2 e4 a1-b2");
  auto c = s.clone();
  EXPECT_EQ(c->position_key(), s.position_key());
  EXPECT_EQ(c->board_text(), s.board_text());
  auto t = game(Variant::kQuax, 5);
  t.copy_from(s);
  EXPECT_EQ(t.position_key(), s.position_key());
  EXPECT_EQ(legal_names(t), legal_names(s));
  play(t, "e3");
  EXPECT_NE(t.position_key(), s.position_key());
  EXPECT_EQ(s.move_number(), 5);
}

}  // namespace
}  // namespace quax
