// Gating games of the training loop: counts, colours and the side each result goes to,
// refused inputs.
#include <gtest/gtest.h>

#include <filesystem>

#include "nets/model.h"
#include "nets/model_file.h"
#include "train/config.h"
#include "train/gating.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string tiny_model_file(const TrainConfig& c, uint64_t seed) {
  const ModelShape shape = model_shape_for(c.game);
  const auto path = (fs::temp_directory_path() / ("quax_gating_" + std::to_string(seed) + ".pt")).string();
  save_model_file(build_model(c.net, shape, seed), model_description(shape, c.net, 0), path);
  return path;
}

TrainConfig tiny_config() {
  TrainConfig c = parse_config(
      "game: {variant: quax, size: 4}\n"
      "net: {blocks: 1, filters: 8, policy_channels: 4, value_channels: 4, value_hidden: 8}\n"
      "gating: {games: 6, opponent: random, simulations: 8}\n",
      "test.yaml");
  return c;
}

TEST(Gating, PlaysTheConfiguredGamesColourBalanced) {
  const TrainConfig c = tiny_config();
  const auto model = tiny_model_file(c, 1);
  const auto j = play_gating_games(c, 42, model, "");
  EXPECT_EQ(j["kind"], "gating");
  EXPECT_EQ(j["step"], 42);
  EXPECT_EQ(j["opponent"], "random");
  EXPECT_EQ(j["games"].get<double>(), 6);
  EXPECT_EQ(j["wins"].get<double>() + j["losses"].get<double>() + j["draws"].get<double>(), 6);
  EXPECT_DOUBLE_EQ(j["score"].get<double>(), (j["wins"].get<double>() + 0.5 * j["draws"].get<double>()) / 6);
  fs::remove(model);
}

// The new model plays both colours, half the games each, and each result goes to the side
// that played it: the shipped quax 5x5 model beats a random player as black and as white;
// a result credited to the wrong side would show up as losses of the colour it played.
TEST(Gating, NewModelPlaysBothColoursAndEachResultGoesToItsSide) {
  const TrainConfig c = parse_config(
      "game: {variant: quax, size: 5}\n"
      "gating: {games: 8, opponent: random, simulations: 16}\n",
      "test.yaml");
  const auto j = play_gating_games(c, 1, std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-5.pt", "");
  const auto& black = j["as_black"];
  const auto& white = j["as_white"];
  EXPECT_EQ(black["games"].get<double>(), 4);
  EXPECT_EQ(white["games"].get<double>(), 4);
  for (const char* key : {"wins", "losses", "draws"})
    EXPECT_EQ(black[key].get<double>() + white[key].get<double>(), j[key].get<double>()) << key;
  EXPECT_GE(black["wins"].get<double>(), 3) << j.dump();
  EXPECT_GE(white["wins"].get<double>(), 3) << j.dump();
  EXPECT_GE(j["score"].get<double>(), 0.75) << j.dump();
}

TEST(Gating, AgainstThePreviousModelAndRefusingAMissingOne) {
  TrainConfig c = tiny_config();
  c.gating.opponent = "previous";
  c.gating.games = 2;
  const auto a = tiny_model_file(c, 2), b = tiny_model_file(c, 3);
  const auto j = play_gating_games(c, 10, b, a);
  EXPECT_EQ(j["opponent"], "previous");
  EXPECT_EQ(j["wins"].get<double>() + j["losses"].get<double>() + j["draws"].get<double>(), 2);
  try {
    play_gating_games(c, 11, b, "/nonexistent/model.pt");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/model.pt"), std::string::npos) << e.what();
  }
  fs::remove(a);
  fs::remove(b);
}

TEST(Gating, ConfigRefusesAnUnknownOpponentNamingTheKey) {
  try {
    parse_config("gating:\n  opponent: strongest\n", "test.yaml");
    FAIL() << "expected an error";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'gating.opponent'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace quax
