// SymmetricEvaluator against positions built the other way: the image of a position under a
// board symmetry is played move by move (the geometry's cell map, env/hex_geometry.h), and a
// network stand-in that is not symmetric is asked about it directly. The evaluator, which
// transforms planes and maps policies instead, must give the same answers.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <set>
#include <vector>

#include "env/hex_game.h"
#include "env/rng.h"
#include "mcts/symmetric_evaluator.h"

namespace quax {
namespace {

// A deterministic function of the planes that a symmetry changes: each action's logit reads
// its own spatial cell, its index and fixed pseudo-random weights; the value reads every entry.
class LopsidedNet : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t*, float* logits,
                float* values) override {
    ++calls;
    positions += static_cast<int>(states.size());
    for (size_t i = 0; i < states.size(); ++i) {
      const GameState& s = *states[i];
      const int nn = s.size() * s.size(), c = s.num_planes(), a = s.num_actions();
      const float* p = planes + i * static_cast<size_t>(c) * nn;
      double v = 0;
      for (int k = 0; k < c * nn; ++k) v += p[k] * weight(k);
      values[i] = static_cast<float>(std::tanh(v));
      for (int j = 0; j < a; ++j) {
        double x = 0.05 * j;
        for (int plane = 0; plane < c; ++plane) x += p[plane * nn + j % nn] * (plane + 1) * weight(j);
        logits[static_cast<size_t>(i) * a + j] = static_cast<float>(x);
      }
    }
  }
  static double weight(int k) { return static_cast<double>(mix64(static_cast<uint64_t>(k) + 7) >> 40) / (1 << 24) - 0.5; }
  int calls = 0;
  int positions = 0;
};

struct Answer {
  std::vector<float> logits;
  float value = 0;
};

Answer ask(Evaluator& e, const GameState& s) {
  std::vector<float> planes(static_cast<size_t>(s.num_planes()) * s.size() * s.size());
  std::vector<uint8_t> mask(s.num_actions());
  s.encode(planes.data());
  s.net_legal_mask(mask.data());
  Answer out;
  out.logits.assign(s.num_actions(), 0.0f);
  e.evaluate({&s}, planes.data(), mask.data(), out.logits.data(), &out.value);
  return out;
}

// The probability of each legal board action (softmax over the legal ones) in `s`'s frame.
std::vector<double> board_policy(const GameState& s, const std::vector<float>& net_logits) {
  std::vector<uint8_t> legal(s.num_actions());
  s.legal_mask(legal.data());
  std::vector<double> p(s.num_actions(), 0.0);
  double total = 0;
  for (int a = 0; a < s.num_actions(); ++a)
    if (legal[a]) total += p[a] = std::exp(static_cast<double>(net_logits[s.to_net_action(a)]));
  for (double& x : p) x /= total;
  return p;
}

// A random position of `spec` after `plies` moves and its images under every symmetry,
// played with the symmetry's cell map (a swap stays a swap).
std::vector<HexGame> position_and_images(const GameSpec& spec, int plies, Rng& rng) {
  const HexGame probe(spec);
  std::vector<HexGame> images(probe.num_net_symmetries(), HexGame(spec));
  std::vector<int> legal;
  for (int ply = 0; ply < plies && !images[0].is_over(); ++ply) {
    images[0].legal_actions(&legal);
    const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
    for (size_t s = 0; s < images.size(); ++s)
      images[s].apply(a == images[s].swap_action() ? a : probe.geometry().symmetries[s][a]);
  }
  return images;
}

// The action of images[s] that is board action `a` of images[0].
int image_action(const HexGame& g, int s, int a) {
  return a == g.swap_action() ? a : g.geometry().symmetries[s][a];
}

const GameSpec kSpecs[] = {{Variant::kHex, 7, true}, {Variant::kY, 9, true}, {Variant::kQuadhex, 8, true}};

TEST(SymmetricEvaluator, AveragesTheNetworksAnswersOnEveryImage) {
  Rng rng(5);
  for (const GameSpec& spec : kSpecs) {
    for (int trial = 0; trial < 30; ++trial) {
      const auto images = position_and_images(spec, static_cast<int>(rng.below(20)), rng);
      if (images[0].is_over()) continue;
      const int k = static_cast<int>(images.size());
      auto net = std::make_shared<LopsidedNet>();
      SymmetricEvaluator averaged(net, EvalSymmetries::kAverage, 1);
      const Answer got = ask(averaged, images[0]);
      ASSERT_EQ(net->positions, k) << "one evaluation per symmetry";
      double value = 0;
      std::vector<double> expected(images[0].num_actions(), 0.0);
      for (int s = 0; s < k; ++s) {
        LopsidedNet direct;
        const Answer a = ask(direct, images[s]);
        value += a.value / k;
        const auto p = board_policy(images[s], a.logits);
        for (int b = 0; b < images[0].num_actions(); ++b)
          if (images[0].is_legal(b)) expected[b] += p[image_action(images[0], s, b)] / k;
      }
      EXPECT_NEAR(got.value, value, 1e-5) << spec.size << " trial " << trial;
      const auto p = board_policy(images[0], got.logits);
      for (int b = 0; b < images[0].num_actions(); ++b)
        if (images[0].is_legal(b)) ASSERT_NEAR(p[b], expected[b], 1e-5) << "action " << b << " trial " << trial;
    }
  }
}

TEST(SymmetricEvaluator, ARandomSymmetryAnswersAsTheNetworkDoesOnThatImage) {
  Rng rng(8);
  for (const GameSpec& spec : kSpecs) {
    const auto images = position_and_images(spec, 9, rng);
    const int k = static_cast<int>(images.size());
    std::vector<Answer> direct;
    for (int s = 0; s < k; ++s) {
      LopsidedNet net;
      direct.push_back(ask(net, images[s]));
    }
    auto net = std::make_shared<LopsidedNet>();
    SymmetricEvaluator random(net, EvalSymmetries::kRandom, 3);
    std::set<int> seen;
    for (int draw = 0; draw < 40 * k; ++draw) {
      const Answer got = ask(random, images[0]);
      int match = -1;
      for (int s = 0; s < k && match < 0; ++s) {
        bool same = std::abs(got.value - direct[s].value) < 1e-6;
        for (int b = 0; b < images[0].num_actions() && same; ++b)
          if (images[0].is_legal(b))
            same = std::abs(got.logits[images[0].to_net_action(b)] -
                            direct[s].logits[images[s].to_net_action(image_action(images[0], s, b))]) < 1e-5;
        if (same) match = s;
      }
      ASSERT_GE(match, 0) << "draw " << draw << ": the answer is no image's";
      seen.insert(match);
    }
    EXPECT_EQ(static_cast<int>(seen.size()), k) << "every symmetry is drawn";
    EXPECT_EQ(net->positions, 40 * k) << "one evaluation a position";
  }
}

TEST(SymmetricEvaluator, NoneIsTheNetworkItselfAndABatchKeepsItsOrder) {
  Rng rng(11);
  const GameSpec spec{Variant::kHex, 7, true};
  std::vector<std::vector<HexGame>> positions;
  for (int i = 0; i < 5; ++i) positions.push_back(position_and_images(spec, 3 + 2 * i, rng));
  for (EvalSymmetries mode : {EvalSymmetries::kNone, EvalSymmetries::kAverage}) {
    auto net = std::make_shared<LopsidedNet>();
    SymmetricEvaluator e(net, mode, 1);
    const HexGame& g = positions[0][0];
    const size_t c = static_cast<size_t>(g.num_planes()) * g.size() * g.size(), a = g.num_actions();
    std::vector<const GameState*> states;
    std::vector<float> planes(5 * c), logits(5 * a), values(5);
    std::vector<uint8_t> masks(5 * a);
    for (size_t i = 0; i < 5; ++i) {
      states.push_back(&positions[i][0]);
      positions[i][0].encode(planes.data() + i * c);
      positions[i][0].net_legal_mask(masks.data() + i * a);
    }
    e.evaluate(states, planes.data(), masks.data(), logits.data(), values.data());
    EXPECT_EQ(net->calls, 1) << "one call of the inner evaluator for the batch";
    for (size_t i = 0; i < 5; ++i) {
      SymmetricEvaluator alone(std::make_shared<LopsidedNet>(), mode, 1);
      const Answer one = ask(alone, positions[i][0]);
      EXPECT_NEAR(values[i], one.value, 1e-6) << eval_symmetries_name(mode) << " position " << i;
      for (size_t j = 0; j < a; ++j)
        if (masks[i * a + j]) ASSERT_NEAR(logits[i * a + j], one.logits[j], 1e-5);
    }
  }
}

TEST(SymmetricEvaluator, NamesParseBack) {
  for (EvalSymmetries m : {EvalSymmetries::kNone, EvalSymmetries::kRandom, EvalSymmetries::kAverage}) {
    EvalSymmetries back = EvalSymmetries::kNone;
    ASSERT_TRUE(parse_eval_symmetries(eval_symmetries_name(m), &back));
    EXPECT_EQ(back, m);
  }
  EvalSymmetries unchanged = EvalSymmetries::kRandom;
  EXPECT_FALSE(parse_eval_symmetries("all", &unchanged));
  EXPECT_EQ(unchanged, EvalSymmetries::kRandom);
}

}  // namespace
}  // namespace quax
