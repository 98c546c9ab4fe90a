// Data augmentation: the network-frame transforms the replay window applies to planes,
// policy targets and legal masks describe real positions, under every goal-keeping symmetry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "env/square_game.h"
#include "env/symmetry.h"
#include "train/replay_window.h"
#include "train/shard.h"

namespace quax {
namespace {

std::vector<uint8_t> net_mask(const GameState& s) {
  std::vector<uint8_t> board(s.num_actions()), net(s.num_actions(), 0);
  s.legal_mask(board.data());
  for (int a = 0; a < s.num_actions(); ++a)
    if (board[a]) net[s.to_net_action(a)] = 1;
  return net;
}

std::vector<float> planes_of(const GameState& s) {
  std::vector<float> p(s.num_planes() * s.size() * s.size());
  s.encode(p.data());
  return p;
}

// For random positions of every variant (both movers, links present) and every
// goal-keeping board symmetry g: transforming the encoded planes, legal mask and a one-hot
// policy by net_symmetry(g, mover), through the GameState augmentation interface the replay
// window uses, gives exactly the planes, mask and action of g(position).
TEST(Augmentation, NetFrameTransformsMatchTransformedPositions) {
  Rng rng(17);
  int checked = 0;
  int count = 0;
  const VariantInfo* variants = all_variants(&count);
  for (int v = 0; v < count; ++v) {
    for (int size : {4, 5, 6}) {
      const GameSpec spec{variants[v].variant, size, true};
      // Other games test their own augmentation (tests/env_<variant>_test.cpp).
      if (!check_spec(spec).empty() || !dynamic_cast<const SquareGame*>(new_game(spec).get())) continue;
      for (int trial = 0; trial < 20; ++trial) {
        auto state = new_game(spec);
        const int plies = static_cast<int>(rng.below(2 * size * size));
        std::vector<int> legal;
        for (int i = 0; i < plies && !state->is_over(); ++i) {
          state->legal_actions(&legal);
          state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        }
        if (state->is_over()) continue;
        const auto& game = dynamic_cast<const SquareGame&>(*state);
        const int n = size, actions = state->num_actions();
        const auto planes = planes_of(game);
        const auto mask = net_mask(game);
        for (int gi : kGoalKeepingSymmetries) {
          const Symmetry g = Symmetry::from_index(gi);
          const Symmetry h = net_symmetry(g, game.to_move());
          ASSERT_EQ(game.num_net_symmetries(), 4);
          const int k = static_cast<int>(
              std::find(kGoalKeepingSymmetries.begin(), kGoalKeepingSymmetries.end(), h.index()) -
              kGoalKeepingSymmetries.begin());
          ASSERT_LT(k, 4);
          const auto image = transform_position(g, game);
          ASSERT_EQ(image->to_move(), game.to_move());
          std::vector<float> tp(planes.size());
          game.transform_net_planes(k, planes.data(), tp.data());
          EXPECT_EQ(tp, planes_of(*image)) << symmetry_name(g) << " " << describe(spec);
          std::vector<uint8_t> tm(actions);
          game.transform_net_mask(k, mask.data(), tm.data());
          EXPECT_EQ(tm, net_mask(*image)) << symmetry_name(g) << " " << describe(spec);
          // A policy target on one legal action lands on the image of that action.
          game.legal_actions(&legal);
          const int a = legal[rng.below(static_cast<uint32_t>(legal.size()))];
          std::vector<float> onehot(actions, 0.0f), moved(actions);
          onehot[game.to_net_action(a)] = 1.0f;
          game.transform_net_policy(k, onehot.data(), moved.data());
          const int expected = image->to_net_action(map_square_action(g, n, a));
          EXPECT_EQ(moved[expected], 1.0f) << symmetry_name(g) << " action " << game.action_to_string(a);
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 500);
}

// The sampler's output is always one of the four images of a recorded position.
TEST(Augmentation, SamplesAreImagesOfRecordedPositions) {
  const GameSpec spec{Variant::kQuax, 5, true};
  // A game record: a few plies, then a recorded position with a one-hot policy target.
  auto state = new_game(spec);
  GameRecord rec;
  rec.spec = spec;
  rec.outcome = Outcome::kWhiteWins;
  for (const char* mv : {"b2", "c4", "b3"}) {
    std::string err;
    const int a = state->parse_action(mv, &err);
    ASSERT_GE(a, 0) << err;
    MoveRecord m;
    m.action = a;
    m.mover = state->to_move();
    m.full_search = false;  // not trained on
    rec.moves.push_back(m);
    state->apply(a);
  }
  std::string err;
  const int target = state->parse_action("d2", &err);
  MoveRecord m;
  m.action = target;
  m.mover = state->to_move();
  m.policy = {{state->to_net_action(target), 1.0f}};
  rec.moves.push_back(m);

  const auto dir = std::filesystem::temp_directory_path() / ("quax_ml_aug" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  write_shard(new_shard_path(dir.string(), "t", 0), {rec});
  ReplayConfig rc;
  ReplayWindow window(spec, rc);
  EXPECT_EQ(window.ingest_new(dir.string()), 1);

  const auto& game = dynamic_cast<const SquareGame&>(*state);
  std::vector<std::vector<float>> images;
  std::vector<int> image_targets;
  for (int gi : kGoalKeepingSymmetries) {
    const auto img = transform_position(Symmetry::from_index(gi), game);
    images.push_back(planes_of(*img));
    image_targets.push_back(img->to_net_action(map_square_action(Symmetry::from_index(gi), 5, target)));
  }
  Rng rng(3);
  TrainingBatch batch;
  window.sample(64, rng, &batch);
  std::vector<int> seen(4, 0);
  const size_t pf = images[0].size();
  for (int b = 0; b < batch.size; ++b) {
    std::vector<float> p(batch.inputs.begin() + b * pf, batch.inputs.begin() + (b + 1) * pf);
    const auto it = std::find(images.begin(), images.end(), p);
    ASSERT_NE(it, images.end()) << "sample " << b << " is no image of the position";
    const int k = static_cast<int>(it - images.begin());
    ++seen[k];
    EXPECT_EQ(batch.policy[b * batch.actions + image_targets[k]], 1.0f);
    EXPECT_EQ(batch.mask[b * batch.actions + image_targets[k]], 1);
    EXPECT_EQ(batch.value[b], state->to_move() == Player::kWhite ? 1.0f : -1.0f);
  }
  for (int k = 0; k < 4; ++k) EXPECT_GT(seen[k], 0) << "symmetry " << k << " never drawn";
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quax
