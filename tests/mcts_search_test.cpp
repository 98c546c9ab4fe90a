// The search tree: wins found, threats stopped, budgets kept, Gumbel schedule, exact
// terminals, determinism and tree reuse (between moves of one game, and for a player that
// sees only positions).
#include <gtest/gtest.h>

#include <map>
#include <memory>

#include "env/square_game.h"
#include "mcts/search_agent.h"
#include "mcts/search_tree.h"
#include "mcts/simple_evaluators.h"

namespace quax {
namespace {

void search(SearchTree& tree, Evaluator& ev, const SearchSettings& s, bool noise, Rng& rng) {
  EvaluationBatch batch;
  run_search(tree, ev, s, noise, rng, &batch);
}

int child_visit_sum(const SearchTree& tree) {
  int sum = 0;
  for (int i = 0; i < tree.root().num_children; ++i) sum += tree.node(tree.root().first_child + i).visits;
  return sum;
}

// Black to move on 5x5: a black column on c1..c4 (one stone short of north), white
// stones a1..a3. Black wins by completing the column (or, where diagonals connect, next to it).
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

TEST_P(EveryVariant, RolloutSearchFindsTheWinInOne) {
  auto pos = black_wins_in_one(GetParam());
  ASSERT_FALSE(pos->is_over());
  SearchSettings s;
  s.simulations = 400;
  SearchAgent agent("mcts", std::make_shared<RolloutEvaluator>(1, 7), s, 3);
  const int a = agent.choose_action(*pos);
  auto after = pos->clone();
  after->apply(a);
  EXPECT_EQ(after->outcome(), Outcome::kBlackWins) << "played " << pos->action_to_string(a);
}

INSTANTIATE_TEST_SUITE_P(Square, EveryVariant,
                         ::testing::Values(Variant::kQuax, Variant::kLink, Variant::kQuickway, Variant::kCrossway,
                                           Variant::kQuadrex),
                         [](const auto& info) { return std::string(variant_info(info.param).name); });

class OrthogonalThreat : public ::testing::TestWithParam<Variant> {};

// In quax and link White's only winning reply is e3 (a diagonal needs a stone and a link),
// so Black must take it. (In quadrex and the auto-linking variants this position is lost anyway.)
TEST_P(OrthogonalThreat, RolloutSearchStopsTheThreat) {
  auto pos = white_threatens(GetParam());
  ASSERT_FALSE(pos->is_over());
  const int block = pos->cell_action(4, 2);
  {  // The premise: e3 wins for White.
    auto w = pos->clone();
    w->apply(pos->cell_action(0, 3));  // a black move elsewhere (a4)
    ASSERT_TRUE(w->is_legal(block));
    w->apply(block);
    ASSERT_EQ(w->outcome(), Outcome::kWhiteWins);
  }
  SearchSettings s;
  s.simulations = 3000;
  SearchAgent agent("mcts", std::make_shared<RolloutEvaluator>(1, 11), s, 5);
  EXPECT_EQ(pos->action_to_string(agent.choose_action(*pos)), "e3");
}

INSTANTIATE_TEST_SUITE_P(Square, OrthogonalThreat, ::testing::Values(Variant::kQuax, Variant::kLink),
                         [](const auto& info) { return std::string(variant_info(info.param).name); });

// Fails the test if the search ever asks it to evaluate a finished game.
class CheckingEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* logits, float* values) override {
    for (const GameState* s : states) EXPECT_FALSE(s->is_over());
    calls += static_cast<int>(states.size());
    inner.evaluate(states, planes, masks, logits, values);
  }
  bool needs_planes() const override { return false; }
  UniformEvaluator inner;
  int calls = 0;
};

TEST(SearchTree, TerminalChildrenGetExactValuesWithoutTheEvaluator) {
  auto pos = black_wins_in_one(Variant::kQuax);
  SearchTree tree(pos->spec());
  tree.set_root(*pos);
  CheckingEvaluator ev;
  SearchSettings s;
  s.simulations = 300;
  Rng rng(1);
  search(tree, ev, s, false, rng);
  const int win = pos->cell_action(2, 4);
  bool found = false;
  for (int i = 0; i < tree.root().num_children; ++i) {
    const auto& c = tree.node(tree.root().first_child + i);
    if (c.action != win) continue;
    found = true;
    EXPECT_EQ(c.status, SearchTree::kTerminal);
    EXPECT_EQ(c.raw_value, 1.0f);
    ASSERT_GT(c.visits, 0);
    EXPECT_EQ(c.value_sum, static_cast<double>(c.visits));  // every visit backed up exactly +1
  }
  EXPECT_TRUE(found);
  EXPECT_LT(ev.calls, 1 + s.simulations);  // terminal visits did not reach the evaluator
  EXPECT_EQ(tree.choose_action(0.0f, rng), win);
  EXPECT_GT(tree.root_value(), 0.5f);
}

class Budget : public ::testing::TestWithParam<std::tuple<RootRule, int>> {};

TEST_P(Budget, RootVisitsSumToTheBudget) {
  const auto [rule, leaves] = GetParam();
  const GameSpec spec{Variant::kQuax, 7, true};
  auto state = new_game(spec);
  Rng play(3);
  for (int i = 0; i < 6; ++i) {
    std::vector<int> legal;
    state->legal_actions(&legal);
    state->apply(legal[play.below(static_cast<uint32_t>(legal.size()))]);
  }
  UniformEvaluator ev;
  for (int sims : {1, 17, 256, 1000}) {
    SearchTree tree(spec);
    tree.set_root(*state);
    SearchSettings s;
    s.root_rule = rule;
    s.simulations = sims;
    s.leaves_per_batch = leaves;
    s.dirichlet_fraction = 0.25f;
    Rng rng(9);
    search(tree, ev, s, true, rng);
    EXPECT_EQ(child_visit_sum(tree), sims);
    EXPECT_EQ(tree.root().visits, sims + 1);
    EXPECT_EQ(tree.simulations_done(), sims);
    std::vector<std::pair<int, float>> policy;
    tree.policy_target(&policy);
    double total = 0.0;
    for (const auto& [a, p] : policy) total += p;
    EXPECT_NEAR(total, 1.0, 1e-5);
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, Budget,
                         ::testing::Combine(::testing::Values(RootRule::kPuct, RootRule::kGumbel),
                                            ::testing::Values(1, 8)));

TEST(Gumbel, SequentialHalvingScheduleMatchesMctx) {
  // Worked by hand from mctx's get_sequence_of_considered_visits(4, 16).
  EXPECT_EQ(SearchTree::considered_visits(4, 16),
            (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
  EXPECT_EQ(SearchTree::considered_visits(1, 4), (std::vector<int>{0, 1, 2, 3}));
  // m = n: every action once.
  EXPECT_EQ(SearchTree::considered_visits(5, 5), (std::vector<int>{0, 0, 0, 0, 0}));
}

TEST(Gumbel, BudgetEqualToTheLegalActionsVisitsEachOnce) {
  const GameSpec spec{Variant::kQuax, 5, true};
  auto state = new_game(spec);
  state->apply(12);
  state->apply(7);  // no swap left: cells and no links yet
  std::vector<int> legal;
  state->legal_actions(&legal);
  SearchTree tree(spec);
  tree.set_root(*state);
  SearchSettings s;
  s.root_rule = RootRule::kGumbel;
  s.simulations = static_cast<int>(legal.size());
  s.gumbel_m = static_cast<int>(legal.size());
  RolloutEvaluator ev(1, 4);
  Rng rng(2);
  search(tree, ev, s, true, rng);
  ASSERT_EQ(tree.root().num_children, static_cast<int>(legal.size()));
  for (int i = 0; i < tree.root().num_children; ++i) EXPECT_EQ(tree.node(tree.root().first_child + i).visits, 1);
}

TEST(Gumbel, ImprovedPolicyPrefersTheWinningMove) {
  auto pos = black_wins_in_one(Variant::kQuax);
  SearchTree tree(pos->spec());
  tree.set_root(*pos);
  SearchSettings s;
  s.root_rule = RootRule::kGumbel;
  s.simulations = 64;
  s.gumbel_m = 32;
  RolloutEvaluator ev(32, 4);  // one playout per leaf saturates many Q at +1
  Rng rng(5);
  search(tree, ev, s, true, rng);
  std::vector<std::pair<int, float>> policy;
  tree.policy_target(&policy);
  const int win_net = pos->to_net_action(pos->cell_action(2, 4));
  float best = 0.0f, win_p = 0.0f;
  for (const auto& [a, p] : policy) {
    best = std::max(best, p);
    if (a == win_net) win_p = p;
  }
  EXPECT_EQ(win_p, best);
  EXPECT_GT(win_p, 0.5f);
  EXPECT_EQ(tree.choose_action(0.0f, rng), pos->cell_action(2, 4));
}

std::map<int, int> visits_after(RootRule rule, uint64_t seed) {
  const GameSpec spec{Variant::kQuickway, 6, true};
  auto state = new_game(spec);
  state->apply(14);
  SearchTree tree(spec);
  tree.set_root(*state);
  SearchSettings s;
  s.root_rule = rule;
  s.simulations = 300;
  s.leaves_per_batch = 4;
  s.dirichlet_fraction = 0.25f;
  RolloutEvaluator ev(2, seed);
  Rng rng(seed);
  search(tree, ev, s, true, rng);
  std::map<int, int> out;
  for (int i = 0; i < tree.root().num_children; ++i) {
    const auto& c = tree.node(tree.root().first_child + i);
    out[c.action] = c.visits;
  }
  out[-1] = tree.choose_action(1.0f, rng);
  return out;
}

TEST(SearchTree, SameSeedSameSearch) {
  for (RootRule rule : {RootRule::kPuct, RootRule::kGumbel}) {
    EXPECT_EQ(visits_after(rule, 42), visits_after(rule, 42));
    EXPECT_NE(visits_after(rule, 42), visits_after(rule, 43));
  }
}

TEST(SearchTree, ReuseKeepsTheSubtree) {
  const GameSpec spec{Variant::kQuax, 5, true};
  auto state = new_game(spec);
  SearchTree tree(spec);
  tree.set_root(*state);
  SearchSettings s;
  s.simulations = 500;
  RolloutEvaluator ev(1, 8);
  Rng rng(8);
  search(tree, ev, s, false, rng);
  const int a = tree.choose_action(0.0f, rng);
  int child_visits = 0;
  double child_sum = 0.0;
  for (int i = 0; i < tree.root().num_children; ++i) {
    const auto& c = tree.node(tree.root().first_child + i);
    if (c.action == a) child_visits = c.visits, child_sum = c.value_sum;
  }
  ASSERT_GT(child_visits, 1);
  state->apply(a);
  tree.advance(a, *state, true);
  EXPECT_EQ(tree.root().visits, child_visits);
  EXPECT_EQ(child_visit_sum(tree), child_visits - 1);
  EXPECT_DOUBLE_EQ(tree.root().value_sum, -child_sum);  // now from White's (the new mover's) view
  // A further search adds only what the budget still allows.
  search(tree, ev, s, false, rng);
  EXPECT_EQ(child_visit_sum(tree), std::max(s.simulations, child_visits - 1));
  // Without keep, the tree restarts.
  const int b = tree.choose_action(0.0f, rng);
  state->apply(b);
  tree.advance(b, *state, false);
  EXPECT_EQ(tree.root().visits, 0);
  EXPECT_EQ(tree.tree_size(), 1);
}

// The root's child (or, from `node`, the node's child) with the most visits; -1 when none was visited.
int most_visited_child(const SearchTree& tree, int node) {
  const auto& n = tree.node(node);
  int best = -1;
  for (int i = 0; i < n.num_children; ++i) {
    const int c = n.first_child + i;
    if (tree.node(c).visits > 0 && (best < 0 || tree.node(c).visits > tree.node(best).visits)) best = c;
  }
  return best;
}

// A player that sees positions (the GTP engine, an Agent) finds the last search's subtree
// below the position it is asked about: its own move and the reply.
TEST(SearchTree, RerootKeepsTheSubtreeOfThePositionReached) {
  for (const GameSpec spec : {GameSpec{Variant::kQuax, 7, true}, GameSpec{Variant::kHex, 7, false}}) {
    auto state = new_game(spec);
    SearchSettings s;
    s.simulations = 800;
    // The same search each time (same seeds): one tree per case below.
    auto searched = [&] {
      auto tree = std::make_unique<SearchTree>(spec);
      tree->set_root(*state);
      RolloutEvaluator ev(1, 9);
      Rng rng(9);
      search(*tree, ev, s, false, rng);
      return tree;
    };
    auto tree = searched();
    const int mine = most_visited_child(*tree, 0);
    const int reply = most_visited_child(*tree, mine);
    ASSERT_GE(reply, 0);
    const int reply_visits = tree->node(reply).visits;
    ASSERT_GT(reply_visits, 2);
    auto reached = state->clone();
    reached->apply(tree->node(mine).action);
    reached->apply(tree->node(reply).action);
    // Too deep for the plies allowed: a fresh root.
    {
      auto other = searched();
      EXPECT_FALSE(other->reroot(*reached, true, 1));
      EXPECT_EQ(other->tree_size(), 1);
      EXPECT_EQ(other->root().visits, 0);
    }
    // A reply the search never visited: nothing to keep.
    {
      auto other = searched();
      int first = -1, unvisited = -1;
      const auto& root = other->root();
      for (int j = 0; j < root.num_children && unvisited < 0; ++j) {
        const auto& m = other->node(root.first_child + j);
        for (int i = 0; i < m.num_children && unvisited < 0; ++i)
          if (other->node(m.first_child + i).visits == 0) first = m.action, unvisited = other->node(m.first_child + i).action;
      }
      ASSERT_GE(unvisited, 0);
      auto elsewhere = state->clone();
      elsewhere->apply(first);
      elsewhere->apply(unvisited);
      EXPECT_FALSE(other->reroot(*elsewhere, true));
      EXPECT_EQ(other->tree_size(), 1);
      EXPECT_EQ(other->root_state().position_key(), elsewhere->position_key());
    }
    ASSERT_TRUE(tree->reroot(*reached, true));
    EXPECT_EQ(tree->root().visits, reply_visits);
    EXPECT_EQ(child_visit_sum(*tree), reply_visits - 1);
    EXPECT_EQ(tree->root_state().position_key(), reached->position_key());
    // The same position again keeps everything.
    ASSERT_TRUE(tree->reroot(*reached, true));
    EXPECT_EQ(tree->root().visits, reply_visits);
    // A further search adds only what the budget still allows.
    RolloutEvaluator ev(1, 10);
    Rng rng(10);
    search(*tree, ev, s, false, rng);
    EXPECT_EQ(child_visit_sum(*tree), std::max(s.simulations, reply_visits - 1));
    EXPECT_EQ(tree->simulations_done(), std::max(0, s.simulations - (reply_visits - 1)));
  }
}

// An agent asked about the position after its move and the expected reply searches only
// what its budget lacks; without reuse it searches the whole budget again.
TEST(SearchAgent, KeepsItsTreeBetweenMovesWhenItReusesTrees) {
  const GameSpec spec{Variant::kHex, 6, false};
  for (const bool reuse : {true, false}) {
    SearchSettings s;
    s.simulations = 600;
    s.reuse_tree = reuse;
    s.stop_when_settled = false;  // the whole budget at every move
    SearchAgent agent("mcts", std::make_shared<RolloutEvaluator>(1, 5), s, 5);
    auto state = new_game(spec);
    const int mine = agent.choose_action(*state);
    const SearchTree& tree = *agent.last_tree();
    int mine_node = -1;
    for (int i = 0; i < tree.root().num_children; ++i)
      if (tree.node(tree.root().first_child + i).action == mine) mine_node = tree.root().first_child + i;
    const int reply = most_visited_child(tree, mine_node);
    ASSERT_GE(reply, 0);
    const int kept = tree.node(reply).visits;
    ASSERT_GT(kept, 2);
    state->apply(mine);
    state->apply(tree.node(reply).action);
    agent.choose_action(*state);
    EXPECT_EQ(agent.last_tree()->simulations_done(), reuse ? s.simulations - (kept - 1) : s.simulations);
  }
}

// A search that stops once its move is settled plays the move of the full search, in every
// one of hundreds of random positions, and does stop early in many of them. The evaluator
// answers the same calls in the same order, so the stopped search is the full one cut
// short: its root visits never exceed the full search's.
TEST(SearchTree, StoppingWhenSettledPlaysTheFullSearchsMove) {
  const GameSpec spec{Variant::kHex, 7, false};
  SearchSettings s;
  s.simulations = 300;
  Rng positions(21);
  int stopped_early = 0, simulations_saved = 0;
  constexpr int kPositions = 300;
  for (int p = 0; p < kPositions; ++p) {
    auto state = new_game(spec);
    std::vector<int> legal;
    const int plies = static_cast<int>(positions.below(30));
    for (int i = 0; i < plies && !state->is_over(); ++i) {
      state->legal_actions(&legal);
      state->apply(legal[positions.below(static_cast<uint32_t>(legal.size()))]);
    }
    if (state->is_over()) continue;
    SearchTree full(spec), settled(spec);
    full.set_root(*state);
    settled.set_root(*state);
    RolloutEvaluator full_ev(1, 100 + p), settled_ev(1, 100 + p);
    Rng full_rng(p), settled_rng(p);
    EvaluationBatch batch;
    run_search(full, full_ev, s, false, full_rng, &batch);
    run_search(settled, settled_ev, s, false, settled_rng, &batch, 0, /*stop_when_settled=*/true);
    ASSERT_EQ(full.simulations_done(), s.simulations);
    EXPECT_EQ(settled.choose_action(0.0f, settled_rng), full.choose_action(0.0f, full_rng))
        << "position " << p << ", stopped after " << settled.simulations_done();
    for (int i = 0; i < full.root().num_children; ++i)
      ASSERT_LE(settled.node(settled.root().first_child + i).visits, full.node(full.root().first_child + i).visits);
    if (settled.simulations_done() < s.simulations) {
      ++stopped_early;
      simulations_saved += s.simulations - settled.simulations_done();
      EXPECT_TRUE(settled.move_settled(settled.simulations_left()));
    }
  }
  EXPECT_GT(stopped_early, kPositions / 4);
  EXPECT_GT(simulations_saved, 0);
}

// Gumbel's sequential halving decides at the end: its move is never settled early.
TEST(SearchTree, AGumbelMoveIsNeverSettledEarly) {
  const GameSpec spec{Variant::kHex, 5, false};
  SearchSettings s;
  s.root_rule = RootRule::kGumbel;
  s.simulations = 100;
  SearchTree tree(spec);
  tree.set_root(*new_game(spec));
  RolloutEvaluator ev(1, 3);
  Rng rng(3);
  EvaluationBatch batch;
  run_search(tree, ev, s, false, rng, &batch, 0, /*stop_when_settled=*/true);
  EXPECT_EQ(tree.simulations_done(), s.simulations);
  EXPECT_FALSE(tree.move_settled(0));
}

}  // namespace
}  // namespace quax
