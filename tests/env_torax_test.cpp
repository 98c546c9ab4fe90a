// Torax (docs/RULES.md section 2): the auction, wrapping loops on the torus, "Black can no longer
// win", the three sample games of neto-quax-variants.txt, random games and symmetries.
#include <gtest/gtest.h>

#include <deque>
#include <sstream>

#include "play_moves.h"
#include "env/notation.h"
#include "env/torax_game.h"
#include "test_data.h"

namespace quax {
namespace {

// Plays a record written as the page writes it, through the record reader: during the
// auction a token is the blocks of one turn joined (`c3g7`, one block `i8`), the turn's `end`
// implied; `adopt` as is; afterwards cells (`e5`) and links (`d3e2`).
void play_record(ToraxGame& s, const std::string& record) {
  ParsedRecord r;
  std::string err;
  ASSERT_TRUE(parse_record(record, &r, &err)) << err;
  auto state = replay_record(s.spec(), r, &err);
  ASSERT_TRUE(state) << err;
  s.copy_from(*state);
}

using testing::play;

int legal_count(const GameState& s) {
  std::vector<int> legal;
  s.legal_actions(&legal);
  return static_cast<int>(legal.size());
}

ToraxGame game(int n) { return ToraxGame({Variant::kTorax, n, false}); }

// Transcribed from the page's tables, one turn per token in play order (first player, then
// second). Read as garbled: `h89` (game 2, Bill's second auction turn) is the blocks h8 and
// h9; `h7g89??` is h7, g8, g9 with the annotation `??` dropped. The records end with a
// resignation, written here as a comment.
// Game 1, Bill (first) and Joao: Joao adopts, Bill plays the black stones; Bill resigns.
const char* const kGame1 =
    "c3g7 b3h7 b7h3 adopt e5 e2 f2 f3 e3 e4 f4 g4 d2 d3 g3 d3e2 e3f2 e4f3 f4g3 g2 b5 e7 g5 h5 h4 i4 "
    "i5 d5 c5 c6 d4 d5e4 d4e3 f3g2 g1 h1 h9 f1 f2g1 f9 a7 a6 i6 i7 i6a7 a8 h4i5 i9 d6 c6d5 b8 a8b7";
// Game 2, Joao (first) and Bill: Joao adopts on his fourth turn; Bill (black) resigns.
const char* const kGame2 =
    "c3g7 a1i9 i8 h8h9 i7 h7g8g9 adopt e5 g3 e3 e1 g5 i5 a9 b7 f2 g1 d2 c1 h4 h1 b4 i3";
// Game 3, Bill (first) and Joao: Bill adopts on his third turn; Joao (black) resigns.
const char* const kGame3 =
    "c3g7 h7 h8 g8 adopt e5 g3 g4 g5 h3 f4 f5 f4g5 g6 h6 h5 g5h6 i6 g1 i1 a8 i8 i7 a7 i7a8 b8 b9 a9 "
    "a8b9 c9 c1 f3 e3 d2 d3 c2 b2 b3 b2c3 b1 c1b2 a2 c1b9 e2 g3f4";

TEST(Torax, SampleGamesReplayLegally) {
  struct Case { const char* record; Player connector; };
  const Case cases[] = {{kGame1, Player::kBlack}, {kGame2, Player::kWhite}, {kGame3, Player::kWhite}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.record);
    ToraxGame s = game(9);
    play_record(s, c.record);
    if (HasFatalFailure()) return;
    EXPECT_EQ(s.connector(), c.connector);
    // Each ends with the black-stone player resigning: he has not won.
    EXPECT_NE(s.outcome(), win_for(c.connector));
  }
}

// The page draws game 2's final position (transcribed in tests/data, `O` white stones and
// blocks, `X` black): the replay must give exactly that board.
TEST(Torax, SampleGame2MatchesItsDiagram) {
  const auto rows = testing::read_numbered_rows("torax-game2-final-position.txt", 9);
  ToraxGame s = game(9);
  play_record(s, kGame2);
  for (int r = 0; r < 9; ++r) {
    for (int c = 0; c < 9; ++c) {
      const char ch = rows[r][c];
      ASSERT_NE(std::string(".OX").find(ch), std::string::npos) << "row " << r + 1 << ": '" << ch << "'";
      EXPECT_EQ(s.colour_at(r * 9 + c), ch == 'X' ? Player::kBlack : ch == 'O' ? Player::kWhite : Player::kNone)
          << static_cast<char>('a' + c) << r + 1;
    }
  }
}

TEST(Torax, AuctionTurnsAndLegalMoveCounts) {
  ToraxGame s = game(9);
  EXPECT_EQ(legal_count(s), 81 + 1);  // a block anywhere, or adopt
  play(s, "c3");
  EXPECT_EQ(s.to_move(), Player::kBlack);
  EXPECT_EQ(legal_count(s), 80 + 1);  // another block, or end
  EXPECT_NE(s.why_illegal(s.adopt_action()), "");
  play(s, "g7 end");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_NE(s.why_illegal(s.end_action()), "");  // a turn needs a block first
  play(s, "a1 b1 c1 d1 e1 f1 g1 h1");
  EXPECT_EQ(s.to_move(), Player::kWhite);
  play(s, "i1");  // the ninth block ends the turn
  EXPECT_EQ(s.to_move(), Player::kBlack);
  play(s, "adopt");  // black's seat becomes the blocker; white's seat plays black, first
  EXPECT_EQ(s.connector(), Player::kWhite);
  EXPECT_EQ(s.to_move(), Player::kWhite);
  EXPECT_EQ(legal_count(s), 81 - 11);
  EXPECT_EQ(s.stones_of(Player::kWhite).size(), 11u);  // blocks are white stones
  play(s, "e5");
  EXPECT_EQ(s.stones_of(Player::kBlack), std::vector<std::string>{"e5"});
  EXPECT_NE(s.why_illegal(s.adopt_action()), "");
}

// After the first seat adopts at once, the second seat (kWhite) plays the black stones.
ToraxGame black_to_play(int n) {
  ToraxGame s = game(n);
  play(s, "adopt");
  return s;
}

TEST(Torax, ARowAroundTheTorusWinsButAContractibleRingDoesNot) {
  ToraxGame s = black_to_play(5);
  // Black rings c3 (b2 c2 d2 d3 d4 c4 b4 b3): a closed chain, but it can be shrunk to a point.
  play(s, "b2 a1 c2 a2 d2 a3 d3 a4 d4 e1 c4 e2 b4 e3");
  EXPECT_FALSE(s.is_over());
  play(s, "b3");
  EXPECT_FALSE(s.is_over());
  // Row 4 is b4 c4 d4 already; a4 is white. Row 5 around the torus: a5 .. e5.
  play(s, "e4 a5 b1 b5 c1 c5 d1 d5 c3");
  EXPECT_FALSE(s.is_over());
  play(s, "e5");
  EXPECT_EQ(s.outcome(), win_for(Player::kWhite));  // the connector's seat
}

TEST(Torax, ADiagonalLoopAcrossBothSeamsWins) {
  ToraxGame s = black_to_play(5);
  play(s, "a1 a3 b2 a4 c3 b4 d4 b5 e5 c5");
  play(s, "a1-b2 e1 b2-c3 e2 c3-d4 e3 d4-e5 d1");
  EXPECT_FALSE(s.is_over());
  EXPECT_EQ(s.action_to_string(s.parse_action("e5a1", nullptr)), "a1-e5");
  play(s, "e5-a1");  // the link of block e5 (cells e5, a5, e1, a1) crosses both seams
  EXPECT_EQ(s.outcome(), win_for(Player::kWhite));
}

TEST(Torax, WhiteWinsAsSoonAsNoLoopIsLeft) {
  // 3x3: the first seat blocks column a, the second column b; after adopting, column c is
  // Black's only loop, and White's c2 kills it.
  ToraxGame s = game(3);
  play(s, "a1 a2 a3 b1 b2 b3 adopt");
  EXPECT_TRUE(s.black_can_still_win());
  play(s, "c1");
  EXPECT_FALSE(s.is_over());
  play(s, "c2");
  EXPECT_EQ(s.outcome(), win_for(Player::kBlack));  // the adopter's seat
  // Adopting when no loop is possible any more wins at once.
  ToraxGame t = game(3);
  play(t, "a1 a2 a3 b1 b2 b3 c1 end adopt");
  EXPECT_EQ(t.outcome(), win_for(Player::kWhite));
}

TEST(Torax, AWhiteLinkShutsADiagonalThatBlackNeeded) {
  // 3x3, Black's only hope is the `/` diagonal loop a1-b2-c3; White's link on block b2's
  // other diagonal (c2-b3, white blocks) shuts block b2 for Black.
  ToraxGame s = game(3);
  play(s, "b1 c1 end a2 c2 end a3 b3 end adopt");
  ASSERT_TRUE(s.black_can_still_win());
  play(s, "a1");
  play(s, "c2-b3");
  EXPECT_EQ(s.outcome(), win_for(Player::kWhite));
}

// Records of random games (auctions included) read back to the same actions: an auction
// turn is one token, its end implied, and a turn of N blocks ends by itself.
TEST(Torax, RecordsRoundTripWithJoinedAuctionTurns) {
  Rng rng(21);
  int joined = 0;
  for (int n : {3, 5, 9}) {
    for (int g = 0; g < 200; ++g) {
      ToraxGame s = game(n);
      std::vector<int> played, legal;
      while (!s.is_over()) {
        s.legal_actions(&legal);
        int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
        // Short auction turns, so that records have several of them.
        if (s.in_auction() && s.is_legal(s.end_action()) && rng.below(3) == 0) a = s.end_action();
        s.apply(a);
        played.push_back(a);
      }
      const std::string text = record_text(s.spec(), played);
      joined += text.find(" end") == std::string::npos && played.size() > 2;
      ParsedRecord r;
      std::string err;
      ASSERT_TRUE(parse_record(text, &r, &err)) << err;
      std::vector<int> replayed;
      auto t = replay_record(s.spec(), r, &err, &replayed);
      ASSERT_TRUE(t) << err << "\n" << text;
      ASSERT_EQ(replayed, played) << text;
      ASSERT_EQ(t->outcome(), s.outcome());
    }
  }
  EXPECT_GT(joined, 500);
  EXPECT_EQ(record_text({Variant::kTorax, 9, false}, {2 * 9 + 2, 6 * 9 + 6, 3 * 81 + 1, 3 * 81}), "c3g7 adopt");
}

TEST(Torax, NotationRoundTripsAcrossTheSeams) {
  ToraxGame s = game(9);
  for (int a = 0; a < s.num_actions(); ++a) EXPECT_EQ(s.parse_action(s.action_to_string(a), nullptr), a) << a;
  EXPECT_EQ(s.action_to_string(s.parse_action("i9-a1", nullptr)), "a1-i9");
  EXPECT_EQ(s.parse_action("block c3", nullptr), s.parse_action("c3", nullptr));
  std::string err;
  EXPECT_EQ(s.parse_action("a1-c3", &err), -1);
  EXPECT_NE(err.find("diagonally adjacent"), std::string::npos);
  EXPECT_EQ(s.parse_action("j1", &err), -1);
}

// An independent loop test: breadth-first search lifting cells to the plane; a cell reached
// again at a different lift closes a wrapping loop. `open(x)` says which cells count and
// `diag_ok(block, d)` which diagonals.
template <typename Open, typename Diag>
bool bfs_wrapping_loop(int n, Open open, Diag diag_ok) {
  const int nn = n * n;
  std::vector<int> lift_c(nn, INT32_MIN), lift_r(nn, 0);
  for (int start = 0; start < nn; ++start) {
    if (!open(start) || lift_c[start] != INT32_MIN) continue;
    lift_c[start] = start % n, lift_r[start] = start / n;
    std::deque<int> queue{start};
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      const int c = x % n, r = x / n;
      std::vector<std::array<int, 2>> steps = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
      // Diagonal steps through the four blocks around x.
      const int diag_steps[4][4] = {{1, 1, 0, 0}, {-1, -1, -1, -1}, {-1, 1, -1, 0}, {1, -1, 0, -1}};
      for (const auto& ds : diag_steps) {
        const int bc = ((c + ds[2]) % n + n) % n, br = ((r + ds[3]) % n + n) % n;
        const int d = ds[0] == ds[1] ? 0 : 1;
        if (diag_ok(br * n + bc, d)) steps.push_back({ds[0], ds[1]});
      }
      for (const auto& st : steps) {
        const int y = (((r + st[1]) % n + n) % n) * n + ((c + st[0]) % n + n) % n;
        if (!open(y)) continue;
        const int lc = lift_c[x] + st[0], lr = lift_r[x] + st[1];
        if (lift_c[y] == INT32_MIN) {
          lift_c[y] = lc, lift_r[y] = lr;
          queue.push_back(y);
        } else if (lift_c[y] != lc || lift_r[y] != lr) {
          return true;
        }
      }
    }
  }
  return false;
}

bool black_has_loop(const ToraxGame& s) {
  const int n = s.size();
  std::vector<std::string> links = s.links_of(Player::kBlack);
  std::vector<uint8_t> has(2 * n * n, 0);
  for (const auto& l : links) {
    const int a = s.parse_action(l, nullptr);
    has[(a / (n * n) - 1) * n * n + a % (n * n)] = 1;
  }
  return bfs_wrapping_loop(
      n, [&](int x) { return s.colour_at(x) == Player::kBlack; }, [&](int b, int d) { return has[d * n * n + b] != 0; });
}

bool black_potential_loop(const ToraxGame& s) {
  const int n = s.size();
  std::vector<int> shut(2 * n * n, 0);  // diagonals Black may not use
  for (Player colour : {Player::kBlack, Player::kWhite}) {
    for (const auto& l : s.links_of(colour)) {
      const int a = s.parse_action(l, nullptr);
      const int b = a % (n * n), d = a / (n * n) - 1;
      shut[(1 - d) * n * n + b] = 1;
      if (colour == Player::kWhite) shut[d * n * n + b] = 1;
    }
  }
  return bfs_wrapping_loop(
      n, [&](int x) { return s.colour_at(x) != Player::kWhite; }, [&](int b, int d) { return !shut[d * n * n + b]; });
}

// Random games (auctions that adopt early half the time): every game ends with exactly one
// winner, and the incremental loop test and the "no loop possible" test agree with a
// breadth-first search at every position.
TEST(Torax, RandomGamesEndWithOneWinnerAndAgreeWithBreadthFirstSearch) {
  Rng rng(5);
  int wins_connector = 0, wins_blocker = 0, positions = 0;
  for (int n : {3, 4, 5, 6, 9}) {
    for (int g = 0; g < (n == 9 ? 200 : 500); ++g) {
      ToraxGame s = game(n);
      std::vector<int> legal;
      while (!s.is_over()) {
        if (!s.in_auction()) {
          ASSERT_FALSE(black_has_loop(s));
          ASSERT_EQ(s.black_can_still_win(), black_potential_loop(s));
          ++positions;
        }
        s.legal_actions(&legal);
        ASSERT_FALSE(legal.empty());
        int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
        if (s.in_auction() && s.is_legal(s.adopt_action()) && rng.below(2) == 0) a = s.adopt_action();
        s.apply(a);
      }
      ASSERT_TRUE(s.outcome() == Outcome::kBlackWins || s.outcome() == Outcome::kWhiteWins);
      const bool connector_won = winner_of(s.outcome()) == s.connector();
      EXPECT_EQ(black_has_loop(s), connector_won);
      if (!connector_won) {
        EXPECT_FALSE(black_potential_loop(s));
      }
      (connector_won ? wins_connector : wins_blocker)++;
      ToraxGame t = game(n);
      const Outcome o = t.play_random_to_end(rng);
      ASSERT_TRUE(o == Outcome::kBlackWins || o == Outcome::kWhiteWins);
    }
  }
  EXPECT_GT(wins_connector, 100);
  EXPECT_GT(wins_blocker, 100);
  EXPECT_GT(positions, 10000);
}

// Augmentation commutes with play for all 8 * N*N torus symmetries: playing the image of
// every action gives the transformed planes and legal mask.
TEST(Torax, NetFrameSymmetriesCommuteWithPlay) {
  Rng rng(9);
  int checked = 0;
  for (int n : {3, 4, 5}) {
    for (int trial = 0; trial < 6; ++trial) {
      ToraxGame probe = game(n);
      for (int sym = 0; sym < probe.num_net_symmetries(); ++sym) {
        ToraxGame a = game(n), b = game(n);
        Rng r2(static_cast<uint64_t>(trial) * 1000 + n);
        const int plies = static_cast<int>(r2.below(static_cast<uint32_t>(3 * n * n)));
        std::vector<int> legal;
        for (int i = 0; i < plies && !a.is_over(); ++i) {
          a.legal_actions(&legal);
          int act = legal[r2.below(static_cast<uint32_t>(legal.size()))];
          if (a.in_auction() && a.is_legal(a.adopt_action()) && r2.below(2) == 0) act = a.adopt_action();
          a.apply(act);
          const int img = a.map_action(sym, act);
          ASSERT_EQ(b.why_illegal(img), "");
          b.apply(img);
        }
        ASSERT_EQ(a.outcome(), b.outcome());
        const int np = a.num_planes() * n * n, na = a.num_actions();
        std::vector<float> pa(np), pb(np), pt(np);
        a.encode(pa.data());
        b.encode(pb.data());
        a.transform_net_planes(sym, pa.data(), pt.data());
        ASSERT_EQ(pt, pb) << "sym " << sym;
        std::vector<uint8_t> ma(na), mb(na), mt(na);
        a.net_legal_mask(ma.data());
        b.net_legal_mask(mb.data());
        a.transform_net_mask(sym, ma.data(), mt.data());
        ASSERT_EQ(mt, mb) << "sym " << sym;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 500);
  (void)rng;
}

}  // namespace
}  // namespace quax
