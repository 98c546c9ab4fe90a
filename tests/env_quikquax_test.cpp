// QuikQuax (docs/RULES.md section 2): the 1-3-4 turns, quadrants, automatic links, the two
// sample games of neto-quax-variants.txt, random games and network-frame symmetries.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "play_moves.h"
#include "env/quikquax_game.h"
#include "env/symmetry.h"
#include "test_data.h"

namespace quax {
namespace {

const GameSpec kSpec14{Variant::kQuikQuax, 14, false};

using testing::play;

int legal_count(const GameState& s) {
  std::vector<int> legal;
  s.legal_actions(&legal);
  return static_cast<int>(legal.size());
}

TEST(QuikQuax, TurnsPlaceOneThenThreeThenFourStones) {
  QuikQuaxGame s(kSpec14);
  EXPECT_EQ(legal_count(s), 196);
  play(s, "e6");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_EQ(s.stones_left_this_turn(), 3);
  EXPECT_EQ(legal_count(s), 195);
  play(s, "i5");  // south-east: its 48 empty cells are closed for the rest of the turn
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_EQ(legal_count(s), 194 - 48);
  play(s, "i10");  // north-east
  EXPECT_EQ(legal_count(s), 193 - 48 - 48);
  EXPECT_NE(s.why_illegal(s.parse_action("m12", nullptr)).find("north-east quadrant"), std::string::npos);
  play(s, "e10");
  EXPECT_EQ(s.to_move(), Player::kBlack);
  EXPECT_EQ(s.stones_left_this_turn(), 4);
  play(s, "f7 i7 g10");
  EXPECT_EQ(s.to_move(), Player::kBlack);
  play(s, "l10");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_EQ(s.stones_left_this_turn(), 4);
  EXPECT_EQ(s.move_number(), 8);
}

TEST(QuikQuax, DiagonalPairsAreLinkedAutomaticallyWithinAndAcrossTurns) {
  QuikQuaxGame s({Variant::kQuikQuax, 4, false});
  play(s, "a1");          // black, south-west
  play(s, "c1 a3 c3");    // white: south-east, north-west, north-east
  play(s, "b2 c2 b4 d4"); // black: b2 pairs with a1 (a turn earlier); no other black pair
  EXPECT_EQ(s.links_of(Player::kBlack), (std::vector<std::string>{"a1-b2"}));
  EXPECT_EQ(s.links_of(Player::kWhite), std::vector<std::string>{});
}

TEST(QuikQuax, AConnectionEndsTheGameInTheMiddleOfATurn) {
  QuikQuaxGame s({Variant::kQuikQuax, 4, false});
  play(s, "a1");
  play(s, "d1 d4 b4");
  play(s, "a2 a3 c2 c4");
  play(s, "d2 b1 b3 c3");  // white: SE, SW, NW, NE
  EXPECT_FALSE(s.is_over());
  play(s, "a4");  // the first of four stones connects a1-a4
  EXPECT_EQ(s.outcome(), Outcome::kBlackWins);
  EXPECT_EQ(s.to_move(), Player::kNone);
  EXPECT_EQ(legal_count(s), 0);
}

TEST(QuikQuax, SpecsNeedAnEvenSizeAndNoPieRule) {
  EXPECT_EQ(check_spec(kSpec14), "");
  EXPECT_NE(check_spec({Variant::kQuikQuax, 7, false}).find("even size"), std::string::npos);
  EXPECT_NE(check_spec({Variant::kQuikQuax, 8, true}).find("no pie rule"), std::string::npos);
  EXPECT_NE(check_spec({Variant::kTorax, 9, true}).find("the auction replaces it"), std::string::npos);
  EXPECT_EQ(check_spec(default_spec(Variant::kTorax)), "");
}

TEST(QuikQuax, NotationRoundTripsAndRejectsLinksAndSwap) {
  QuikQuaxGame s(kSpec14);
  for (int a = 0; a < s.num_actions(); ++a) EXPECT_EQ(s.parse_action(s.action_to_string(a), nullptr), a);
  std::string err;
  EXPECT_EQ(s.parse_action("e2-f3", &err), -1);
  EXPECT_NE(err.find("only stone placements"), std::string::npos) << err;
  EXPECT_EQ(s.parse_action("swap", &err), -1);
  EXPECT_EQ(s.parse_action("o1", &err), -1);  // column o is off a 14x14 board
}

// The two diagrams of the page (transcribed in tests/data): 14 rows each of 14 cells `.`,
// `o`/`O`, `x`/`X`, drawn with row 1 at the top (read so: with it, every stone of both move
// lists is drawn where it was played, with the first player as `o`; upper case marks the
// last turn). rows[r] is row r + 1.
std::vector<std::vector<std::string>> quikquax_diagrams() {
  return {testing::read_numbered_rows("quikquax-game1-final-position.txt", 14),
          testing::read_numbered_rows("quikquax-game2-final-position.txt", 14)};
}

// The two sample games, transcribed from the page's table: each line of the table holds the
// first player's turn (o, our Black) and then the second's (x, White); `..` pads the short
// opening turns. Read as garbled: the marks `+` and `++` after some moves (e4+, d4+, k6+,
// j4++, l5+) are annotations, not part of the cell, and are dropped. Both games end with the
// first player resigning after the moves listed.
const char* const kGame1 =
    "e6  i5 i10 e10  f7 i7 g10 l10  e3 m6 g8 h8  g3 h7 j8 f9  f5 h2 g12 h12  g6 j5 e8 l12 "
    "c10 g5 h5 k9  e5 k7 l8 f11  e4 e12 k5 k11  d4 l9 k6 d9  c3 c12 k13 j4  l13 l5 d11 b4 "
    "b3 m4 d12 m12";
// Garbled: the first game's diagram has six stones the move list lacks (three of each
// colour, so not one missing turn); every stone of the list is drawn where it was played.
const std::vector<std::string> kGame1DiagramExtras = {"f4x", "i4x", "k4x", "d5o", "j6o", "l6o"};
const char* const kGame2 =
    "d4  e10 i10 j4  d6 m6 c10 l10  f6 l3 c12 l13  l4 h8 g7 d10  k4 g5 i8 d9  h10 b8 e7 h4 "
    "f7 j7 f11 h11  g3 h6 h9 f12  j6 f13 h13 c7  h2 b6 d13 h12  f4 i5 e12 i12";

TEST(QuikQuax, SampleGamesReplayLegallyAndMatchTheirDiagrams) {
  const auto diagrams = quikquax_diagrams();
  ASSERT_EQ(diagrams.size(), 2u);
  const char* games[2] = {kGame1, kGame2};
  for (int g = 0; g < 2; ++g) {
    SCOPED_TRACE(g + 1);
    QuikQuaxGame s(kSpec14);
    play(s, games[g]);
    EXPECT_FALSE(s.is_over());
    EXPECT_EQ(s.to_move(), Player::kBlack);  // the first player resigns on his turn
    EXPECT_EQ(s.stones_left_this_turn(), 4);
    std::vector<std::string> extra;  // drawn in the diagram, absent from the move list
    for (int r = 0; r < 14; ++r) {
      for (int c = 0; c < 14; ++c) {
        const char ch = static_cast<char>(std::tolower(static_cast<unsigned char>(diagrams[g][r][c])));
        ASSERT_NE(std::string(".ox").find(ch), std::string::npos) << "row " << r + 1 << ": '" << ch << "'";
        const Player drawn = ch == 'o' ? Player::kBlack : ch == 'x' ? Player::kWhite : Player::kNone;
        const Player played = s.board().stone(c, r);
        const std::string name = s.action_to_string(r * 14 + c);
        if (played == Player::kNone && drawn != Player::kNone)
          extra.push_back(name + ch);
        else
          EXPECT_EQ(played, drawn) << name;
      }
    }
    EXPECT_EQ(extra, g == 0 ? kGame1DiagramExtras : std::vector<std::string>{});
  }
}

// Random games: every game ends with exactly one winner, and every turn has the quota of
// its place in 1-3-4-4..., in distinct quadrants, unless it ends the game or no unused
// quadrant has room.
TEST(QuikQuax, RandomGamesKeepTheTurnStructureAndEndWithOneWinner) {
  Rng rng(42);
  int wins[2] = {0, 0}, early_ends = 0;
  for (int size : {4, 6, 8, 14}) {
    const int games = size == 14 ? 200 : 1000;
    for (int g = 0; g < games; ++g) {
      QuikQuaxGame s({Variant::kQuikQuax, size, false});
      std::vector<int> legal;
      int turn = 0, in_turn = 0, used = 0;
      while (!s.is_over()) {
        s.legal_actions(&legal);
        ASSERT_FALSE(legal.empty());
        const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
        const int q = s.quadrant_of(a);
        ASSERT_FALSE(used & (1 << q));
        const Player mover = s.to_move();
        s.apply(a);
        used |= 1 << q;
        ++in_turn;
        if (s.is_over()) break;
        if (s.to_move() == mover) continue;
        const int quota = turn == 0 ? 1 : turn == 1 ? 3 : 4;
        if (in_turn < quota) {
          // Ended early (docs/RULES.md Decision): every unused quadrant must be full.
          ++early_ends;
          for (int cell = 0; cell < size * size; ++cell) {
            if (!(used & (1 << s.quadrant_of(cell)))) {
              ASSERT_NE(s.board().stone(cell % size, cell / size), Player::kNone);
            }
          }
        } else {
          ASSERT_EQ(in_turn, quota);
        }
        ++turn, in_turn = 0, used = 0;
      }
      ASSERT_TRUE(s.outcome() == Outcome::kBlackWins || s.outcome() == Outcome::kWhiteWins);
      ++wins[index_of(winner_of(s.outcome()))];
      // The fast playout agrees on the kind of ending too.
      QuikQuaxGame t({Variant::kQuikQuax, size, false});
      const Outcome o = t.play_random_to_end(rng);
      ASSERT_TRUE(o == Outcome::kBlackWins || o == Outcome::kWhiteWins);
    }
  }
  EXPECT_GT(wins[0], 100);
  EXPECT_GT(wins[1], 100);
  EXPECT_GT(early_ends, 10);
}

// Augmentation commutes with play: for each goal-keeping board symmetry g, playing g's
// image of every action gives a game whose planes, net mask and net actions are the
// net-frame transforms (net_symmetry(g, mover)) of the original's.
TEST(QuikQuax, NetFrameSymmetriesCommuteWithPlay) {
  Rng rng(7);
  int checked = 0;
  for (int size : {4, 6, 8}) {
    for (int trial = 0; trial < 30; ++trial) {
      for (int gi : kGoalKeepingSymmetries) {
        const Symmetry g = Symmetry::from_index(gi);
        QuikQuaxGame a({Variant::kQuikQuax, size, false}), b({Variant::kQuikQuax, size, false});
        Rng r2(rng.next());
        const int plies = static_cast<int>(r2.below(static_cast<uint32_t>(size * size)));
        std::vector<int> legal;
        for (int i = 0; i < plies && !a.is_over(); ++i) {
          a.legal_actions(&legal);
          const int act = legal[r2.below(static_cast<uint32_t>(legal.size()))];
          a.apply(act);
          const int img = map_cell(g, size, act);
          ASSERT_EQ(b.why_illegal(img), "");
          b.apply(img);
        }
        ASSERT_EQ(a.outcome(), b.outcome());
        if (a.is_over()) continue;
        const Symmetry h = net_symmetry(g, a.to_move());
        const int k = static_cast<int>(std::find(kGoalKeepingSymmetries.begin(), kGoalKeepingSymmetries.end(),
                                                 h.index()) - kGoalKeepingSymmetries.begin());
        ASSERT_LT(k, a.num_net_symmetries());
        const int np = a.num_planes() * size * size, na = a.num_actions();
        std::vector<float> pa(np), pb(np), pt(np);
        a.encode(pa.data());
        b.encode(pb.data());
        a.transform_net_planes(k, pa.data(), pt.data());
        ASSERT_EQ(pt, pb);
        std::vector<uint8_t> ma(na), mb(na), mt(na);
        a.net_legal_mask(ma.data());
        b.net_legal_mask(mb.data());
        a.transform_net_mask(k, ma.data(), mt.data());
        ASSERT_EQ(mt, mb);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

}  // namespace
}  // namespace quax
