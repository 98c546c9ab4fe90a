// Shards: games written and read back unchanged; damaged files refused with their name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "mcts/simple_evaluators.h"
#include "train/replay_window.h"
#include "train/shard.h"

namespace quax {
namespace {

std::vector<GameRecord> play_games(const GameSpec& spec, int games, uint64_t seed) {
  DriverOptions opt;
  opt.spec = spec;
  opt.parallel_games = 4;
  opt.games_to_play = games;
  opt.players[0].search.simulations = 16;
  opt.players[0].search.dirichlet_fraction = 0.25f;
  opt.players[0].record_policy = true;
  opt.players[0].temperature_moves = 100;
  opt.seed = seed;
  UniformEvaluator uniform;
  GameDriver driver(opt, {&uniform});
  std::vector<GameRecord> out;
  driver.run(games, [&](GameRecord&& g) { out.push_back(std::move(g)); });
  return out;
}

std::string temp_dir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("quax_ml_" + name + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir.string();
}

TEST(Shard, RoundTripKeepsEveryField) {
  const auto games = play_games(GameSpec{Variant::kQuax, 4, true}, 6, 3);
  ASSERT_EQ(games.size(), 6u);
  const auto dir = temp_dir("shard");
  const auto path = new_shard_path(dir, "t", 0);
  write_shard(path, games);
  EXPECT_EQ(list_shards(dir), std::vector<std::string>{path});
  const auto back = read_shard(path);
  ASSERT_EQ(back.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(back[i].spec, games[i].spec);
    EXPECT_EQ(back[i].outcome, games[i].outcome);
    EXPECT_EQ(back[i].game_index, games[i].game_index);
    ASSERT_EQ(back[i].moves.size(), games[i].moves.size());
    for (size_t m = 0; m < games[i].moves.size(); ++m) {
      EXPECT_EQ(back[i].moves[m].action, games[i].moves[m].action);
      EXPECT_EQ(back[i].moves[m].mover, games[i].moves[m].mover);
      EXPECT_EQ(back[i].moves[m].root_value, games[i].moves[m].root_value);
      EXPECT_EQ(back[i].moves[m].policy, games[i].moves[m].policy);
    }
    EXPECT_GT(trainable_positions(back[i]), 0);
  }
  std::filesystem::remove_all(dir);
}

TEST(Shard, DamagedFilesAreRefusedByName) {
  const auto games = play_games(GameSpec{Variant::kQuax, 3, true}, 2, 5);
  const auto dir = temp_dir("damaged");
  const auto path = dir + "/shard-x.qxs";
  write_shard(path, games);
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 3);
  try {
    read_shard(path);
    FAIL() << "read a truncated shard";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos);
  }
  std::ofstream(path) << "not a shard";
  EXPECT_THROW(read_shard(path), std::runtime_error);
  std::filesystem::remove_all(dir);
}

// The window keeps the newest positions, as many as window_target says (whole games, so up
// to one game more), and a restore from the saved list rebuilds the same window.
TEST(ReplayWindow, KeepsTheNewestGamesWithinTheTarget) {
  const GameSpec spec{Variant::kQuax, 4, true};
  ReplayConfig rc;
  rc.window_min = 60;
  rc.window_max = 1000;
  rc.window_scale = 2.0;
  rc.window_exponent = 0.5;
  ReplayWindow window(spec, rc);
  EXPECT_EQ(window.window_target(100), 60);      // 2 * sqrt(100) = 20, below the minimum
  EXPECT_EQ(window.window_target(10000), 200);   // 2 * sqrt(10000)
  EXPECT_EQ(window.window_target(1000000), 1000);  // above the maximum
  const auto dir = temp_dir("window");
  int64_t total = 0;
  std::vector<GameRecord> all;
  for (int shard = 0; shard < 6; ++shard) {
    auto games = play_games(spec, 5, 100 + shard);
    for (const auto& g : games) total += trainable_positions(g);
    all.insert(all.end(), games.begin(), games.end());
    write_shard(dir + "/shard-" + std::to_string(1000000000000 + shard) + "-t-000000.qxs", games);
    window.ingest_new(dir);
    EXPECT_EQ(window.total_positions(), total);
    const int64_t target = window.window_target(total);
    EXPECT_GE(window.window_positions(), std::min(total, target));
    EXPECT_LT(window.window_positions(), target + trainable_positions(all.front()) + 16 * 16);
  }
  EXPECT_EQ(window.ingest_new(dir), 0);  // nothing new
  EXPECT_EQ(window.ingested().size(), 6u);
  // The window holds a suffix of the games: its positions are those of the newest games.
  int64_t suffix = 0;
  size_t first = all.size();
  while (suffix < window.window_positions()) suffix += trainable_positions(all[--first]);
  EXPECT_EQ(suffix, window.window_positions());

  // Restored from a copy of the run's shard directory (a moved or copied run): the same
  // window, and none of the copied shards is read a second time.
  const std::string moved = dir + "-moved";
  std::filesystem::remove_all(moved);
  std::filesystem::copy(dir, moved);
  ReplayWindow back(spec, rc);
  back.restore(moved, window.ingested(), window.total_positions());
  EXPECT_EQ(back.window_positions(), window.window_positions());
  EXPECT_EQ(back.ingest_new(moved), 0);
  EXPECT_EQ(back.total_positions(), window.total_positions());
  Rng r1(8), r2(8);
  TrainingBatch b1, b2;
  window.sample(32, r1, &b1);
  back.sample(32, r2, &b2);
  EXPECT_EQ(b1.inputs, b2.inputs);
  EXPECT_EQ(b1.policy, b2.policy);
  EXPECT_EQ(b1.value, b2.value);
  std::filesystem::remove_all(dir);
  std::filesystem::remove_all(moved);
}

// replay.root_value_weight w: the value target is (1 - w) * result + w * root value, for the
// same sampled positions.
TEST(ReplayWindow, ValueTargetMixesTheResultWithTheSearchValue) {
  const GameSpec spec{Variant::kQuax, 4, true};
  const auto dir = temp_dir("value_mix");
  write_shard(dir + "/shard-1000000000000-t-000000.qxs", play_games(spec, 8, 21));
  std::vector<TrainingBatch> batches(3);
  const double weights[3] = {0.0, 1.0, 0.25};
  for (int i = 0; i < 3; ++i) {
    ReplayConfig rc;
    rc.root_value_weight = weights[i];
    ReplayWindow window(spec, rc);
    window.ingest_new(dir);
    Rng rng(5);
    window.sample(64, rng, &batches[i]);
  }
  int searched = 0;
  for (int b = 0; b < 64; ++b) {
    const float result = batches[0].value[b], root = batches[1].value[b];
    EXPECT_TRUE(result == 1.0f || result == -1.0f || result == 0.0f);
    if (root != result) ++searched;
    EXPECT_FLOAT_EQ(batches[2].value[b], 0.75f * result + 0.25f * root);
  }
  EXPECT_GT(searched, 32);  // weight 1 gives the search's values, not the results
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quax
