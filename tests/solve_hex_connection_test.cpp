// Virtual connections of hex (solve/hex_connection.h), each rule checked against the plain
// proof search (the rules off): on random positions a virtual win is always a proven win and
// every stone outside the must-play region a proven loss, every threat a proven win for its
// player to move; each ziggurat, at each edge, holds against every intrusion; and the search
// with the rules gives the values without them.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "env/hex_game.h"
#include "plain_search.h"
#include "random_plies.h"
#include "solve/connection_distance.h"
#include "solve/hex_connection.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

using Board = RandomBoard;

class RandomHexPositions : public ::testing::TestWithParam<Board> {};

// Every virtual win found is a win for its player with the other to move.
TEST_P(RandomHexPositions, AVirtualWinIsAProvenWin) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  int found = 0, with_carrier = 0;
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 1000 + i);
    if (s->is_over()) continue;
    const auto& game = static_cast<const HexGame&>(*s);
    const Player other = opponent(s->to_move());  // the player who just moved
    CellSet carrier;
    if (!hex_virtual_win(game, other, &carrier)) continue;
    ++found;
    if (carrier.any()) ++with_carrier;
    ASSERT_TRUE(plain_win(*plain, *s, other)) << "seed " << 1000 + i << "\n" << s->board_text();
  }
  EXPECT_GT(found, b.positions / 20);
  EXPECT_GT(with_carrier, found / 2);
}

// Facing threats, every stone outside the must-play region loses.
TEST_P(RandomHexPositions, EveryStoneOutsideTheMustPlayRegionLoses) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  int pruned = 0, kept = 0;
  auto child = new_game(spec);
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 5000 + i);
    if (s->is_over()) continue;
    const Player mover = s->to_move();
    bool threatened = false;
    const CellSet region = hex_must_play_against(static_cast<const HexGame&>(*s), opponent(mover), &threatened);
    if (!threatened) continue;
    std::vector<int> legal;
    s->legal_actions(&legal);
    for (int a : legal) {
      if (region[static_cast<size_t>(a)]) {
        ++kept;
        continue;
      }
      ++pruned;
      child->copy_from(*s);
      child->apply(a);
      const bool mover_won = child->is_over() ? winner_of(child->outcome()) == mover : plain_win(*plain, *child, mover);
      ASSERT_FALSE(mover_won) << "seed " << 5000 + i << ": " << s->action_to_string(a) << " wins for the mover\n"
                              << s->board_text();
    }
  }
  EXPECT_GT(pruned, b.positions / 2);
  EXPECT_GT(kept, 0);
}

// Every threat found (a semi connection of the edges) is a win for its player to move.
TEST_P(RandomHexPositions, AThreatIsAProvenWinForItsPlayerToMove) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  int threats = 0;
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 9000 + i);
    if (s->is_over()) continue;
    const auto& game = static_cast<const HexGame&>(*s);
    std::vector<Player> stones(static_cast<size_t>(b.size * b.size));
    for (int c = 0; c < b.size * b.size; ++c) stones[static_cast<size_t>(c)] = game.stone(c);
    for (Player p : {Player::kBlack, Player::kWhite}) {
      if (!hex_has_threat(game, p)) continue;
      ++threats;
      const auto to_move = HexGame::from_position(spec, stones, p, s->move_number());
      ASSERT_TRUE(plain_win(*plain, *to_move, p)) << "seed " << 9000 + i << "\n" << to_move->board_text();
    }
  }
  EXPECT_GT(threats, b.positions / 4);
}

INSTANTIATE_TEST_SUITE_P(Hex, RandomHexPositions, ::testing::Values(Board{4, 2, 9, 1500}, Board{5, 6, 15, 400}),
                         [](const auto& info) { return "hex" + std::to_string(info.param.size); });

// A position of hex n x n (no swap) from stones given in Black's frame of the south edge, seen
// through one of the four frames (hex_connection.h): 0 as given, 1 the half turn (the north
// edge), 2 the transpose with colours exchanged (White's west edge), 3 both (the east edge).
std::unique_ptr<HexGame> framed(int n, int frame, const std::vector<std::pair<int, int>>& mine,
                                const std::vector<std::pair<int, int>>& theirs, Player to_move_in_frame) {
  const bool transpose = frame >= 2, turn = frame % 2 == 1;
  const Player me = transpose ? Player::kWhite : Player::kBlack;
  std::vector<Player> stones(static_cast<size_t>(n * n), Player::kNone);
  auto put = [&](int u, int v, Player p) {
    int x = u, y = v;
    if (transpose) std::swap(x, y);
    if (turn) {
      x = n - 1 - x;
      y = n - 1 - y;
    }
    stones[static_cast<size_t>(y * n + x)] = p;
  };
  for (const auto& [u, v] : mine) put(u, v, me);
  for (const auto& [u, v] : theirs) put(u, v, opponent(me));
  const Player mover = to_move_in_frame == Player::kBlack ? me : opponent(me);
  return HexGame::from_position(GameSpec{Variant::kHex, n, false}, stones, mover,
                                static_cast<int>(mine.size() + theirs.size()));
}

// A column of the player's stones from the far edge down to (1, 2), the third row, and one
// ziggurat's eight cells empty, every other cell the opponent's: only that ziggurat can join the
// column to the near edge. Found with its eight cells as the carrier, and every opponent stone
// in it breaks it (the player to move still wins, restoring it).
TEST(HexZiggurat, EachHoldsAgainstEveryIntrusionAtEveryEdge) {
  const int n = 6;
  const GameSpec spec{Variant::kHex, n, false};
  const auto plain = plain_search(spec, kMemory);
  const std::vector<std::pair<int, int>> column = {{1, 2}, {1, 3}, {1, 4}, {1, 5}};
  // Mirror 0 widens towards +u, mirror 1 towards -u (hex_connection.h's frames).
  const std::vector<std::pair<int, int>> cells[2] = {{{2, 2}, {1, 1}, {2, 1}, {3, 1}, {1, 0}, {2, 0}, {3, 0}, {4, 0}},
                                                     {{0, 2}, {0, 1}, {1, 1}, {2, 1}, {0, 0}, {1, 0}, {2, 0}, {3, 0}}};
  for (int frame = 0; frame < 4; ++frame) {
    for (int mirror = 0; mirror < 2; ++mirror) {
      SCOPED_TRACE("frame " + std::to_string(frame) + ", mirror " + std::to_string(mirror));
      const auto& room = cells[mirror];
      std::vector<std::pair<int, int>> theirs;
      for (int u = 0; u < n; ++u)
        for (int v = 0; v < n; ++v)
          if (std::find(column.begin(), column.end(), std::make_pair(u, v)) == column.end() &&
              std::find(room.begin(), room.end(), std::make_pair(u, v)) == room.end())
            theirs.push_back({u, v});
      const auto start = framed(n, frame, column, theirs, Player::kWhite);
      const Player me = frame >= 2 ? Player::kWhite : Player::kBlack;
      CellSet carrier;
      ASSERT_TRUE(hex_virtual_win(*start, me, &carrier)) << start->board_text();
      EXPECT_EQ(carrier.count(), 8u);
      EXPECT_TRUE(plain_win(*plain, *start, me)) << start->board_text();
      for (const auto& intrusion : room) {
        auto intruded = theirs;
        intruded.push_back(intrusion);
        const auto s = framed(n, frame, column, intruded, Player::kBlack);
        EXPECT_FALSE(hex_virtual_win(*s, me)) << "the intruded ziggurat is no longer whole\n" << s->board_text();
        EXPECT_TRUE(plain_win(*plain, *s, me)) << s->board_text();
      }
    }
  }
}

// Distances: empty cells to fill along the best path; none through the opponent's stones.
TEST(HexDistance, CountsTheEmptyCellsOfTheBestPath) {
  const GameSpec spec{Variant::kHex, 5, false};
  const auto empty = new_game(spec);
  EXPECT_EQ(hex_connection_distance(static_cast<const HexGame&>(*empty), Player::kBlack), 5);
  EXPECT_EQ(hex_connection_distance(static_cast<const HexGame&>(*empty), Player::kWhite), 5);
  // A Black column c1..c4: one cell left for Black; White's paths cross the column only at c5.
  const auto s = framed(5, 0, {{2, 0}, {2, 1}, {2, 2}, {2, 3}}, {}, Player::kWhite);
  EXPECT_EQ(hex_connection_distance(*s, Player::kBlack), 1);
  EXPECT_EQ(hex_connection_distance(*s, Player::kWhite), 5);
  // A White wall across the board: Black has no path.
  const auto wall = framed(5, 0, {}, {{0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}}, Player::kBlack);
  EXPECT_EQ(hex_connection_distance(*wall, Player::kBlack), kNoPath);
}

// The search with the rules gives the plain search's values: every opening of hex 4x4 and the
// positions after seven random moves on 5x5.
TEST(HexSolve, TheRulesChangeNoValue) {
  for (int n : {4, 5}) {
    const GameSpec spec{Variant::kHex, n, false};
    ProofSearch with(spec, kMemory);
    const auto plain = plain_search(spec, kMemory);
    for (int i = 0; i < (n == 4 ? 16 : 12); ++i) {
      const auto s = n == 4 ? new_game(spec) : after_random_plies(spec, 7, 77 + i);
      if (n == 4) s->apply(i);
      if (s->is_over()) continue;
      EXPECT_EQ(solve_value(with, *s), solve_value(*plain, *s)) << s->board_text();
    }
  }
}

// Known values: 4x4's winning openings are the four cells of the short diagonal; 5x5's centre
// wins at once (two ziggurats).
TEST(HexSolve, KnownOpenings) {
  const GameSpec spec{Variant::kHex, 4, false};
  ProofSearch search(spec, kMemory);
  const auto start = new_game(spec);
  const Solution sol = solve_moves(search, *start, false);
  EXPECT_EQ(sol.value, GameValue::kWin);
  std::vector<std::string> winning;
  for (int a : sol.winning_moves) winning.push_back(start->action_to_string(a));
  EXPECT_EQ(winning, (std::vector<std::string>{"d1", "c2", "b3", "a4"}));
  const GameSpec five{Variant::kHex, 5, false};
  auto centre = new_game(five);
  std::string error;
  centre->apply(centre->parse_action("c3", &error));
  EXPECT_TRUE(hex_virtual_win(static_cast<const HexGame&>(*centre), Player::kBlack));
}

}  // namespace
}  // namespace quax
