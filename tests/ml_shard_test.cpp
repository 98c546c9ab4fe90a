// Shards: games written and read back unchanged; damaged files refused with their name.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "mcts/simple_evaluators.h"
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

}  // namespace
}  // namespace quax
