// The pie rule's theorem the proof search relies on (solve/proof_search.h): in a game without
// draws, the player who may swap wins. Checked with the plain search (the rule off) after
// every first turn of each variant with the pie rule, on boards small enough to search whole;
// and the reason behind it, position by position: the swap wins exactly when the same opening
// without the pie rule is lost by the player to move. Quadhex is not here: its smallest board
// (6) takes the plain search over five minutes; its swap is the hex mirror, which keeps each
// quarter a quarter (env tests).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <vector>

#include "env/game_state.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

int swap_action_of(const GameState& s) {
  for (int a = s.num_actions() - s.extra_actions(); a < s.num_actions(); ++a)
    if (s.action_to_string(a) == "swap") return a;
  return -1;
}

// Every opening after which the pie rule can be used, as its actions from the start: the first
// player's first turns (one action in most variants, up to four in stymie), each position once.
void collect_openings(const GameState& s, int swap, std::vector<int>* record, std::set<uint64_t>* seen,
                      std::vector<std::vector<int>>* out) {
  if (s.is_over()) return;
  if (s.is_legal(swap)) {
    if (seen->insert(s.position_key()).second) out->push_back(*record);
    return;
  }
  if (record->size() == 4) return;
  if (!record->empty() && s.to_move() != Player::kBlack) return;  // the first turn is over without a swap
  std::vector<int> actions;
  s.legal_actions(&actions);
  for (int a : actions) {
    auto next = s.clone();
    next->apply(a);
    record->push_back(a);
    collect_openings(*next, swap, record, seen, out);
    record->pop_back();
  }
}

std::unique_ptr<GameState> replay(const GameSpec& spec, const std::vector<int>& record) {
  auto s = new_game(spec);
  for (int a : record) s->apply(a);
  return s;
}

struct Board {
  Variant variant;
  int size;
};

class SwapRule : public ::testing::TestWithParam<Board> {};

TEST_P(SwapRule, TheMoverWhoMaySwapWinsAndTheSwapWinsExactlyWhenPlayingOnWithoutItLoses) {
  const Board b = GetParam();
  const GameSpec with_pie{b.variant, b.size, true}, without_pie{b.variant, b.size, false};
  ASSERT_FALSE(can_draw(with_pie));
  ProofSearch plain(with_pie, kMemory), plain_no_pie(without_pie, kMemory);
  plain.set_swap_rule(false);
  plain.set_virtual_connections(false);
  plain_no_pie.set_virtual_connections(false);

  const auto start = new_game(with_pie);
  const int swap = swap_action_of(*start);
  ASSERT_GE(swap, 0);
  std::vector<int> record;
  std::set<uint64_t> seen;
  std::vector<std::vector<int>> openings;
  collect_openings(*start, swap, &record, &seen, &openings);
  ASSERT_GE(openings.size(), 3u);

  int swap_wins = 0, swap_loses = 0;
  for (const auto& opening : openings) {
    const auto s = replay(with_pie, opening);
    SCOPED_TRACE(s->board_text());
    const Player mover = s->to_move();
    // The theorem: whoever may swap wins.
    ASSERT_EQ(solve_value(plain, *s), GameValue::kWin);
    // Its reason: swapping wins exactly when the same opening without the pie rule is lost by
    // the player to move.
    auto swapped = s->clone();
    swapped->apply(swap);
    const bool swap_won = value_for(plain, *swapped, mover) == GameValue::kWin;
    const auto no_pie = replay(without_pie, opening);
    ASSERT_EQ(no_pie->to_move(), mover);
    EXPECT_NE(swap_won, solve_value(plain_no_pie, *no_pie) == GameValue::kWin);
    (swap_won ? swap_wins : swap_loses) += 1;
  }
  // Both kinds of opening occur: the check above is not vacuous on either side.
  EXPECT_GT(swap_wins, 0);
  EXPECT_GT(swap_loses, 0);

  // With the rule, the start is decided from its children alone: the first player loses.
  ProofSearch ruled(with_pie, kMemory);
  EXPECT_EQ(solve_value(ruled, *start), GameValue::kLoss);
  EXPECT_EQ(solve_value(plain, *start), GameValue::kLoss);
  EXPECT_EQ(ruled.stats().nodes, 1);
}

INSTANTIATE_TEST_SUITE_P(Variants, SwapRule,
                         ::testing::Values(Board{Variant::kQuax, 3}, Board{Variant::kQuax, 4}, Board{Variant::kLink, 3},
                                           Board{Variant::kQuickway, 3}, Board{Variant::kQuadrex, 3},
                                           Board{Variant::kStymie, 3}, Board{Variant::kHex, 3}, Board{Variant::kHex, 4},
                                           Board{Variant::kY, 4}, Board{Variant::kQuady, 5}, Board{Variant::kQuady2, 5}),
                         [](const ::testing::TestParamInfo<Board>& info) {
                           return std::string(variant_info(info.param.variant).name) + "_" + std::to_string(info.param.size);
                         });

}  // namespace
}  // namespace quax
