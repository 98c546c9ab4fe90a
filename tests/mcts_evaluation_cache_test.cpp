// The evaluation cache answers exactly what the network behind it answers, asks it once per
// distinct input, and forgets everything on clear() (a new model).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"
#include "mcts/evaluation_cache.h"

namespace quax {
namespace {

// Outputs that depend on every plane value and mask entry, and on a generation number that
// stands for the network's weights; counts the positions it was asked for.
class FakeNetwork final : public Evaluator {
 public:
  FakeNetwork(int plane_floats, int actions) : plane_floats_(plane_floats), actions_(actions) {}
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* logits, float* values) override {
    for (size_t i = 0; i < states.size(); ++i) {
      double sum = generation;
      for (int f = 0; f < plane_floats_; ++f) sum += planes[i * plane_floats_ + f] * (f % 7 + 1);
      for (int a = 0; a < actions_; ++a)
        logits[i * actions_ + a] = static_cast<float>(sum * 0.01 + a + 3 * masks[i * actions_ + a]);
      values[i] = static_cast<float>(std::tanh(sum * 0.001));
    }
    asked += static_cast<int64_t>(states.size());
  }
  int64_t asked = 0;
  int generation = 0;

 private:
  int plane_floats_, actions_;
};

struct Batch {
  std::vector<std::unique_ptr<GameState>> owned;
  std::vector<const GameState*> states;
  std::vector<float> planes;
  std::vector<uint8_t> masks;
  int plane_floats = 0, actions = 0;
  void add(const GameState& s) {
    plane_floats = s.num_planes() * s.size() * s.size();
    actions = s.num_actions();
    owned.push_back(s.clone());
    states.push_back(owned.back().get());
    planes.resize(planes.size() + plane_floats);
    s.encode(&planes[planes.size() - plane_floats]);
    masks.resize(masks.size() + actions);
    s.net_legal_mask(&masks[masks.size() - actions]);
  }
};

// `distinct` positions along random quax 5x5 games, then each of them again (repeats).
Batch positions(int distinct, uint64_t seed) {
  Batch b;
  Rng rng(seed);
  auto game = new_game(GameSpec{Variant::kQuax, 5, true});
  std::vector<int> legal;
  for (int i = 0; i < distinct; ++i) {
    if (game->is_over()) game = new_game(GameSpec{Variant::kQuax, 5, true});
    game->legal_actions(&legal);
    game->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    if (game->is_over()) game = new_game(GameSpec{Variant::kQuax, 5, true});
    b.add(*game);
  }
  for (int i = 0; i < distinct; ++i) b.add(*b.states[i]);
  return b;
}

void expect_same_outputs(FakeNetwork& direct, Evaluator& cached, const Batch& b) {
  const size_t n = b.states.size();
  std::vector<float> l1(n * b.actions), v1(n), l2(n * b.actions), v2(n);
  direct.evaluate(b.states, b.planes.data(), b.masks.data(), l1.data(), v1.data());
  cached.evaluate(b.states, b.planes.data(), b.masks.data(), l2.data(), v2.data());
  EXPECT_EQ(l1, l2);
  EXPECT_EQ(v1, v2);
}

TEST(EvaluationCache, AnswersWhatTheNetworkAnswersAndAsksOncePerDistinctInput) {
  const Batch b = positions(40, 7);
  FakeNetwork direct(b.plane_floats, b.actions), inner(b.plane_floats, b.actions);
  CachingEvaluator cache(&inner, 4096, b.plane_floats, b.actions);
  expect_same_outputs(direct, cache, b);
  // 40 positions, each twice in the batch: the twins are not sent (random games from one
  // start can meet a position twice, so at most 40 are).
  EXPECT_LE(inner.asked, 40);
  EXPECT_GE(inner.asked, 30);
  EXPECT_EQ(cache.lookups(), 80);
  EXPECT_EQ(cache.hits(), 80 - inner.asked);
  const int64_t first = inner.asked;
  expect_same_outputs(direct, cache, b);  // all from the table now
  EXPECT_EQ(inner.asked, first);
  EXPECT_EQ(cache.hits(), 80 - first + 80);
}

TEST(EvaluationCache, ClearForgetsTheOldNetwork) {
  const Batch b = positions(20, 11);
  FakeNetwork direct(b.plane_floats, b.actions), inner(b.plane_floats, b.actions);
  CachingEvaluator cache(&inner, 4096, b.plane_floats, b.actions);
  expect_same_outputs(direct, cache, b);
  inner.generation = direct.generation = 5;  // new weights
  cache.clear();
  expect_same_outputs(direct, cache, b);
}

TEST(EvaluationCache, StaysCorrectWhenSlotsCollide) {
  // Two slots for 60 distinct inputs: entries keep replacing each other, answers stay right.
  const Batch b = positions(60, 3);
  FakeNetwork direct(b.plane_floats, b.actions), inner(b.plane_floats, b.actions);
  CachingEvaluator cache(&inner, 2, b.plane_floats, b.actions);
  for (int round = 0; round < 3; ++round) expect_same_outputs(direct, cache, b);
}

TEST(EvaluationCache, NonFiniteAnswersAreNotKept) {
  class NanOnce final : public Evaluator {
   public:
    void evaluate(const std::vector<const GameState*>& states, const float*, const uint8_t*, float* logits,
                  float* values) override {
      for (size_t i = 0; i < states.size(); ++i) values[i] = calls == 0 ? NAN : 0.5f;
      (void)logits;
      ++calls;
    }
    int calls = 0;
  } inner;
  const Batch b = positions(1, 5);
  CachingEvaluator cache(&inner, 16, b.plane_floats, b.actions);
  std::vector<float> logits(b.actions), value(1);
  cache.evaluate({b.states[0]}, b.planes.data(), b.masks.data(), logits.data(), value.data());
  EXPECT_TRUE(std::isnan(value[0]));
  cache.evaluate({b.states[0]}, b.planes.data(), b.masks.data(), logits.data(), value.data());
  EXPECT_EQ(inner.calls, 2);
  EXPECT_EQ(value[0], 0.5f);
}

}  // namespace
}  // namespace quax
