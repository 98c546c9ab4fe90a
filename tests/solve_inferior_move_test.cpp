// Inferior moves of quax, link and quickway (solve/inferior_move.h), checked against the plain
// proof search on random positions: every move the rule drops leaves a position worth exactly
// what a pass would leave; a pass is never worth more than a placement (the monotonicity the
// rule rests on); and the search with the rule gives every value and winning move of the
// search without it. Then drawn positions for each kind of drop.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "diagram_position.h"
#include "env/square_game.h"
#include "plain_search.h"
#include "random_plies.h"
#include "solve/inferior_move.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

constexpr size_t kMemory = 32u << 20;

struct Board {
  Variant variant;
  int size;
  int min_plies, max_plies;
  int positions;  // for the pass and monotonicity checks
  int solved;     // for the whole search
};

const Board kBoards[] = {Board{Variant::kQuax, 4, 8, 16, 1500, 150},   Board{Variant::kLink, 4, 8, 16, 1000, 100},
                         Board{Variant::kQuax, 5, 14, 24, 500, 30},    Board{Variant::kQuickway, 4, 6, 12, 1500, 150},
                         Board{Variant::kQuickway, 5, 10, 18, 500, 30}};

std::string board_name(const ::testing::TestParamInfo<Board>& info) {
  return std::string(variant_info(info.param.variant).name) + "_" + std::to_string(info.param.size);
}

// Random games of `b` (no pie rule) that are not over, from seeds first_seed, first_seed + 1, ...
std::vector<std::unique_ptr<SquareGame>> random_positions(const Board& b, int count, uint64_t first_seed) {
  std::vector<std::unique_ptr<SquareGame>> out;
  for (int i = 0; i < count; ++i) {
    auto s = after_random_plies(GameSpec{b.variant, b.size, false}, b.min_plies + i % (b.max_plies - b.min_plies + 1),
                                first_seed + static_cast<uint64_t>(i));
    if (!s->is_over()) out.emplace_back(static_cast<SquareGame*>(s.release()));
  }
  return out;
}

// Does `p` win `state` (over or not) with perfect play?
bool wins(ProofSearch& plain, const GameState& state, Player p) {
  if (state.is_over()) return winner_of(state.outcome()) == p;
  return plain_win(plain, state, p);
}

// `game`'s stones and links with the other player to move: the position a pass would leave.
std::unique_ptr<SquareGame> after_pass(const SquareGame& game) {
  const int n = game.size();
  std::vector<Player> stones;
  std::vector<std::array<int, 3>> links;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) stones.push_back(game.stone(c, r));
  for (int r = 0; r + 1 < n; ++r) {
    for (int c = 0; c + 1 < n; ++c) {
      int d = 0;
      const Player owner = game.link_on(c, r, &d);
      if (owner != Player::kNone) links.push_back({r * n + c, d, static_cast<int>(owner)});
    }
  }
  return SquareGame::from_position(game.spec(), stones, links, opponent(game.to_move()), game.move_number() + 1);
}

class InferiorMoves : public ::testing::TestWithParam<Board> {};

// Every dropped move leaves the value a pass leaves, and a placement always stays.
TEST_P(InferiorMoves, EveryDroppedMoveActsAsAPass) {
  const Board& b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  const int nn = b.size * b.size;
  int dropped_cells = 0, dropped_links = 0;
  auto child = new_game(spec);
  for (const auto& s : random_positions(b, b.positions, 100)) {
    std::vector<uint8_t> legal(static_cast<size_t>(s->num_actions())), kept;
    s->legal_mask(legal.data());
    kept = legal;
    const int dropped = drop_pass_like_moves(*s, kept.data());
    int legal_cells = 0, kept_cells = 0, count = 0;
    for (int a = 0; a < nn; ++a) legal_cells += legal[static_cast<size_t>(a)], kept_cells += kept[static_cast<size_t>(a)];
    if (legal_cells > 0) {
      ASSERT_GT(kept_cells, 0) << s->board_text();
    }
    if (dropped == 0) continue;
    const Player mover = s->to_move();
    const bool pass_wins = wins(*plain, *after_pass(*s), mover);
    for (int a = 0; a < s->num_actions(); ++a) {
      if (!legal[static_cast<size_t>(a)] || kept[static_cast<size_t>(a)]) continue;
      ++count;
      (a < nn ? dropped_cells : dropped_links)++;
      child->copy_from(*s);
      child->apply(a);
      ASSERT_EQ(wins(*plain, *child, mover), pass_wins)
          << s->action_to_string(a) << " is not a pass for " << player_name(mover) << "\n"
          << s->board_text();
    }
    ASSERT_EQ(count, dropped);
  }
  // Both kinds were met (quickway has no link moves).
  EXPECT_GT(dropped_cells, b.positions / 20);
  if (variant_info(b.variant).links == LinkRule::kChosen) {
    EXPECT_GT(dropped_links, b.positions / 20);
  }
}

// A pass never wins where some placement loses: each placement is worth at least a pass.
TEST_P(InferiorMoves, NoPlacementIsWorseThanAPass) {
  const Board& b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  const int nn = b.size * b.size;
  int checked = 0;
  auto child = new_game(spec);
  for (const auto& s : random_positions(b, b.positions / 5, 300)) {
    const Player mover = s->to_move();
    if (!wins(*plain, *after_pass(*s), mover)) continue;
    std::vector<uint8_t> legal(static_cast<size_t>(s->num_actions()));
    s->legal_mask(legal.data());
    for (int a = 0; a < nn; ++a) {
      if (!legal[static_cast<size_t>(a)]) continue;
      ++checked;
      child->copy_from(*s);
      child->apply(a);
      ASSERT_TRUE(wins(*plain, *child, mover))
          << s->action_to_string(a) << " loses where a pass wins\n" << s->board_text();
    }
  }
  EXPECT_GT(checked, b.positions / 10);
}

// The search with the rule, alone and beside the virtual connections, gives the plain values.
TEST_P(InferiorMoves, TheSearchGivesThePlainSearchsValues) {
  const Board& b = GetParam();
  const GameSpec spec{b.variant, b.size, false};
  const auto plain = plain_search(spec, kMemory);
  ProofSearch alone(spec, kMemory), beside(spec, kMemory);
  alone.set_virtual_connections(false);
  alone.set_inferior_moves(true);
  beside.set_inferior_moves(true);
  int wins_seen = 0, losses_seen = 0;
  for (const auto& s : random_positions(b, b.solved, 500)) {
    const Solution without = solve_moves(*plain, *s, false);
    ASSERT_NE(without.value, GameValue::kUnknown);
    for (ProofSearch* search : {&alone, &beside}) {
      const Solution with = solve_moves(*search, *s, false);
      ASSERT_EQ(with.value, without.value) << s->board_text();
      ASSERT_EQ(with.winning_moves, without.winning_moves) << s->board_text();
    }
    (without.value == GameValue::kWin ? wins_seen : losses_seen)++;
  }
  EXPECT_GT(wins_seen, 0);
  EXPECT_GT(losses_seen, 0);
}

INSTANTIATE_TEST_SUITE_P(Solve, InferiorMoves, ::testing::ValuesIn(kBoards), board_name);

using testing::parse_diagram;

// The number of moves dropped, and whether `move` is among them.
int dropped(const SquareGame& game, const std::string& move, bool* move_dropped) {
  std::vector<uint8_t> mask(static_cast<size_t>(game.num_actions()));
  game.legal_mask(mask.data());
  std::string error;
  const int a = game.parse_action(move, &error);
  EXPECT_GE(a, 0) << error;
  EXPECT_TRUE(mask[static_cast<size_t>(a)]) << move << " is not legal";
  const int count = drop_pass_like_moves(game, mask.data());
  *move_dropped = !mask[static_cast<size_t>(a)];
  return count;
}

// White closes b2 in: its neighbours a2, c2, b1, b3 are White's, and so are the opposite
// corners a1, c1, a3 of three blocks around it; the fourth block's corner c3 is empty, but
// White has linked c2-b3 across it. White's links b1-a2, b1-c2 and a2-b3 each cross a block
// holding a third White stone; e4-d5 crosses a block whose other cells are empty.
constexpr const char* kClosedCell = R"(
    . . . O .
    . . V . O
    O O . V .
       \
    O . O . .
    O O O . .
  )";

TEST(InferiorMoves, ACellClosedInByOnePlayerIsDeadForBoth) {
  const auto d = parse_diagram(kClosedCell);
  for (Player mover : {Player::kWhite, Player::kBlack}) {
    bool b2_dropped = false;
    dropped(*d.position(Variant::kQuax, mover, 12, false), "b2", &b2_dropped);
    EXPECT_TRUE(b2_dropped) << player_name(mover);
  }
  // Quickway's automatic link would be there too: the same cell is dead.
  bool b2_dropped = false;
  dropped(*d.position(Variant::kQuickway, Player::kBlack, 12, false), "b2", &b2_dropped);
  EXPECT_TRUE(b2_dropped);
}

TEST(InferiorMoves, ALinkAcrossABlockWithAThirdOwnStoneIsUseless) {
  const auto game = parse_diagram(kClosedCell).position(Variant::kQuax, Player::kWhite, 12, false);
  bool is_dropped = false;
  // b2 and the three links: nothing else.
  EXPECT_EQ(dropped(*game, "a2-b1", &is_dropped), 4);
  for (const char* link : {"a2-b1", "b1-c2", "a2-b3"}) {
    dropped(*game, link, &is_dropped);
    EXPECT_TRUE(is_dropped) << link;
  }
  dropped(*game, "e4-d5", &is_dropped);
  EXPECT_FALSE(is_dropped);
}

// Without White's link c2-b3, Black could still place c3 and, from b2, link across to it:
// b2 is not dead, and the link c2-b3 (whose block's other cells are empty) is a real move.
TEST(InferiorMoves, AnOpenBlockAroundTheCellKeepsItLive) {
  auto d = parse_diagram(kClosedCell);
  d.links.clear();
  const auto game = d.position(Variant::kQuax, Player::kBlack, 12, false);
  bool is_dropped = false;
  dropped(*game, "b2", &is_dropped);
  EXPECT_FALSE(is_dropped);
  const auto white = d.position(Variant::kQuax, Player::kWhite, 12, false);
  dropped(*white, "b3-c2", &is_dropped);
  EXPECT_FALSE(is_dropped);
  dropped(*white, "b2", &is_dropped);
  EXPECT_FALSE(is_dropped);
}

}  // namespace
}  // namespace quax
