// Proof sets of hex (solve/proof_search.h), checked against the plain proof search on random
// positions: the loser's stones added anywhere outside a decided position's proof set leave
// the winner winning; and the search that prunes by them gives every value and winning move of
// the search without them, in fewer nodes.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <vector>

#include "env/hex_game.h"
#include "plain_search.h"
#include "random_plies.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

using Board = RandomBoard;

class HexProofSets : public ::testing::TestWithParam<Board> {};

TEST_P(HexProofSets, TheLosersStonesOutsideAProofSetLeaveTheWinnerWinning) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  const int cells = b.size * b.size;
  std::mt19937_64 rng(11);
  int known = 0, filled = 0, smaller = 0;
  ProofSearch search(spec, kMemory);  // one table: the positions' proofs share it, as in a book
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 5000 + i);
    if (s->is_over()) continue;
    const Proof p = search.prove(*s, Player::kBlack);
    ASSERT_NE(p, Proof::kUnknown);
    const Player winner = p == Proof::kProven ? Player::kBlack : Player::kWhite, loser = opponent(winner);
    const uint64_t proof = search.proof_set(*s, Player::kBlack);
    if (proof == kEveryCell) continue;
    ++known;
    const auto& game = static_cast<const HexGame&>(*s);
    std::vector<Player> stones(static_cast<size_t>(cells));
    std::vector<int> outside;
    for (int c = 0; c < cells; ++c) {
      stones[static_cast<size_t>(c)] = game.stone(c);
      if (game.stone(c) == Player::kNone && !((proof >> c) & 1)) outside.push_back(c);
    }
    if (!outside.empty()) ++smaller;
    // Every cell outside at once, then random halves of them.
    for (int trial = 0; trial < 3 && !outside.empty(); ++trial) {
      std::vector<Player> with = stones;
      int added = 0;
      for (int c : outside)
        if (trial == 0 || rng() % 2 == 0) {
          with[static_cast<size_t>(c)] = loser;
          ++added;
        }
      if (added == 0) continue;
      ++filled;
      const auto t = HexGame::from_position(spec, with, s->to_move(), s->move_number() + added);
      const bool winner_wins =
          t->is_over() ? winner_of(t->outcome()) == winner : plain_win(*plain, *t, winner);
      ASSERT_TRUE(winner_wins) << "seed " << 5000 + i << ", trial " << trial << ": " << player_name(winner)
                               << " won with proof set of " << __builtin_popcountll(proof) << " cells, "
                               << added << " stones of " << player_name(loser) << " added\n"
                               << s->board_text() << "\nafter\n"
                               << t->board_text();
    }
  }
  // Most positions keep a proof set, and most of those leave cells out of it.
  EXPECT_GT(known, b.positions / 2);
  EXPECT_GT(smaller, known / 2);
  EXPECT_GT(filled, b.positions / 2);
}

TEST_P(HexProofSets, PruningByThemKeepsEveryValueInFewerNodes) {
  const Board& b = GetParam();
  const GameSpec spec{Variant::kHex, b.size, false};
  ProofSearch without(spec, kMemory), with(spec, kMemory);
  without.set_proof_sets(false);
  for (int i = 0; i < b.positions / 4; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 7000 + i);
    if (s->is_over()) continue;
    const Solution sol[2] = {solve_moves(without, *s, false), solve_moves(with, *s, false)};
    ASSERT_EQ(sol[0].value, sol[1].value) << "seed " << 7000 + i << "\n" << s->board_text();
    ASSERT_EQ(sol[0].winning_moves, sol[1].winning_moves) << "seed " << 7000 + i << "\n" << s->board_text();
    ASSERT_TRUE(sol[1].unknown_moves.empty());
  }
  EXPECT_LT(with.stats().nodes, without.stats().nodes);
}

INSTANTIATE_TEST_SUITE_P(Hex, HexProofSets, ::testing::Values(Board{4, 1, 8, 600}, Board{5, 2, 12, 200}),
                         [](const auto& info) { return "hex" + std::to_string(info.param.size); });

}  // namespace
}  // namespace quax
