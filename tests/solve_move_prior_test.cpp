// The proof search's move prior (solve/proof_search.h, set_move_prior): it orders the work
// and never changes a value. Checked on random positions with priors that favour the winning
// moves (an oracle built from a second search), the losing ones, and arbitrary ones: every
// value and winning move is the search without a prior's, and the oracle's order proves the
// same positions in fewer nodes than the reverse order.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "env/game_state.h"
#include "random_plies.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

enum class Kind { kOracle, kReverseOracle, kArbitrary };

// A prior over `state`'s legal moves: 1 for the moves `kind` favours, 1e-4 for the others
// (the oracle's winning moves, the reverse oracle's losing ones, or a fixed hash's half).
ProofSearch::MovePrior make_prior(Kind kind, ProofSearch* oracle) {
  return [kind, oracle](const GameState& state, float* prior) {
    std::vector<int> legal;
    state.legal_actions(&legal);
    for (int a : legal) {
      bool favoured;
      if (kind == Kind::kArbitrary) {
        favoured = ((state.position_key() >> (a % 61)) ^ static_cast<uint64_t>(a)) & 1;
      } else {
        auto next = state.clone();
        next->apply(a);
        const bool wins = value_for(*oracle, *next, state.to_move()) == GameValue::kWin;
        favoured = wins == (kind == Kind::kOracle);
      }
      prior[a] = favoured ? 1.0f : 1e-4f;
    }
  };
}

struct Board {
  Variant variant;
  int size;
  int min_plies, max_plies;
  int positions;
};

class MovePrior : public ::testing::TestWithParam<Board> {};

TEST_P(MovePrior, ChangesNoValueAndTheOracleOrderProvesInFewerNodesThanItsReverse) {
  const Board b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  ProofSearch reference(spec, kMemory), oracle(spec, kMemory);
  ProofSearch good(spec, kMemory), bad(spec, kMemory), arbitrary(spec, kMemory);
  good.set_move_prior(make_prior(Kind::kOracle, &oracle), 2.0, 1000);
  bad.set_move_prior(make_prior(Kind::kReverseOracle, &oracle), 2.0, 1000);
  arbitrary.set_move_prior(make_prior(Kind::kArbitrary, nullptr), 1.0, 3);
  int wins = 0, losses = 0;
  for (int i = 0; i < b.positions; ++i) {
    const auto s = after_random_plies(spec, b.min_plies + i % (b.max_plies - b.min_plies + 1), 700 + i);
    if (s->is_over()) continue;
    const Solution want = solve_moves(reference, *s, false);
    ASSERT_NE(want.value, GameValue::kUnknown);
    for (ProofSearch* search : {&good, &bad, &arbitrary}) {
      const Solution got = solve_moves(*search, *s, false);
      ASSERT_EQ(got.value, want.value) << "position " << i << "\n" << s->board_text();
      ASSERT_EQ(got.winning_moves, want.winning_moves) << "position " << i << "\n" << s->board_text();
    }
    (want.value == GameValue::kWin ? wins : losses)++;
  }
  EXPECT_GT(wins, 0);
  EXPECT_GT(losses, 0);
  EXPECT_GT(good.prior_calls(), 0);
  EXPECT_GT(arbitrary.prior_calls(), 0);
  // Searched in the oracle's order, the proofs need fewer positions expanded.
  EXPECT_LT(good.stats().nodes, bad.stats().nodes);
}

INSTANTIATE_TEST_SUITE_P(Solve, MovePrior,
                         ::testing::Values(Board{Variant::kQuax, 4, 4, 10, 25}, Board{Variant::kQuickway, 4, 2, 8, 40},
                                           Board{Variant::kHex, 5, 3, 8, 14}),
                         [](const ::testing::TestParamInfo<Board>& info) {
                           return std::string(variant_info(info.param.variant).name) + "_" +
                                  std::to_string(info.param.size);
                         });

// The prior is asked only near the root: a depth limit of one asks it at the root's
// expansions alone, fewer times than an unlimited one over the same proofs.
TEST(MovePrior, TheDepthLimitKeepsTheModelNearTheRoot) {
  const GameSpec spec{Variant::kQuax, 4, false};
  ProofSearch near(spec, kMemory), everywhere(spec, kMemory);
  near.set_virtual_connections(false);  // the bridges would decide most children at once
  everywhere.set_virtual_connections(false);
  near.set_move_prior(make_prior(Kind::kArbitrary, nullptr), 1.0, 1);
  everywhere.set_move_prior(make_prior(Kind::kArbitrary, nullptr), 1.0, 1000);
  const auto start = new_game(spec);
  ASSERT_EQ(solve_value(near, *start), solve_value(everywhere, *start));
  EXPECT_GT(near.prior_calls(), 0);
  EXPECT_LT(near.prior_calls(), everywhere.prior_calls());
  // Weight 0 turns the prior off.
  ProofSearch off(spec, kMemory);
  off.set_move_prior(make_prior(Kind::kArbitrary, nullptr), 0.0, 1000);
  solve_value(off, *start);
  EXPECT_EQ(off.prior_calls(), 0);
}

}  // namespace
}  // namespace quax
