// One network for several board sizes (game.sizes): shards routed to the window of their
// size, batches each of one size with the sizes' shares following the weights, checkpoints
// that keep every window and resume bit for bit, and a model that lists its sizes and plays
// every size of its variant (a warning outside them, a refusal for another variant).
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "env/game_state.h"
#include "mcts/simple_evaluators.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "train/learner.h"
#include "train/replay_windows.h"
#include "train/shard.h"
#include "ml_tiny_config.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

// quax 4x4, 5x5 and 6x6 for one tiny network, weights 2:1:1.
TrainConfig mixed_config() {
  TrainConfig c = tiny_net_config(4);
  c.sizes = {4, 5, 6};
  c.size_weights = {2, 1, 1};
  c.learn.batch_size = 8;
  c.learn.lr_warmup_steps = 2;
  c.replay.window_min = 100000;
  c.replay.window_max = 100000;
  return c;
}

std::string temp_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("quax_ml_" + name + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "selfplay");
  return dir.string();
}

// Two shards of 6 uniform-search games of `spec` in <dir>/selfplay; returns their positions.
int64_t write_shards_of(const GameSpec& spec, const std::string& dir, uint64_t seed) {
  DriverOptions opt;
  opt.spec = spec;
  opt.parallel_games = 3;
  opt.games_to_play = 12;
  opt.players[0].search.simulations = 6;
  opt.players[0].record_policy = true;
  opt.players[0].temperature_moves = 100;
  opt.seed = seed;
  UniformEvaluator uniform;
  GameDriver driver(opt, {&uniform});
  std::vector<GameRecord> games;
  int64_t positions = 0;
  int shard = 0;
  driver.run(12, [&](GameRecord&& g) {
    positions += trainable_positions(g);
    games.push_back(std::move(g));
    if (games.size() == 6) {
      write_shard(new_shard_path(dir + "/selfplay", "s" + std::to_string(spec.size), shard++), games);
      games.clear();
    }
  });
  return positions;
}

std::map<int, int64_t> write_mixed_shards(const TrainConfig& c, const std::string& dir) {
  std::map<int, int64_t> positions;
  for (const auto& spec : c.game_specs()) positions[spec.size] = write_shards_of(spec, dir, 11 + spec.size);
  return positions;
}

TEST(MixedSizes, ShardsGoToTheWindowOfTheirSize) {
  const TrainConfig c = mixed_config();
  const auto dir = temp_dir("sizes_route");
  const auto positions = write_mixed_shards(c, dir);
  // A shard of a size the run does not train is set aside, as one of another variant is.
  write_shards_of(GameSpec{Variant::kQuax, 7, true}, dir, 3);
  ReplayWindows windows(c.game_specs(), c.game_weights(), c.replay);
  ::testing::internal::CaptureStderr();
  windows.ingest_new(dir + "/selfplay");
  const std::string warnings = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(warnings.find("holds games of quax 7x7 (swap), this run is quax 4x4 (swap)"), std::string::npos)
      << warnings;
  EXPECT_EQ(fs::exists(dir + "/selfplay/bad") ? std::distance(fs::directory_iterator(dir + "/selfplay/bad"),
                                                              fs::directory_iterator())
                                              : 0,
            2);
  ASSERT_EQ(windows.count(), 3u);
  int64_t sum = 0;
  for (size_t i = 0; i < windows.count(); ++i) {
    const int size = windows.spec(i).size;
    EXPECT_EQ(windows.window(i).total_positions(), positions.at(size)) << size;
    EXPECT_EQ(windows.window(i).ingested().size(), 2u) << size;
    sum += positions.at(size);
  }
  EXPECT_EQ(windows.total_positions(), sum);
  // Read once: a second look adds nothing.
  EXPECT_EQ(windows.ingest_new(dir + "/selfplay"), 0);
  fs::remove_all(dir);
}

TEST(MixedSizes, EachBatchHoldsOneSizeAndSizesFollowTheWeights) {
  const TrainConfig c = mixed_config();
  const auto dir = temp_dir("sizes_batches");
  write_mixed_shards(c, dir);
  ReplayWindows windows(c.game_specs(), c.game_weights(), c.replay);
  windows.ingest_new(dir + "/selfplay");
  Rng rng(5);
  TrainingBatch batch;
  std::map<int, int> batches;
  const int draws = 3000;
  for (int i = 0; i < draws; ++i) {
    const size_t w = windows.sample(2, rng, &batch);
    const int n = windows.spec(w).size;
    const auto state = new_game(windows.spec(w));
    ASSERT_EQ(batch.n, n);
    ASSERT_EQ(batch.actions, state->num_actions());
    ASSERT_EQ(batch.inputs.size(), static_cast<size_t>(2 * state->num_planes() * n * n));
    ASSERT_EQ(batch.policy.size(), static_cast<size_t>(2 * state->num_actions()));
    ++batches[n];
  }
  // Weights 2:1:1, although a 6x6 game holds about twice the positions of a 4x4 one.
  EXPECT_NEAR(batches[4] / static_cast<double>(draws), 0.5, 0.03);
  EXPECT_NEAR(batches[5] / static_cast<double>(draws), 0.25, 0.03);
  EXPECT_NEAR(batches[6] / static_cast<double>(draws), 0.25, 0.03);
  fs::remove_all(dir);
}

TEST(MixedSizes, ASizeWithoutPositionsIsLeftOutOfTheDraw) {
  const TrainConfig c = mixed_config();
  const auto dir = temp_dir("sizes_empty");
  write_shards_of(GameSpec{Variant::kQuax, 5, true}, dir, 2);
  ReplayWindows windows(c.game_specs(), c.game_weights(), c.replay);
  windows.ingest_new(dir + "/selfplay");
  Rng rng(1);
  TrainingBatch batch;
  for (int i = 0; i < 50; ++i) EXPECT_EQ(windows.spec(windows.sample(2, rng, &batch)).size, 5);
  fs::remove_all(dir);
}

struct Trace {
  std::vector<std::vector<float>> batches;
  std::vector<double> losses;
};

Trace train(Learner& learner, ReplayWindows& windows, Rng& rng, int steps) {
  Trace t;
  TrainingBatch b;
  for (int i = 0; i < steps; ++i) {
    windows.sample(8, rng, &b);
    t.batches.push_back(b.inputs);
    t.losses.push_back(learner.train_step(b).loss);
  }
  return t;
}

TEST(MixedSizes, CheckpointKeepsEveryWindowAndResumesBitExact) {
  torch::set_num_threads(1);
  const TrainConfig c = mixed_config();
  const auto dir = temp_dir("sizes_resume");
  write_mixed_shards(c, dir);
  Learner a(c);
  ReplayWindows wa(c.game_specs(), c.game_weights(), c.replay);
  wa.ingest_new(dir + "/selfplay");
  Rng ra(17);
  train(a, wa, ra, 5);
  RunState st;
  st.windows = wa.state();
  ra.get_state(st.rng);
  const auto path = checkpoint_path(dir, a.step());
  a.save_checkpoint(path, st);
  const Trace rest_a = train(a, wa, ra, 8);

  TrainConfig other_seed = c;
  other_seed.run.seed = 999;
  Learner b(other_seed);
  const RunState back = b.load_checkpoint(path);
  ASSERT_EQ(back.windows.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.windows[i].size, c.sizes[i]);
    EXPECT_EQ(back.windows[i].ingested_shards, st.windows[i].ingested_shards);
    EXPECT_EQ(back.windows[i].total_positions, st.windows[i].total_positions);
  }
  ReplayWindows wb(c.game_specs(), c.game_weights(), c.replay);
  wb.restore(dir + "/selfplay", back.windows);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(wb.window(i).window_positions(), wa.window(i).window_positions());
  // Restored shards are not read a second time.
  EXPECT_EQ(wb.ingest_new(dir + "/selfplay"), 0);
  Rng rb;
  rb.set_state(back.rng);
  const Trace rest_b = train(b, wb, rb, 8);
  EXPECT_EQ(rest_b.batches, rest_a.batches);
  EXPECT_EQ(rest_b.losses, rest_a.losses);
  EXPECT_EQ(b.flat_state(), a.flat_state());

  // A run of other sizes does not take the checkpoint, and says why.
  TrainConfig fewer = c;
  fewer.sizes = {4, 5};
  fewer.size_weights = {};
  Learner d(fewer);
  try {
    d.load_checkpoint(path);
    FAIL() << "accepted a checkpoint of other sizes";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("is for quax 4x4, 5x5, 6x6 with a 1-block 8-filter net; this run is quax "
                                         "4x4, 5x5 with"),
              std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

TEST(MixedSizes, TheModelListsItsSizesAndPlaysEverySizeOfItsVariant) {
  torch::set_num_threads(1);
  const TrainConfig c = mixed_config();
  const auto dir = temp_dir("sizes_model");
  Learner learner(c);
  const std::string path = dir + "/model.pt";
  learner.publish_model(path);
  const LoadedModel loaded = load_model_file(path);
  EXPECT_EQ(loaded.trained_sizes, (std::vector<int>{4, 5, 6}));
  EXPECT_EQ(loaded.description.at("sizes"), nlohmann::json::array({4, 5, 6}));
  EXPECT_EQ(loaded.description.at("size"), 4);

  for (int size : {4, 5, 6, 7}) {
    SCOPED_TRACE(size);
    const GameSpec spec{Variant::kQuax, size, true};
    ::testing::internal::CaptureStderr();
    const auto model = load_inference_model(path, spec);
    const std::string warning = ::testing::internal::GetCapturedStderr();
    if (size <= 6) {
      EXPECT_EQ(warning, "");
    } else {
      EXPECT_EQ(warning, "warning: model '" + path +
                             "' was trained on quax 4x4, 5x5, 6x6, not 7x7; it plays that size untested\n");
    }
    // The network evaluates positions of that size: one logit per action of the board.
    auto s = new_game(spec);
    std::vector<int> legal;
    s->legal_actions(&legal);
    s->apply(legal[legal.size() / 2]);
    const int a = s->num_actions();
    std::vector<float> planes(static_cast<size_t>(s->num_planes()) * size * size), logits(a, NAN), value(1, NAN);
    std::vector<uint8_t> mask(a);
    s->encode(planes.data());
    s->net_legal_mask(mask.data());
    NetEvaluator evaluator(model);
    evaluator.evaluate({s.get()}, planes.data(), mask.data(), logits.data(), value.data());
    for (float l : logits) ASSERT_TRUE(std::isfinite(l));
    EXPECT_TRUE(std::isfinite(value[0]));
  }
  try {
    load_inference_model(path, GameSpec{Variant::kQuickway, 5, true});
    FAIL() << "accepted a quax model for quickway";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the model is for quax 4x4, 5x5, 6x6, not quickway 5x5"), std::string::npos)
        << e.what();
  }
  fs::remove_all(dir);
}

// A triangle is named by its side, not as a square ("15x15" read as a square board).
TEST(MixedSizes, MessagesNameATriangleByItsSide) {
  const ModelShape y = model_shape_for(GameSpec{Variant::kY, 15, true});
  std::vector<std::string> warnings;
  EXPECT_EQ(check_model_matches(y, {15, 9}, GameSpec{Variant::kY, 13, true}, "m.pt", &warnings), "");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "warning: model 'm.pt' was trained on y side 15, side 9, not side 13; it plays that size untested");
  EXPECT_EQ(check_model_matches(y, {15, 9}, GameSpec{Variant::kQuax, 9, true}, "m.pt", nullptr),
            "the model is for y side 15, side 9, not quax 9x9");
  EXPECT_EQ(sizes_text(Variant::kHex, {11, 9}), "11x11, 9x9");
}

}  // namespace
}  // namespace quax
