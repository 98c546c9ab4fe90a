// The solver against a plain minimax written here (no table, no proof numbers): values and
// winning moves on whole small games and on random 4x4 positions, invariance under the
// board's symmetries, the forced wins the search tests use, and limits (a tiny table, a
// deadline).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <vector>

#include "env/hex_game.h"
#include "env/rng.h"
#include "env/square_game.h"
#include "env/symmetry.h"
#include "solve/proof_search.h"
#include "solve/solver.h"
#include "solve/symmetric_key.h"

namespace quax {
namespace {

constexpr size_t kMemory = 16u << 20;

// +1 when the player to move wins, 0 for a draw, -1 when they lose. Stops at the first
// winning move (a win cannot be improved on), otherwise tries every move.
int minimax(const GameState& s) {
  std::vector<int> actions;
  s.legal_actions(&actions);
  int best = -2;
  auto child = s.clone();
  for (int a : actions) {
    child->copy_from(s);
    child->apply(a);
    int v;
    if (child->is_over()) {
      const Player w = winner_of(child->outcome());
      v = w == Player::kNone ? 0 : (w == s.to_move() ? 1 : -1);
    } else {
      const int cv = minimax(*child);
      v = child->to_move() == s.to_move() ? cv : -cv;
    }
    best = std::max(best, v);
    if (best == 1) break;
  }
  return best;
}

GameValue as_value(int v) { return v > 0 ? GameValue::kWin : (v < 0 ? GameValue::kLoss : GameValue::kDraw); }

// The moves after which the mover wins, by minimax.
std::vector<int> minimax_winning_moves(const GameState& s) {
  std::vector<int> actions, out;
  s.legal_actions(&actions);
  auto child = s.clone();
  for (int a : actions) {
    child->copy_from(s);
    child->apply(a);
    const bool win = child->is_over() ? winner_of(child->outcome()) == s.to_move()
                                      : (child->to_move() == s.to_move() ? minimax(*child) > 0 : minimax(*child) < 0);
    if (win) out.push_back(a);
  }
  return out;
}

// A position `plies` random moves into a game of `spec` that is not over, or null.
std::unique_ptr<GameState> random_position(const GameSpec& spec, int plies, Rng& rng) {
  auto s = new_game(spec);
  std::vector<int> actions;
  for (int i = 0; i < plies; ++i) {
    s->legal_actions(&actions);
    s->apply(actions[rng.below(static_cast<uint32_t>(actions.size()))]);
    if (s->is_over()) return nullptr;
  }
  return s;
}

struct WholeGame {
  Variant variant;
  bool swap;
};

class WholeGame3x3 : public ::testing::TestWithParam<WholeGame> {};

// Every position of the 3x3 game a few plies in, and the empty board: the value and every
// winning move agree with minimax.
TEST_P(WholeGame3x3, ValuesAndWinningMovesAgreeWithMinimax) {
  const GameSpec spec{GetParam().variant, 3, GetParam().swap};
  ProofSearch search(spec, kMemory);
  auto start = new_game(spec);
  const Solution root = solve_moves(search, *start, false);
  EXPECT_EQ(root.value, as_value(minimax(*start)));
  EXPECT_EQ(root.winning_moves, minimax_winning_moves(*start));
  // All positions two plies in.
  std::vector<int> first, second;
  start->legal_actions(&first);
  auto a = start->clone(), b = start->clone();
  int checked = 0;
  for (int m1 : first) {
    a->copy_from(*start);
    a->apply(m1);
    a->legal_actions(&second);
    for (int m2 : second) {
      b->copy_from(*a);
      b->apply(m2);
      if (b->is_over()) continue;
      ASSERT_EQ(solve_value(search, *b), as_value(minimax(*b)))
          << start->action_to_string(m1) << " " << a->action_to_string(m2);
      ++checked;
    }
  }
  EXPECT_GT(checked, 30);
}

INSTANTIATE_TEST_SUITE_P(Solve, WholeGame3x3,
                         ::testing::Values(WholeGame{Variant::kQuax, false}, WholeGame{Variant::kQuax, true},
                                           WholeGame{Variant::kQuickway, false}, WholeGame{Variant::kCrossway, false},
                                           WholeGame{Variant::kQuadrex, true}),
                         [](const auto& info) {
                           return std::string(variant_info(info.param.variant).name) +
                                  (info.param.swap ? "_swap" : "_noswap");
                         });

// Random quax 4x4 positions 11 to 13 plies in (minimax takes milliseconds on each).
TEST(Solve, RandomQuax4x4PositionsAgreeWithMinimax) {
  const GameSpec spec{Variant::kQuax, 4, false};
  ProofSearch search(spec, kMemory);
  Rng rng(2024);
  int wins = 0, losses = 0;
  for (int i = 0; i < 150; ++i) {
    auto s = random_position(spec, 11 + i % 3, rng);
    if (!s) continue;
    const Solution sol = solve_moves(search, *s, false);
    ASSERT_EQ(sol.value, as_value(minimax(*s))) << "position " << i;
    ASSERT_EQ(sol.winning_moves, minimax_winning_moves(*s)) << "position " << i;
    (sol.value == GameValue::kWin ? wins : losses)++;
  }
  // Both outcomes occur, so neither answer is returned blindly.
  EXPECT_GT(wins, 5);
  EXPECT_GT(losses, 5);
}

// Quikquax turns place several stones, so one player acts several times in a row: values
// are for the player to move, not by ply parity. Random 4x4 positions 5 to 7 plies in.
TEST(Solve, PlayerMovingTwiceAgreesWithMinimax) {
  const GameSpec spec{Variant::kQuikQuax, 4, false};
  ProofSearch search(spec, kMemory);
  Rng rng(31);
  int positions = 0, repeats = 0;
  for (int i = 0; i < 60; ++i) {
    auto s = random_position(spec, 5 + i % 3, rng);
    if (!s) continue;
    ++positions;
    std::vector<int> actions;
    s->legal_actions(&actions);
    auto after = s->clone();
    after->apply(actions[0]);
    if (!after->is_over() && after->to_move() == s->to_move()) ++repeats;
    const Solution sol = solve_moves(search, *s, false);
    ASSERT_EQ(sol.value, as_value(minimax(*s))) << "position " << i;
    ASSERT_EQ(sol.winning_moves, minimax_winning_moves(*s)) << "position " << i;
  }
  EXPECT_GT(positions, 30);
  EXPECT_GT(repeats, 10);  // the premise: many positions where the mover moves again
}

// A table of a few buckets forgets almost everything; the answers must not change.
TEST(Solve, TinyTableGivesTheSameValues) {
  const GameSpec spec{Variant::kQuax, 4, false};
  ProofSearch big(spec, kMemory), tiny(spec, 1024);
  Rng rng(77);
  for (int i = 0; i < 25; ++i) {
    auto s = random_position(spec, 8, rng);
    if (!s) continue;
    ASSERT_EQ(solve_value(tiny, *s), solve_value(big, *s)) << "position " << i;
  }
}

// Each of the 8 symmetries maps a position to one of the same value for the player to move
// and maps its winning moves onto the image's winning moves: all 3x3 positions after one
// move (swap still possible) and random 4x4 positions.
void expect_invariant(ProofSearch& search, const GameState& s, const std::string& what) {
  const auto& square = static_cast<const SquareGame&>(s);
  const Solution sol = solve_moves(search, s, false);
  ASSERT_NE(sol.value, GameValue::kUnknown);
  for (int k = 1; k < kNumSymmetries; ++k) {
    const Symmetry g = Symmetry::from_index(k);
    auto image = transform_position(g, square);
    const Solution isol = solve_moves(search, *image, false);
    ASSERT_EQ(isol.value, sol.value) << symmetry_name(g) << " of " << what;
    // Swap maps to swap; cells and links map as the board does.
    std::vector<int> mapped;
    for (int a : sol.winning_moves) mapped.push_back(map_square_action(g, s.size(), a));
    std::sort(mapped.begin(), mapped.end());
    ASSERT_EQ(isol.winning_moves, mapped) << symmetry_name(g) << " of " << what;
  }
}

TEST(Solve, ValuesAndWinningMovesAreInvariantUnderTheSymmetries) {
  {
    const GameSpec spec{Variant::kQuax, 3, true};
    ProofSearch search(spec, kMemory);
    auto start = new_game(spec);
    std::vector<int> first;
    start->legal_actions(&first);
    for (int a : first) {
      auto s = start->clone();
      s->apply(a);
      expect_invariant(search, *s, "3x3 " + start->action_to_string(a));
    }
  }
  const GameSpec spec{Variant::kQuax, 4, false};
  ProofSearch search(spec, kMemory);
  Rng rng(5);
  int positions = 0;
  for (int i = 0; i < 40 && positions < 12; ++i) {
    auto s = random_position(spec, 8 + i % 3, rng);
    if (!s) continue;
    ++positions;
    expect_invariant(search, *s, "4x4 position " + std::to_string(i));
  }
  EXPECT_GE(positions, 10);
}

// Hex's rhombus: the half turn, and the two diagonal reflections with the colours and the mover
// exchanged, give one key and one value (for the player to move) on random 4x4 positions; a
// reflection that kept the colours would change the value.
TEST(Solve, HexImagesShareTheirKeyAndValue) {
  const GameSpec spec{Variant::kHex, 4, false};
  ProofSearch search(spec, kMemory);
  Rng rng(21);
  int positions = 0, kept_colours_differs = 0;
  for (int i = 0; i < 60; ++i) {
    auto s = random_position(spec, 2 + i % 6, rng);
    if (!s) continue;
    ++positions;
    const auto& game = static_cast<const HexGame&>(*s);
    const GameValue value = solve_value(search, *s);
    for (int image = 1; image < 5; ++image) {
      const bool turn = image == 1 || image == 3, reflect = image >= 2, exchange = image == 2 || image == 3;
      std::vector<Player> stones(16);
      for (int c = 0; c < 16; ++c) {
        int u = c % 4, v = c / 4;
        if (turn) u = 3 - u, v = 3 - v;
        if (reflect) std::swap(u, v);
        const Player p = game.stone(c);
        stones[static_cast<size_t>(v * 4 + u)] = exchange && p != Player::kNone ? opponent(p) : p;
      }
      const auto t = HexGame::from_position(spec, stones, exchange ? opponent(s->to_move()) : s->to_move(),
                                            s->move_number());
      if (image == 4) {  // the reflection without the exchange: no symmetry
        if (!t->is_over() && solve_value(search, *t) != value) ++kept_colours_differs;
        continue;
      }
      EXPECT_EQ(symmetric_key(*t), symmetric_key(*s)) << "image " << image << "\n" << s->board_text();
      EXPECT_EQ(solve_value(search, *t), value) << "image " << image << "\n" << s->board_text();
    }
  }
  EXPECT_GE(positions, 50);
  EXPECT_GT(kept_colours_differs, 0);
}

// With symmetry classes the same moves come out, from fewer searches. Quax 3x3: corner, centre,
// north/south edge, west/east edge (the goal-keeping symmetries keep the mover, Black, and
// cannot map b1 onto a2). Hex 5x5: the half turn, the centre its own image.
TEST(Solve, SymmetryClassesGiveTheSameWinningMoves) {
  struct Case {
    GameSpec spec;
    int classes;
  };
  for (const Case& c : {Case{GameSpec{Variant::kQuax, 3, false}, 4}, Case{GameSpec{Variant::kHex, 5, false}, 13}}) {
    ProofSearch search(c.spec, kMemory);
    auto start = new_game(c.spec);
    const Solution plain = solve_moves(search, *start, false);
    const Solution classes = solve_moves(search, *start, true);
    EXPECT_EQ(classes.value, plain.value);
    EXPECT_EQ(classes.winning_moves, plain.winning_moves);
    EXPECT_EQ(plain.moves_solved, c.spec.size * c.spec.size);
    EXPECT_EQ(classes.moves_solved, c.classes);
  }
}

// Two threads, each with its own search, share the moves and give one search's answer: on
// random quax 4x4 and hex 5x5 positions, with and without symmetry classes, every move solved
// by one thread or the other.
TEST(Solve, TwoThreadsGiveOneSearchsWinningMoves) {
  Rng rng(9);
  for (const GameSpec spec : {GameSpec{Variant::kQuax, 4, false}, GameSpec{Variant::kHex, 5, false}}) {
    ProofSearch one(spec, kMemory), first(spec, kMemory), second(spec, kMemory);
    const std::vector<ProofSearch*> two = {&first, &second};
    int positions = 0, winning = 0;
    for (int i = 0; i < 40 && positions < 8; ++i) {
      auto s = random_position(spec, 4 + i % 4, rng);
      if (!s) continue;
      ++positions;
      for (bool symmetry : {false, true}) {
        const Solution alone = solve_moves(one, *s, symmetry);
        std::vector<int> reported;  // each searched move heard once
        const Solution shared =
            solve_moves(two, *s, symmetry, [&](int action, GameValue) { reported.push_back(action); });
        std::sort(reported.begin(), reported.end());
        EXPECT_EQ(std::adjacent_find(reported.begin(), reported.end()), reported.end());
        EXPECT_EQ(static_cast<int>(reported.size()), shared.moves_solved);
        EXPECT_EQ(shared.value, alone.value) << s->board_text();
        EXPECT_EQ(shared.winning_moves, alone.winning_moves) << s->board_text();
        EXPECT_EQ(shared.moves_solved, alone.moves_solved);
        EXPECT_TRUE(shared.unknown_moves.empty());
        winning += static_cast<int>(alone.winning_moves.size());
      }
    }
    EXPECT_GE(positions, 6);
    EXPECT_GT(winning, 0);
    // (Which thread takes which move is the scheduler's: on a busy machine the first may take
    // them all, so nothing here asks the second to have searched.)
  }
}

// The search tests' positions (tests/mcts_search_test.cpp).
// Black to move on 5x5: a black column c1..c4, white a1..a3. Black wins at once.
std::unique_ptr<SquareGame> black_wins_in_one(Variant v) {
  const GameSpec spec{v, 5, false};
  std::vector<Player> stones(25, Player::kNone);
  for (int r = 0; r < 4; ++r) stones[r * 5 + 2] = Player::kBlack;
  for (int r = 0; r < 3; ++r) stones[r * 5 + 0] = Player::kWhite;
  return SquareGame::from_position(spec, stones, {}, Player::kBlack, 7);
}

// Black to move on 5x5; White has a1..d3 and wins at e3 unless Black takes it.
std::unique_ptr<SquareGame> white_threatens(Variant v) {
  const GameSpec spec{v, 5, false};
  std::vector<Player> stones(25, Player::kNone);
  for (int c = 0; c < 4; ++c) stones[2 * 5 + c] = Player::kWhite;
  for (int c : {0, 1, 3, 4}) stones[4 * 5 + c] = Player::kBlack;
  return SquareGame::from_position(spec, stones, {}, Player::kBlack, 8);
}

class EveryVariant : public ::testing::TestWithParam<Variant> {};

TEST_P(EveryVariant, FindsTheWinInOne) {
  auto pos = black_wins_in_one(GetParam());
  ProofSearch search(pos->spec(), kMemory);
  const Solution sol = solve_moves(search, *pos, false);
  EXPECT_EQ(sol.value, GameValue::kWin);
  const int c5 = pos->cell_action(2, 4);
  EXPECT_NE(std::find(sol.winning_moves.begin(), sol.winning_moves.end(), c5), sol.winning_moves.end());
  for (int a : sol.winning_moves) {  // every listed move is a win for Black
    auto after = pos->clone();
    after->apply(a);
    EXPECT_EQ(value_for(search, *after, Player::kBlack), GameValue::kWin) << pos->action_to_string(a);
  }
}

INSTANTIATE_TEST_SUITE_P(Square, EveryVariant,
                         ::testing::Values(Variant::kQuax, Variant::kLink, Variant::kQuickway, Variant::kCrossway,
                                           Variant::kQuadrex),
                         [](const auto& info) { return std::string(variant_info(info.param).name); });

// Black must take e3: every other move loses to it. The search test expects e3 from MCTS;
// the solver also says whether e3 itself wins.
TEST(Solve, EveryMoveButTheBlockLosesToTheThreat) {
  for (Variant v : {Variant::kQuax, Variant::kLink}) {
    auto pos = white_threatens(v);
    ProofSearch search(pos->spec(), kMemory);
    const Solution sol = solve_moves(search, *pos, false);
    const int e3 = pos->cell_action(4, 2);
    for (int a : sol.winning_moves) EXPECT_EQ(a, e3) << pos->action_to_string(a);
    auto after = pos->clone();
    after->apply(e3);
    EXPECT_EQ(value_for(search, *after, Player::kBlack) == GameValue::kWin, sol.value == GameValue::kWin);
  }
}

TEST(Solve, PassedDeadlineGivesUnknown) {
  const GameSpec spec{Variant::kQuax, 6, false};
  ProofSearch search(spec, kMemory);
  search.set_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
  auto start = new_game(spec);
  EXPECT_EQ(solve_value(search, *start), GameValue::kUnknown);
  EXPECT_TRUE(search.stopped());
}

}  // namespace
}  // namespace quax
