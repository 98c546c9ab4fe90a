// Turns of several actions: the searches back values up by the player to move at each node,
// so a win that takes two actions of one turn is found (a search that assumed alternating
// plies would treat the second piece as the opponent's choice and avoid it).
#include <gtest/gtest.h>

#include <memory>

#include "env/stymie_game.h"
#include "mcts/baseline_agents.h"

namespace quax {
namespace {

// Stymie 3x3, Vert (black) to move, no triple: Vert has b1 and c3, Horz a2 and c2 and
// threatens b2. Vert wins only with the octagon b2 and the square b2+ (joining b2 to c3) in
// one turn, in either order.
std::unique_ptr<StymieGame> two_piece_win() {
  const GameSpec spec{Variant::kStymie, 3, false};
  std::vector<Player> pieces(18, Player::kNone);
  auto at = [](int c, int r) { return r * 3 + c; };
  pieces[at(1, 0)] = pieces[at(2, 2)] = Player::kBlack;
  pieces[at(0, 1)] = pieces[at(2, 1)] = Player::kWhite;
  return StymieGame::from_position(spec, pieces, Player::kBlack);
}

TEST(MultiActionSearch, ThePositionNeedsBothPiecesOfOneTurn) {
  auto s = two_piece_win();
  ASSERT_FALSE(s->is_over());
  std::vector<int> first, second;
  s->legal_actions(&first);
  int winning_turns = 0;
  for (int a : first) {
    auto t = s->clone();
    t->apply(a);
    EXPECT_FALSE(t->is_over()) << "one piece wins: " << s->action_to_string(a);
    if (t->to_move() != Player::kBlack) continue;
    t->legal_actions(&second);
    for (int b : second) {
      auto u = t->clone();
      u->apply(b);
      winning_turns += u->outcome() == Outcome::kBlackWins;
    }
  }
  EXPECT_EQ(winning_turns, 2);  // b2 then b2+, b2+ then b2
}

void expect_wins_within_the_turn(const std::string& player) {
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    std::string err;
    auto agent = make_baseline_agent(player, seed, &err);
    ASSERT_TRUE(agent) << err;
    auto s = two_piece_win();
    for (int i = 0; i < 2 && !s->is_over(); ++i) {
      ASSERT_EQ(s->to_move(), Player::kBlack) << player << " seed " << seed << " ended the turn early";
      s->apply(agent->choose_action(*s));
    }
    EXPECT_EQ(s->outcome(), Outcome::kBlackWins) << player << " seed " << seed;
  }
}

TEST(MultiActionSearch, PuctWithRolloutsFindsTheTwoPieceWin) { expect_wins_within_the_turn("mcts:300"); }

TEST(MultiActionSearch, UctFindsTheTwoPieceWin) { expect_wins_within_the_turn("uct:1000"); }

}  // namespace
}  // namespace quax
