// Dead cells of hex (solve/hex_dead_cell.h), checked against the plain proof search on random
// positions: a dead cell filled by either player leaves the same winner, and so does a captured
// pair filled by its captor; and the search that skips dead cells gives every value and winning
// move of the search without it. Then drawn cells.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "env/hex_game.h"
#include "plain_search.h"
#include "random_plies.h"
#include "solve/hex_dead_cell.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

using Board = RandomBoard;

class HexDeadCells : public ::testing::TestWithParam<Board> {};

// Does `p` win `stones` with `to_move` to move, over or not?
bool wins(ProofSearch& plain, const GameSpec& spec, const std::vector<Player>& stones, Player to_move, int moves,
          Player p) {
  const auto s = HexGame::from_position(spec, stones, to_move, moves);
  if (s->is_over()) return winner_of(s->outcome()) == p;
  return plain_win(plain, *s, p);
}

TEST_P(HexDeadCells, EitherStoneOnADeadCellLeavesTheSameWinner) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  int dead = 0, alive = 0;
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 3000 + i);
    if (s->is_over()) continue;
    const auto& game = static_cast<const HexGame&>(*s);
    const int cells = b.size * b.size;
    std::vector<Player> stones(static_cast<size_t>(cells));
    for (int c = 0; c < cells; ++c) stones[static_cast<size_t>(c)] = game.stone(c);
    const Player mover = s->to_move();
    for (int c = 0; c < cells; ++c) {
      if (stones[static_cast<size_t>(c)] != Player::kNone) continue;
      if (!hex_dead_cell(game, c)) {
        ++alive;
        continue;
      }
      ++dead;
      bool mover_wins[2];
      for (Player filler : {Player::kBlack, Player::kWhite}) {
        stones[static_cast<size_t>(c)] = filler;
        mover_wins[index_of(filler)] = wins(*plain, spec, stones, mover, s->move_number() + 1, mover);
      }
      stones[static_cast<size_t>(c)] = Player::kNone;
      ASSERT_EQ(mover_wins[0], mover_wins[1])
          << "seed " << 3000 + i << ": " << s->action_to_string(c) << " is called dead\n"
          << s->board_text();
    }
  }
  EXPECT_GT(dead, b.positions / 4);
  EXPECT_GT(alive, dead);
}

TEST_P(HexDeadCells, APairCapturedByEitherPlayerFilledWithItsStonesLeavesTheSameWinner) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  const int n = b.size;
  int captured = 0, pairs = 0;
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 9000 + i);
    if (s->is_over()) continue;
    const auto& game = static_cast<const HexGame&>(*s);
    std::vector<Player> stones(static_cast<size_t>(n * n));
    for (int c = 0; c < n * n; ++c) stones[static_cast<size_t>(c)] = game.stone(c);
    const Player mover = s->to_move();
    const bool mover_wins = wins(*plain, spec, stones, mover, s->move_number(), mover);
    for (int a = 0; a < n * n; ++a) {
      // Each pair of adjacent empty cells once: c to the right of a, below it, or below-left.
      for (const int step : {1, n, n - 1}) {
        const int c = a + step;
        if (c >= n * n || (step == 1 && c % n == 0) || (step == n - 1 && a % n == 0)) continue;
        if (stones[static_cast<size_t>(a)] != Player::kNone || stones[static_cast<size_t>(c)] != Player::kNone)
          continue;
        ++pairs;
        for (Player p : {Player::kBlack, Player::kWhite}) {
          if (!hex_captured_pair(n, &stones, p, a, c)) continue;
          ++captured;
          std::vector<Player> filled = stones;
          filled[static_cast<size_t>(a)] = filled[static_cast<size_t>(c)] = p;
          ASSERT_EQ(wins(*plain, spec, filled, mover, s->move_number() + 2, mover), mover_wins)
              << "seed " << 9000 + i << ": " << s->action_to_string(a) << " and " << s->action_to_string(c)
              << " are called captured by " << (p == Player::kBlack ? "Black" : "White") << "\n"
              << s->board_text();
        }
      }
    }
  }
  EXPECT_GT(captured, b.positions / 10);
  EXPECT_GT(pairs, 4 * captured);
}

TEST_P(HexDeadCells, TheSearchSkippingThemGivesThePlainSearchsValues) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  ProofSearch skipping(spec, kMemory);
  skipping.set_inferior_moves(true);
  skipping.set_virtual_connections(false);  // the dead cells alone
  const auto plain = plain_search(spec, kMemory);
  int dropped = 0;
  for (int i = 0; i < b.positions / 10; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 6000 + i);
    if (s->is_over()) continue;
    std::vector<uint8_t> mask(static_cast<size_t>(s->num_actions()));
    s->legal_mask(mask.data());
    dropped += drop_dead_cells(static_cast<const HexGame&>(*s), mask.data());
    const Solution without = solve_moves(*plain, *s, false);
    const Solution with = solve_moves(skipping, *s, false);
    ASSERT_EQ(with.value, without.value) << s->board_text();
    ASSERT_EQ(with.winning_moves, without.winning_moves) << s->board_text();
  }
  EXPECT_GT(dropped, 0);
}

INSTANTIATE_TEST_SUITE_P(Hex, HexDeadCells, ::testing::Values(Board{4, 3, 12, 1500}, Board{5, 6, 18, 300}),
                         [](const auto& info) { return "hex" + std::to_string(info.param.size); });

// Drawn cells of hex 5x5 (Black's edges the first and last rows).
TEST(HexDeadCell, FourNeighboursOfOneColourInARowKillACellAndTwoApartDoNot) {
  const GameSpec spec{Variant::kHex, 5, false};
  const int n = 5;
  auto at = [&](int x, int y) { return y * n + x; };
  std::vector<Player> stones(25, Player::kNone);
  // Around c3 = (2, 2): the neighbours (3, 2), (3, 1), (2, 1), (1, 2) in a row are White's.
  for (auto [x, y] : {std::pair{3, 2}, {3, 1}, {2, 1}, {1, 2}}) stones[at(x, y)] = Player::kWhite;
  auto s = HexGame::from_position(spec, stones, Player::kBlack, 4);
  EXPECT_TRUE(hex_dead_cell(*s, at(2, 2)));
  // Three of one colour against two of the other: (3, 2), (3, 1), (2, 1) White's, (1, 2) and
  // (1, 3) Black's.
  stones[at(1, 2)] = Player::kBlack;
  stones[at(1, 3)] = Player::kBlack;
  s = HexGame::from_position(spec, stones, Player::kWhite, 5);
  EXPECT_TRUE(hex_dead_cell(*s, at(2, 2)));
  // Two White stones on opposite sides of c3, the rest empty: c3 joins them.
  std::vector<Player> apart(25, Player::kNone);
  apart[at(3, 2)] = Player::kWhite;
  apart[at(1, 2)] = Player::kWhite;
  s = HexGame::from_position(spec, apart, Player::kBlack, 2);
  EXPECT_FALSE(hex_dead_cell(*s, at(2, 2)));
  // The empty board: no cell is dead, the corners included.
  const auto empty = new_game(spec);
  for (int c = 0; c < 25; ++c) EXPECT_FALSE(hex_dead_cell(static_cast<const HexGame&>(*empty), c)) << c;
}

}  // namespace
}  // namespace quax
