// Turns of several actions: the searches back values up by the player to move at each node,
// so a win that takes two actions of one turn is found (a search that assumed alternating
// plies would treat the second piece as the opponent's choice and avoid it).
#include <gtest/gtest.h>

#include <memory>

#include "env/stymie_game.h"
#include "mcts/baseline_agents.h"
#include "mcts/selfplay_driver.h"
#include "mcts/simple_evaluators.h"

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

// Self-play of each multi-action variant through the batched driver (rollout values, tree
// reuse across the actions of a turn): every record replays, names the player to move at
// each action, holds runs of actions by one player, ends with the replay's own winner, and
// its policy targets cover only legal network-frame actions.
TEST(MultiActionSearch, DriverRecordsReplayWithTheMoverOfEveryAction) {
  for (const GameSpec spec : {GameSpec{Variant::kQuikQuax, 6, false}, GameSpec{Variant::kTorax, 4, false},
                              GameSpec{Variant::kStymie, 4, true}}) {
    SCOPED_TRACE(describe(spec));
    DriverOptions o;
    o.spec = spec;
    o.parallel_games = 4;
    o.games_to_play = 8;
    o.players[0].search.simulations = 24;
    o.players[0].search.reuse_tree = true;
    o.players[0].record_policy = true;
    o.players[0].temperature_moves = 1000;  // sampled moves: the games differ
    RolloutEvaluator ev(1, 7);
    GameDriver driver(o, {&ev});
    int games = 0, repeats = 0;
    driver.run(8, [&](GameRecord&& g) {
      ++games;
      auto s = new_game(spec);
      std::vector<uint8_t> mask(s->num_actions());
      for (size_t i = 0; i < g.moves.size(); ++i) {
        const MoveRecord& m = g.moves[i];
        ASSERT_EQ(m.mover, s->to_move()) << "ply " << i;
        s->net_legal_mask(mask.data());
        for (const auto& [a, p] : m.policy) ASSERT_TRUE(mask[a]) << "policy on an illegal action, ply " << i;
        ASSERT_EQ(s->why_illegal(m.action), "");
        s->apply(m.action);
        if (i > 0 && g.moves[i - 1].mover == m.mover) ++repeats;
      }
      EXPECT_TRUE(s->is_over());
      EXPECT_EQ(g.outcome, s->outcome());
    });
    EXPECT_EQ(games, 8);
    EXPECT_GT(repeats, 8);
  }
}

}  // namespace
}  // namespace quax
