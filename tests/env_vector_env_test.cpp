// The vectorized environment: its blocks match per-game encode/masks, its network frame is
// White's transposed view, and finished games are reported and restarted (or held).
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "env/hex_game.h"
#include "env/square_game.h"
#include "env/vector_env.h"

namespace quax {
namespace {

// A uniformly random index i with mask[i] == 1; -1 when none.
int random_legal(const uint8_t* mask, int count, Rng& rng) {
  std::vector<int> legal;
  for (int a = 0; a < count; ++a)
    if (mask[a]) legal.push_back(a);
  return legal.empty() ? -1 : legal[rng.below(static_cast<uint32_t>(legal.size()))];
}

// White's network frame written out by hand: spatial actions transposed, the rest unchanged.
int transpose_action(int a, int n) {
  const int nn = n * n;
  if (a >= 3 * nn) return a;
  const int plane = a / nn, idx = a % nn;
  return plane * nn + (idx % n) * n + idx / n;
}

struct Case {
  Variant variant;
  int size;
};

class VectorEnvMatches : public ::testing::TestWithParam<Case> {};

// Steps a VectorEnv and B separately held games with the same moves, and compares the blocks
// with each game's own encode() and its board-frame mask mapped by hand.
TEST_P(VectorEnvMatches, PerGameEncodeAndMaskAndFinishedGames) {
  const Case c = GetParam();
  const GameSpec spec{c.variant, c.size, variant_info(c.variant).swap_by_default};
  const int batch = 6, n = c.size, nn = n * n;
  VectorEnv env(spec, batch);
  std::vector<SquareGame> mirror(batch, SquareGame(spec));
  const int A = env.num_actions(), C = env.num_planes();
  ASSERT_EQ(A, 3 * nn + 2);
  ASSERT_EQ(C, SquareGame::kNumPlanes);
  ASSERT_EQ(env.planes_per_game(), C * nn);
  std::vector<float> planes(static_cast<size_t>(batch) * C * nn), one(static_cast<size_t>(C) * nn);
  std::vector<uint8_t> masks(static_cast<size_t>(batch) * A), board(A);
  std::vector<int> actions(batch);
  std::vector<VectorEnv::StepResult> results(batch);
  Rng rng(17 + n);
  int finished = 0, white_turns = 0;
  const int steps = n >= 11 ? 700 : 300;
  for (int step = 0; step < steps; ++step) {
    env.encode(planes.data());
    env.legal_masks(masks.data());
    for (int i = 0; i < batch; ++i) {
      const SquareGame& g = mirror[i];
      ASSERT_EQ(env.move_number(i), g.move_number());
      ASSERT_EQ(env.to_move(i), g.to_move());
      ASSERT_EQ(env.game(i).position_key(), g.position_key());
      g.encode(one.data());
      ASSERT_TRUE(std::equal(one.begin(), one.end(), planes.begin() + static_cast<long>(i) * C * nn)) << "game " << i;
      g.legal_mask(board.data());
      const bool white = g.to_move() == Player::kWhite;
      white_turns += white;
      const uint8_t* m = masks.data() + static_cast<size_t>(i) * A;
      for (int a = 0; a < A; ++a) ASSERT_EQ(m[white ? transpose_action(a, n) : a], board[a]) << "action " << a;
      // Frame check against the planes: a legal cell in the network frame is empty there,
      // and a legal `/` link joins two of the mover's own stones there.
      const float* p = planes.data() + static_cast<size_t>(i) * C * nn;
      for (int cell = 0; cell < nn; ++cell) {
        if (!m[cell]) continue;
        ASSERT_TRUE(p[cell] == 0.0f && p[nn + cell] == 0.0f) << "cell " << cell;
      }
      for (int block = 0; block < nn; ++block) {
        if (!m[nn + block]) continue;
        ASSERT_TRUE(p[block] == 1.0f && p[block + n + 1] == 1.0f) << "block " << block;
      }
      actions[i] = random_legal(m, A, rng);
      ASSERT_GE(actions[i], 0);
      ASSERT_EQ(env.to_board_action(i, actions[i]), white ? transpose_action(actions[i], n) : actions[i]);
    }
    env.step(actions.data(), results.data());
    for (int i = 0; i < batch; ++i) {
      SquareGame& g = mirror[i];
      g.apply(g.to_move() == Player::kWhite ? transpose_action(actions[i], n) : actions[i]);
      ASSERT_EQ(results[i].finished, g.is_over());
      if (g.is_over()) {
        ++finished;
        EXPECT_EQ(results[i].outcome, g.outcome());
        EXPECT_EQ(results[i].length, g.move_number());
        // Restarted at once.
        EXPECT_EQ(env.move_number(i), 0);
        EXPECT_EQ(env.to_move(i), Player::kBlack);
        g = SquareGame(spec);
      }
    }
  }
  EXPECT_GT(finished, 10);
  EXPECT_GT(white_turns, 300);
}

std::vector<Case> cases() {
  return {{Variant::kQuax, 5}, {Variant::kQuax, 11}, {Variant::kLink, 4},     {Variant::kQuickway, 7},
          {Variant::kCrossway, 5}, {Variant::kCrossway, 6}, {Variant::kQuadrex, 6}};
}

INSTANTIATE_TEST_SUITE_P(SquareVariants, VectorEnvMatches, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return std::string(variant_info(info.param.variant).name) + "_" +
                                  std::to_string(info.param.size);
                         });

TEST(VectorEnv, WithoutAutoResetFinishedGamesAreHeldUntilReset) {
  const GameSpec spec{Variant::kQuax, 4, true};
  const int batch = 3;
  VectorEnv env(spec, batch, /*auto_reset=*/false);
  std::vector<uint8_t> masks(static_cast<size_t>(batch) * env.num_actions());
  std::vector<int> actions(batch);
  std::vector<VectorEnv::StepResult> results(batch);
  Rng rng(5);
  std::vector<int> finished_at(batch, -1), lengths(batch, 0);
  for (int step = 0; step < 200; ++step) {
    env.legal_masks(masks.data());
    for (int i = 0; i < batch; ++i) {
      const uint8_t* m = masks.data() + static_cast<size_t>(i) * env.num_actions();
      actions[i] = random_legal(m, env.num_actions(), rng);
      // A finished game offers nothing.
      EXPECT_EQ(actions[i] < 0, env.outcome(i) != Outcome::kOngoing);
    }
    env.step(actions.data(), results.data());
    for (int i = 0; i < batch; ++i) {
      if (results[i].finished) {
        EXPECT_EQ(finished_at[i], -1) << "a game is reported finished once";
        finished_at[i] = step;
        lengths[i] = results[i].length;
        EXPECT_EQ(results[i].outcome, env.outcome(i));
        EXPECT_NE(env.outcome(i), Outcome::kOngoing);
      }
      if (finished_at[i] >= 0) {
        EXPECT_EQ(env.move_number(i), lengths[i]) << "a held game does not move";
        EXPECT_EQ(env.to_move(i), Player::kNone);
      }
    }
  }
  for (int i = 0; i < batch; ++i) ASSERT_GE(finished_at[i], 0) << "4x4 games end within 200 plies";
  env.reset(1);
  EXPECT_EQ(env.move_number(1), 0);
  EXPECT_EQ(env.outcome(1), Outcome::kOngoing);
  EXPECT_NE(env.outcome(0), Outcome::kOngoing);
  env.reset_all();
  for (int i = 0; i < batch; ++i) EXPECT_EQ(env.move_number(i), 0);
}

TEST(VectorEnv, BoardFrameStepEqualsNetworkFrameStep) {
  const GameSpec spec{Variant::kQuax, 6, true};
  const int batch = 4;
  VectorEnv by_net(spec, batch), by_board(spec, batch);
  std::vector<uint8_t> masks(static_cast<size_t>(batch) * by_net.num_actions());
  std::vector<int> net(batch), board(batch);
  Rng rng(9);
  for (int step = 0; step < 100; ++step) {
    by_net.legal_masks(masks.data());
    for (int i = 0; i < batch; ++i) {
      net[i] = random_legal(masks.data() + static_cast<size_t>(i) * by_net.num_actions(), by_net.num_actions(), rng);
      board[i] = by_net.to_board_action(i, net[i]);
      ASSERT_EQ(by_net.to_net_action(i, board[i]), net[i]);
      ASSERT_TRUE(by_board.game(i).is_legal(board[i]));
    }
    by_net.step(net.data());
    by_board.step_board(board.data());
    for (int i = 0; i < batch; ++i) ASSERT_EQ(by_net.game(i).position_key(), by_board.game(i).position_key());
  }
}

}  // namespace
}  // namespace quax

namespace quax {
namespace {

// max_observation bounds every value encode() writes (the Python VectorEnv's observation
// space states it) in random games of every variant; and it is reached where it passes 1: on
// the quadrant triangles a cell lies in up to four (quady) or seven (quady2) games, all won on
// a board of one colour, so a bound of 1 there would be false.
TEST(VectorEnv, MaxObservationBoundsEveryValueAndIsReached) {
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int v = 0; v < count; ++v) {
    const GameSpec spec{all[v].variant, nearest_valid_size(all[v].variant, 6), false};
    const float high = VectorEnv::max_observation(spec);
    VectorEnv env(spec, 8, false);
    std::vector<float> planes(static_cast<size_t>(env.planes_per_game()) * 8);
    std::vector<uint8_t> masks(static_cast<size_t>(env.num_actions()) * 8);
    std::vector<int> actions(8);
    Rng rng(v + 1);
    float seen = 0.0f;
    for (int ply = 0; ply < 400; ++ply) {
      env.encode(planes.data());  // finished games are held: their final planes count too
      ASSERT_GE(*std::min_element(planes.begin(), planes.end()), 0.0f) << describe(spec);
      seen = std::max(seen, *std::max_element(planes.begin(), planes.end()));
      env.legal_masks(masks.data());
      for (int i = 0; i < 8; ++i) actions[i] = sample_legal(masks.data() + i * env.num_actions(), env.num_actions(), rng);
      env.step(actions.data());
    }
    EXPECT_LE(seen, high) << describe(spec);
    EXPECT_GT(seen, 0.0f) << describe(spec);
  }
  for (Variant v : {Variant::kQuady, Variant::kQuady2}) {
    const GameSpec spec{v, 9, false};
    const auto geo = HexGeometry::get(v, 9);
    std::vector<Player> stones(81, Player::kNone);
    for (int16_t cell : geo->board_cells) stones[cell] = Player::kBlack;
    const auto full = HexGame::from_position(spec, stones, Player::kWhite, 100);
    std::vector<float> planes(static_cast<size_t>(full->num_planes()) * 81);
    full->encode(planes.data());
    const float most = *std::max_element(planes.begin(), planes.end());
    EXPECT_EQ(most, VectorEnv::max_observation(spec)) << describe(spec);
    EXPECT_GT(most, 1.0f) << describe(spec);
  }
}

TEST(SampleLegal, UniformOverSetEntriesOnly) {
  // 37 entries (not a multiple of 8), 10 set, including the first and the last.
  std::vector<uint8_t> mask(37, 0);
  const std::vector<int> set = {0, 3, 8, 9, 15, 16, 23, 30, 31, 36};
  for (int i : set) mask[i] = 1;
  std::vector<int> hits(mask.size(), 0);
  Rng rng(11);
  const int draws = 100000;
  for (int d = 0; d < draws; ++d) {
    const int a = sample_legal(mask.data(), static_cast<int>(mask.size()), rng);
    ASSERT_GE(a, 0);
    ASSERT_TRUE(mask[a]) << a;
    ++hits[a];
  }
  for (int i : set) {
    EXPECT_GT(hits[i], 9400) << i;  // expected 10000, sd about 95
    EXPECT_LT(hits[i], 10600) << i;
  }
}

TEST(SampleLegal, EmptyAndSingleMasks) {
  Rng rng(1);
  std::vector<uint8_t> mask(365, 0);
  EXPECT_EQ(sample_legal(mask.data(), 365, rng), -1);
  mask[364] = 1;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sample_legal(mask.data(), 365, rng), 364);
  mask[364] = 0;
  mask[7] = 1;
  for (int i = 0; i < 20; ++i) EXPECT_EQ(sample_legal(mask.data(), 365, rng), 7);
  EXPECT_EQ(sample_legal(mask.data(), 5, rng), -1);  // only the first 5 entries count
}

}  // namespace
}  // namespace quax
