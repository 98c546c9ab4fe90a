// The one batched-evaluation step: leaves of several trees in one evaluator call reach the
// tree that asked for them (each tree searches exactly as it does alone), and positions of
// no tree get what the evaluator gives them directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "env/rng.h"
#include "mcts/evaluation_batch.h"
#include "mcts/search_agent.h"
#include "random_plies.h"

namespace quax {
namespace {

// Outputs that depend on the position's planes only, different for nearly every position, so
// an output delivered to the wrong leaf changes the search.
class PlanesHashEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* logits, float* values) override {
    ++calls;
    max_batch = std::max(max_batch, static_cast<int>(states.size()));
    const size_t per = static_cast<size_t>(states[0]->num_planes()) * states[0]->size() * states[0]->size();
    const int a = states[0]->num_actions();
    for (size_t b = 0; b < states.size(); ++b) {
      uint64_t h = 1;
      for (size_t i = 0; i < per; ++i) h = mix64(h + (planes[b * per + i] != 0.0f ? i + 1 : 0));
      for (int x = 0; x < a; ++x) {
        EXPECT_EQ(masks[b * a + x] != 0, states[b]->is_legal(states[b]->from_net_action(x)));
        logits[b * a + x] = static_cast<float>(mix64(h + x) % 1000) / 250.0f;
      }
      values[b] = static_cast<float>(h % 2001) / 1000.0f - 1.0f;
    }
  }
  int calls = 0, max_batch = 0;
};

TEST(EvaluationBatch, TreesSharingOneCallSearchAsTheyDoAlone) {
  const GameSpec spec{Variant::kQuax, 6, false};
  SearchSettings s;
  s.simulations = 120;
  s.leaves_per_batch = 4;
  std::vector<std::unique_ptr<GameState>> roots;
  for (int i = 0; i < 3; ++i) roots.push_back(after_random_plies(spec, 2 * i + 1, 40 + i));

  // Alone: one run_search per tree.
  std::vector<std::unique_ptr<SearchTree>> alone;
  for (const auto& r : roots) {
    alone.push_back(std::make_unique<SearchTree>(spec));
    alone.back()->set_root(*r);
    PlanesHashEvaluator ev;
    Rng rng(9);
    EvaluationBatch batch;
    run_search(*alone.back(), ev, s, false, rng, &batch);
  }

  // Together (run_searches): every round, the leaves of all unfinished trees in one call.
  std::vector<std::unique_ptr<SearchTree>> together;
  std::vector<SearchTree*> trees;
  for (const auto& r : roots) {
    together.push_back(std::make_unique<SearchTree>(spec));
    together.back()->set_root(*r);
    trees.push_back(together.back().get());
  }
  PlanesHashEvaluator shared;
  EvaluationBatch batch;
  Rng rng(9);
  run_searches(trees, shared, s, false, rng, &batch);
  EXPECT_GT(shared.max_batch, 4) << "the trees never shared a call";

  for (size_t t = 0; t < roots.size(); ++t) {
    const SearchTree& a = *alone[t];
    const SearchTree& b = *together[t];
    ASSERT_EQ(a.root().num_children, b.root().num_children);
    EXPECT_EQ(a.tree_size(), b.tree_size()) << "tree " << t;
    EXPECT_FLOAT_EQ(a.root_value(), b.root_value()) << "tree " << t;
    for (int i = 0; i < a.root().num_children; ++i)
      EXPECT_EQ(a.node(a.root().first_child + i).visits, b.node(b.root().first_child + i).visits)
          << "tree " << t << " child " << i;
  }
}

TEST(EvaluationBatch, PositionsGetTheEvaluatorsOwnOutput) {
  const GameSpec spec{Variant::kQuax, 5, true};
  std::vector<std::unique_ptr<GameState>> positions;
  for (int i = 0; i < 5; ++i) positions.push_back(after_random_plies(spec, i * 3, 7 + i));
  const int a = positions[0]->num_actions();
  const size_t per = static_cast<size_t>(positions[0]->num_planes()) * spec.size * spec.size;

  // Directly: one position per call, encoded and masked here.
  PlanesHashEvaluator direct;
  std::vector<std::vector<float>> logits;
  std::vector<float> values;
  for (const auto& p : positions) {
    std::vector<float> planes(per), l(a), v(1);
    std::vector<uint8_t> mask(a);
    p->encode(planes.data());
    p->net_legal_mask(mask.data());
    direct.evaluate({p.get()}, planes.data(), mask.data(), l.data(), v.data());
    logits.push_back(l);
    values.push_back(v[0]);
  }

  // Through one batch, beside the root leaf of a tree (which must still get its own output).
  SearchTree tree(spec);
  tree.set_root(*positions[0]);
  Rng rng(1);
  SearchSettings s;
  s.simulations = 8;
  tree.start_search(s, s.simulations, false, &rng);
  ASSERT_EQ(tree.collect(), 1);
  PlanesHashEvaluator batched;
  EvaluationBatch batch;
  batch.add_leaves(tree);
  for (const auto& p : positions) batch.add_position(*p);
  EXPECT_EQ(batch.run(batched), positions.size() + 1);
  EXPECT_EQ(batched.calls, 1);
  EXPECT_EQ(tree.root().status, SearchTree::kExpanded);
  EXPECT_FLOAT_EQ(tree.root().raw_value, values[0]);
  for (size_t i = 0; i < positions.size(); ++i) {
    EXPECT_FLOAT_EQ(batch.value(i + 1), values[i]) << "position " << i;
    for (int x = 0; x < a; ++x) ASSERT_FLOAT_EQ(batch.logits(i + 1)[x], logits[i][x]) << "position " << i;
  }
  batch.clear();
  EXPECT_EQ(batch.run(batched), 0u);
  EXPECT_EQ(batched.calls, 1) << "an empty batch must not call the evaluator";
}

}  // namespace
}  // namespace quax
