// Stymie (docs/RULES.md section 3): the server's example position, the turn shapes, swap,
// random games and the network-frame symmetries.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

#include "play_moves.h"
#include "env/stymie_game.h"
#include "test_data.h"

namespace quax {
namespace {

using testing::play;

int legal_count(const GameState& s) {
  std::vector<int> legal;
  s.legal_actions(&legal);
  return static_cast<int>(legal.size());
}

StymieGame game(int n, bool swap = true) { return StymieGame({Variant::kStymie, n, swap}); }

// The sample game of the server's Stymie help page, transcribed in tests/data as the pieces
// of each colour in this project's notation (`c5` octagon, `c5+` square).
std::vector<Player> server_example(int* count) {
  const int n = 8;
  StymieGame board = game(n);
  std::vector<Player> pieces(2 * n * n, Player::kNone);
  *count = 0;
  int size = 0;
  for (const std::string& line : testing::read_test_data("stymie-8x8-won-by-horz.txt")) {
    std::istringstream in(line);
    std::string key, move;
    in >> key;
    if (key == "size") {
      in >> size;
      continue;
    }
    const auto colour = parse_player(key.substr(0, key.size() - 1));
    if (key.back() != ':' || !colour) throw std::runtime_error("stymie-8x8-won-by-horz.txt: bad line '" + line + "'");
    while (in >> move) {
      std::string err;
      const int a = board.parse_action(move, &err);
      if (a < 0 || a >= 2 * n * n) throw std::runtime_error("stymie-8x8-won-by-horz.txt: '" + move + "': " + err);
      if (pieces[a] != Player::kNone) throw std::runtime_error("stymie-8x8-won-by-horz.txt: " + move + " twice");
      pieces[a] = *colour;
      ++*count;
    }
  }
  if (size != n) throw std::runtime_error("stymie-8x8-won-by-horz.txt: the board is not 8x8");
  return pieces;
}

TEST(Stymie, ServerExampleIsAWinForHorz) {
  int count = 0;
  const auto pieces = server_example(&count);
  EXPECT_EQ(count, 50);  // every V and H the page draws
  const GameSpec spec{Variant::kStymie, 8, true};
  EXPECT_EQ(StymieGame::from_position(spec, pieces, Player::kBlack)->outcome(), Outcome::kWhiteWins);
  // Vert's pieces alone connect nothing.
  std::vector<Player> vert = pieces;
  for (auto& p : vert)
    if (p == Player::kWhite) p = Player::kNone;
  EXPECT_EQ(StymieGame::from_position(spec, vert, Player::kBlack)->outcome(), Outcome::kOngoing);
  // And the win needs its squares: without Horz's squares there is none.
  std::vector<Player> no_squares = pieces;
  for (int a = 64; a < 128; ++a)
    if (no_squares[a] == Player::kWhite) no_squares[a] = Player::kNone;
  EXPECT_EQ(StymieGame::from_position(spec, no_squares, Player::kBlack)->outcome(), Outcome::kOngoing);
}

TEST(Stymie, OpeningSwapAndPairLegalMoveCounts) {
  StymieGame s = game(3);
  EXPECT_EQ(legal_count(s), 9 + 4);
  play(s, "b2");  // the opening: one piece, turn over
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_EQ(legal_count(s), 12 + 1);  // any empty cell, or swap
  play(s, "a1+");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  // The square's free corner octagons (a1, b1, a2), or end; no triple after the opening.
  EXPECT_EQ(legal_count(s), 3 + 1);
  EXPECT_NE(s.why_illegal(s.parse_action("b1+", nullptr)), "");
  play(s, "a2");  // octagon + adjacent square: the turn is complete and cannot grow
  EXPECT_EQ(s.to_move(), Player::kBlack);
  EXPECT_FALSE(s.triple_allowed());
}

TEST(Stymie, TriplesOnlyAfterTheOpponentsSingle) {
  StymieGame s = game(5);
  play(s, "a1 c3 end");  // white's single (not the opening)
  EXPECT_TRUE(s.triple_allowed());
  play(s, "b4");
  // 4 adjacent squares, the 7 empty octagons around b4 (c3 is white) that share an empty
  // square with it, or end.
  EXPECT_EQ(legal_count(s), 4 + 7 + 1);
  play(s, "b4+");
  // Complete pair; a third piece: b4's 3 other squares or b4+'s 3 other corners; or end.
  EXPECT_EQ(legal_count(s), 3 + 3 + 1);
  play(s, "c5");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_FALSE(s.triple_allowed());  // black's turn was not a single
  // Two octagons need the square they share before the turn can end.
  play(s, "e1 end b1");
  ASSERT_TRUE(s.triple_allowed());
  play(s, "c2");
  EXPECT_NE(s.why_illegal(s.end_action()), "");
  EXPECT_EQ(legal_count(s), 1);  // only b1+, the square b1 and c2 share
  play(s, "b1+");
  EXPECT_EQ(s.to_move(), Player::kWhite);
}

TEST(Stymie, SwapMirrorsTheOpeningPieceAcrossTheDiagonal) {
  StymieGame s = game(4);
  play(s, "c1+ swap");
  EXPECT_EQ(s.stones_of(Player::kWhite), std::vector<std::string>{"a3+"});
  EXPECT_TRUE(s.stones_of(Player::kBlack).empty());
  EXPECT_EQ(s.to_move(), Player::kBlack);
  EXPECT_FALSE(s.triple_allowed());  // a swap is not a single
}

TEST(Stymie, NotationRoundTrips) {
  StymieGame s = game(5);
  std::vector<int> legal;
  for (int a = 0; a < s.num_actions(); ++a) {
    const std::string t = s.action_to_string(a);
    const bool padding = a >= 25 && a < 50 && ((a - 25) % 5 == 4 || (a - 25) / 5 == 4);
    if (!padding) {
      EXPECT_EQ(s.parse_action(t, nullptr), a) << t;
    }
  }
  std::string err;
  EXPECT_EQ(s.parse_action("e5+", &err), -1);
  EXPECT_NE(err.find("off the board"), std::string::npos) << err;
  EXPECT_EQ(s.parse_action("C3+", nullptr), 25 + 2 * 5 + 2);
}

bool adjacent(int n, int oct, int sq) {
  const int s = sq - n * n;
  return (s % n == oct % n || s % n == oct % n - 1) && (s / n == oct / n || s / n == oct / n - 1);
}

// Random games: every game ends with exactly one winner, and every finished turn is one of
// the shapes, with a triple only right after the opponent's single.
TEST(Stymie, RandomGamesPlayOnlyTheShapesAndEndWithOneWinner) {
  Rng rng(3);
  int wins[2] = {0, 0}, triples = 0;
  for (int n : {3, 4, 5, 8}) {
    const int nn = n * n;
    for (int g = 0; g < (n == 8 ? 300 : 1000); ++g) {
      StymieGame s = game(n);
      std::vector<int> legal, turn;
      bool last_single = false, first = true;
      while (!s.is_over()) {
        s.legal_actions(&legal);
        ASSERT_FALSE(legal.empty());
        const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
        const Player mover = s.to_move();
        const bool allowed = s.triple_allowed();
        s.apply(a);
        if (a < 2 * nn) turn.push_back(a);
        if (s.is_over() || s.to_move() == mover) continue;
        // The turn just ended: check its shape.
        std::vector<int> oct, sq;
        for (int x : turn) (x < nn ? oct : sq).push_back(x);
        if (turn.size() == 2) {
          ASSERT_EQ(oct.size(), 1u);
          ASSERT_TRUE(adjacent(n, oct[0], sq[0]));
        } else if (turn.size() == 3) {
          ASSERT_TRUE(allowed && last_single);
          ++triples;
          if (oct.size() == 1) {
            ASSERT_TRUE(adjacent(n, oct[0], sq[0]) && adjacent(n, oct[0], sq[1]));
          } else {
            ASSERT_EQ(sq.size(), 1u);
            ASSERT_TRUE(adjacent(n, oct[0], sq[0]) && adjacent(n, oct[1], sq[0]));
          }
        } else if (turn.empty()) {
          ASSERT_EQ(a, s.swap_action());
        }
        last_single = turn.size() == 1 && !first;
        first = false;
        turn.clear();
      }
      ASSERT_TRUE(s.outcome() == Outcome::kBlackWins || s.outcome() == Outcome::kWhiteWins);
      ++wins[index_of(winner_of(s.outcome()))];
      StymieGame t = game(n);
      const Outcome o = t.play_random_to_end(rng);
      ASSERT_TRUE(o == Outcome::kBlackWins || o == Outcome::kWhiteWins);
    }
  }
  EXPECT_GT(wins[0], 200);
  EXPECT_GT(wins[1], 200);
  EXPECT_GT(triples, 100);
}

// Augmentation commutes with play for the 4 goal-keeping symmetries (no swap: it commutes
// only up to conjugation, see env/symmetry.h). In the network frame White's view is
// transposed, which exchanges the two mirrors.
TEST(Stymie, NetFrameSymmetriesCommuteWithPlay) {
  Rng rng(11);
  int checked = 0;
  for (int n : {3, 4, 6}) {
    for (int trial = 0; trial < 25; ++trial) {
      for (int k = 0; k < 4; ++k) {
        StymieGame a = game(n, false), b = game(n, false);
        Rng r2(static_cast<uint64_t>(trial) * 100 + n);
        const int plies = static_cast<int>(r2.below(static_cast<uint32_t>(2 * n * n)));
        std::vector<int> legal;
        for (int i = 0; i < plies && !a.is_over(); ++i) {
          a.legal_actions(&legal);
          const int act = legal[r2.below(static_cast<uint32_t>(legal.size()))];
          a.apply(act);
          ASSERT_EQ(b.why_illegal(a.map_action(k, act)), "");
          b.apply(a.map_action(k, act));
        }
        ASSERT_EQ(a.outcome(), b.outcome());
        if (a.is_over()) continue;
        const int kn = a.to_move() == Player::kWhite ? ((k & 1) << 1 | (k & 2) >> 1) : k;
        const int np = a.num_planes() * n * n, na = a.num_actions();
        std::vector<float> pa(np), pb(np), pt(np);
        a.encode(pa.data());
        b.encode(pb.data());
        a.transform_net_planes(kn, pa.data(), pt.data());
        ASSERT_EQ(pt, pb);
        std::vector<uint8_t> ma(na), mb(na), mt(na);
        a.net_legal_mask(ma.data());
        b.net_legal_mask(mb.data());
        a.transform_net_mask(kn, ma.data(), mt.data());
        ASSERT_EQ(mt, mb);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 150);
}

}  // namespace
}  // namespace quax
