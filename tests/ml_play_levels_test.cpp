// Levels in a player description (`<model>:level=N`) and the choice of the model that plays
// when none is named (nets/default_model.h), on the shipped models.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "arena/match.h"
#include "mcts/play_levels.h"
#include "nets/default_model.h"
#include "nets/model_card.h"
#include "nets/model_file.h"
#include "nets/model_levels.h"
#include "nets/net_evaluator.h"
#include "nets/players.h"

namespace quax {
namespace {

const std::string kCheckpoints = std::string(QUAX_SOURCE_DIR) + "/checkpoints";

TEST(LevelDescription, SetsTheLevelsSearchAndMoveRule) {
  PlayerDescription d;
  std::string error;
  ASSERT_TRUE(parse_player_description("m.pt:level=3", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, default_level_table()[2].simulations);
  EXPECT_EQ(d.search.prior_temperature, default_level_table()[2].prior_temperature);
  ASSERT_TRUE(parse_player_description("m.pt:cpuct=2:level=10", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, 200);
  EXPECT_LT(d.search.prior_temperature, 0.0f);
  EXPECT_EQ(d.search.c_puct, 2.0f);
}

TEST(LevelDescription, BadLevelsAndConflictsAreRefusedInOneLine) {
  PlayerDescription d;
  for (const std::string bad : {"m.pt:level=0", "m.pt:level=11", "m.pt:level=2.5", "m.pt:level=", "m.pt:level=x"}) {
    std::string error;
    EXPECT_FALSE(parse_player_description(bad, &d, &error)) << bad;
    EXPECT_EQ(error, "bad player '" + bad + "': level takes 1 (novice) to 10 (full strength)");
  }
  for (const std::string bad : {"m.pt:level=3:sims=50", "m.pt:sims=50:level=3", "m.pt:time=2:level=3", "m.pt:temp=1:level=3"}) {
    std::string error;
    EXPECT_FALSE(parse_player_description(bad, &d, &error)) << bad;
    EXPECT_EQ(error, "bad player '" + bad + "': level= sets the search's size; give it without sims=, temp= or time=");
  }
}

ModelSummary summary(const std::string& path, int size, std::vector<int> sizes, bool swap = true, int64_t step = 100) {
  return {path, GameSpec{Variant::kQuax, size, swap}, std::move(sizes), step};
}

TEST(DefaultModel, TrainedSizeThenPieRuleThenNearestThenSteps) {
  const std::vector<ModelSummary> models{
      summary("q5", 5, {5}), summary("q7", 7, {7}), summary("q9", 9, {9}),
      summary("q11", 11, {11, 9, 7}, true, 9000), summary("q11-noswap", 11, {11}, false, 20000)};
  auto best = [&](int size, bool swap = true) {
    const ModelSummary* m = best_model_for(models, GameSpec{Variant::kQuax, size, swap});
    return m ? m->path : "";
  };
  EXPECT_EQ(best(5), "q5");
  // q11 was trained at 9 and 7 too, with more steps: a later model of the campaign, which its
  // checks keep from being the weaker where q9 and q7 play.
  EXPECT_EQ(best(9), "q11");
  EXPECT_EQ(best(7), "q11");
  EXPECT_EQ(best(11), "q11");    // q11-noswap has more steps, but another pie rule
  EXPECT_EQ(best(11, false), "q11-noswap");
  // 5 and 7 are as near: the larger; q7 and q11 were both trained at 7: more steps.
  EXPECT_EQ(best(6), "q11");
  EXPECT_EQ(best(4), "q5");
  EXPECT_EQ(best(15), "q11");
  EXPECT_EQ(best_model_for(models, GameSpec{Variant::kHex, 9, false}), nullptr);
}

TEST(DefaultModel, TheShippedModelsPlayTheirVariantsAtEverySize) {
  // The checkpoints directory given twice (another spelling) is read once.
  const auto models = read_model_summaries({kCheckpoints, kCheckpoints + "/."});
  auto best = [&](Variant v, int size) {
    const ModelSummary* m = best_model_for(models, GameSpec{v, size, variant_info(v).swap_by_default});
    return m ? std::filesystem::path(m->path).filename().string() : "";
  };
  int quax = 0;
  for (const auto& m : models) quax += m.spec.variant == Variant::kQuax;
  EXPECT_EQ(quax, 4);  // quax-5, 7, 9 and 11
  EXPECT_EQ(best(Variant::kQuax, 9), "quax-11.pt");  // trained on 11 and 9 from quax-9.pt's weights
  EXPECT_EQ(best(Variant::kQuax, 7), "quax-7.pt");
  EXPECT_EQ(best(Variant::kQuax, 11), "quax-11.pt");
  EXPECT_EQ(best(Variant::kQuax, 13), "quax-11.pt");
  EXPECT_EQ(best(Variant::kQuax, 5), "quax-5.pt");
  EXPECT_EQ(best(Variant::kQuickway, 11), "quickway-11.pt");  // from quax-11.pt's weights
  EXPECT_EQ(best(Variant::kQuickway, 9), "quickway-11.pt");
  EXPECT_EQ(best(Variant::kQuady, 15), "quady-15.pt");
  EXPECT_EQ(best(Variant::kQuady, 9), "quady-15.pt");  // trained on 15 and 9 from quady-9.pt's weights
  EXPECT_EQ(best(Variant::kQuady, 11), "quady-15.pt");
  EXPECT_EQ(best(Variant::kQuady2, 17), "quady2-17.pt");  // trained on 17 and 9 from quady-15.pt's weights
  EXPECT_EQ(best(Variant::kQuady2, 9), "quady2-17.pt");
  EXPECT_EQ(best(Variant::kQuady2, 13), "quady2-17.pt");
  EXPECT_EQ(best(Variant::kQuikQuax, 14), "quikquax-14.pt");  // trained on 14, 10 and 6 from quikquax-6.pt's weights
  EXPECT_EQ(best(Variant::kQuikQuax, 10), "quikquax-14.pt");
  EXPECT_EQ(best(Variant::kQuikQuax, 6), "quikquax-14.pt");
  EXPECT_EQ(best(Variant::kTorax, 9), "torax-9.pt");  // trained on 9 and 5 from torax-5.pt's weights
  EXPECT_EQ(best(Variant::kTorax, 5), "torax-9.pt");  // both trained at 5: the later run's
  EXPECT_EQ(best(Variant::kTorax, 7), "torax-9.pt");
  EXPECT_EQ(best(Variant::kStymie, 8), "stymie-8.pt");
  EXPECT_EQ(best(Variant::kStymie, 5), "stymie-8.pt");  // trained on 8 and 5 from stymie-5.pt's weights
  // hex-11.pt was trained on 11 and 9 with the pie rule, hex-9.pt on 9 without it.
  EXPECT_EQ(best(Variant::kHex, 11), "hex-11.pt");
  EXPECT_EQ(best(Variant::kHex, 9), "hex-11.pt");
  EXPECT_EQ(best(Variant::kHex, 13), "hex-11.pt");
  const ModelSummary* hex9_off = best_model_for(models, GameSpec{Variant::kHex, 9, false});
  ASSERT_NE(hex9_off, nullptr);
  EXPECT_EQ(std::filesystem::path(hex9_off->path).filename().string(), "hex-9.pt");
  EXPECT_EQ(best(Variant::kY, 15), "y-15.pt");  // trained on 15 and 9 from hex-11.pt's weights
  EXPECT_EQ(best(Variant::kY, 9), "y-15.pt");
  EXPECT_EQ(best(Variant::kY, 13), "y-15.pt");
  EXPECT_EQ(best(Variant::kQuadhex, 10), "quadhex-10.pt");  // trained on 10 and 8 from hex-11.pt's weights
  EXPECT_EQ(best(Variant::kQuadhex, 8), "quadhex-10.pt");
  EXPECT_EQ(best(Variant::kQuadhex, 14), "quadhex-10.pt");
  EXPECT_EQ(best(Variant::kCrossway, 19), "crossway-19.pt");  // trained on 19, 13 and 9 from crossway-13.pt
  EXPECT_EQ(best(Variant::kCrossway, 13), "crossway-19.pt");  // both trained at 13: the later run's
  EXPECT_EQ(best(Variant::kCrossway, 15), "crossway-19.pt");  // trained at neither: both 2 from 13; the later run
  EXPECT_EQ(best(Variant::kQuadrex, 19), "quadrex-19.pt");  // trained on 19, 13 and 9 from crossway-19.pt's weights
  EXPECT_EQ(best(Variant::kQuadrex, 9), "quadrex-19.pt");
}

TEST(DefaultModel, LinkPlaysWithQuaxsModelAndSaysSo) {
  // Link is quax under its first name (docs/RULES.md): a quax model plays it, with a warning
  // line, and is its default model while link has none of its own; quickway is refused.
  const auto models = read_model_summaries({kCheckpoints});
  const ModelSummary* m = best_model_for(models, GameSpec{Variant::kLink, 8, false});
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->spec.variant, Variant::kQuax);
  std::vector<std::string> warnings;
  const ModelShape quax9 = model_shape_for(GameSpec{Variant::kQuax, 9, true});
  EXPECT_EQ(check_model_matches(quax9, {9}, GameSpec{Variant::kLink, 9, true}, "q.pt", &warnings), "");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0], "warning: model 'q.pt' was trained on quax, whose rules link shares (docs/RULES.md)");
  EXPECT_EQ(check_model_matches(quax9, {9}, GameSpec{Variant::kQuickway, 9, true}, "q.pt", &warnings),
            "the model is for quax 9x9, not quickway 9x9");
  // A variant's own model comes before one of the same rules, whatever its size.
  std::vector<ModelSummary> both{{"q8", GameSpec{Variant::kQuax, 8, false}, {8}, 9000},
                                 {"l5", GameSpec{Variant::kLink, 5, false}, {5}, 10}};
  EXPECT_EQ(best_model_for(both, GameSpec{Variant::kLink, 8, false})->path, "l5");
  EXPECT_EQ(best_model_for(both, GameSpec{Variant::kQuax, 5, false})->path, "q8");
}

TEST(DefaultModel, ADirectoryThatHoldsNoModelsIsWarnedAbout) {
  std::vector<std::string> lines;
  const auto models = read_model_summaries({kCheckpoints + "/learner/hex_9x9/checkpoints", "/nonexistent-dir"},
                                           [&](const std::string& line) { lines.push_back(line); });
  EXPECT_TRUE(models.empty());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("skipping '"), std::string::npos) << lines[0];  // a learner checkpoint
  EXPECT_NE(lines[1].find("cannot list model directory '/nonexistent-dir'"), std::string::npos) << lines[1];
}

TEST(PlayLevelsWithAModel, LevelTenBeatsLevelOne) {
  // quax-5.pt at its size, colours alternating; level 1 draws its moves from the policy at
  // temperature 2, level 10 searches 200 simulations.
  set_torch_threads(1);
  const GameSpec spec{Variant::kQuax, 5, true};
  const std::string model = kCheckpoints + "/quax-5.pt";
  int top_wins = 0;
  const int games = 10;
  for (int g = 0; g < games; ++g) {
    std::string error;
    auto top = make_player(model + ":level=10", spec, 1 + g, &error);
    auto low = make_player(model + ":level=1", spec, 100 + g, &error);
    ASSERT_TRUE(top && low) << error;
    const bool top_black = g % 2 == 0;
    const GameResult r = play_game(spec, top_black ? *top : *low, top_black ? *low : *top);
    top_wins += (r.outcome == Outcome::kBlackWins) == top_black && r.outcome != Outcome::kDraw;
  }
  EXPECT_GE(top_wins, 9) << "level 10 won " << top_wins << " of " << games;
}

// ---- a model's own levels (nets/model_levels.h) -------------------------------------------

ModelLevels custom_levels() {
  ModelLevels l;
  l.size = 5;
  l.swap = true;
  l.games = 40;
  l.table = {{{1, 3.0f}, {1, 2.0f}, {1, 1.0f}, {1, 0.0f}, {4, -1.0f}, {8, -1.0f}, {16, -1.0f}, {32, -1.0f},
              {64, -1.0f}, {150, -1.0f}}};
  for (int i = 0; i < 10; ++i) l.elo.push_back(150.0 * i);
  return l;
}

// quax-5.pt written again at `path` with `levels` in its description.
void write_with_levels(const std::string& path, const nlohmann::json& levels) {
  LoadedModel m = load_model_file(kCheckpoints + "/quax-5.pt");
  m.description["levels"] = levels;
  // Written raw: the levels may be ones that save_model_file's check refuses.
  m.module.save(path, torch::jit::ExtraFilesMap{{"quax.json", m.description.dump()}});
}

TEST(ModelLevels, RoundTripThroughJson) {
  const ModelLevels l = custom_levels();
  const ModelLevels back = model_levels_from_json(model_levels_json(l));
  EXPECT_EQ(back.table, l.table);
  EXPECT_EQ(back.elo, l.elo);
  EXPECT_EQ(back.size, 5);
  EXPECT_TRUE(back.swap);
  EXPECT_EQ(back.games, 40);
}

TEST(ModelLevels, ADamagedTableIsNamedInOneLine) {
  const nlohmann::json good = model_levels_json(custom_levels());
  auto error_of = [](const nlohmann::json& j) {
    try {
      model_levels_from_json(j);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(error_of(nlohmann::json::array()), "levels is not a JSON object");
  nlohmann::json j = good;
  j["table"].erase(3);
  EXPECT_EQ(error_of(j), "levels: 'table' is not a list of 10 levels");
  j = good;
  j["table"][2]["sims"] = 0;
  EXPECT_EQ(error_of(j), "levels: level 3: 'sims' 0 is not in [1, 100000]");
  j = good;
  j["table"][4]["temperature"] = "hot";
  EXPECT_EQ(error_of(j), "levels: level 5: 'temperature' is not a number");
  j = good;
  j["table"][9]["temperature"] = 0.5;
  EXPECT_EQ(error_of(j), "levels: level 10 must play the search's move (temperature -1)");
  j = good;
  j["table"][6]["elo"] = "high";
  EXPECT_EQ(error_of(j), "levels: level 7: 'elo' is not a number");
  j = good;
  j.erase("swap");
  EXPECT_EQ(error_of(j), "levels: 'swap' is not true or false");
}

TEST(ModelLevels, AModelsOwnTablePlaysItsLevelsEverywhere) {
  const std::string dir = ::testing::TempDir();
  const std::string own = dir + "/quax5-levels.pt", bad = dir + "/quax5-bad-levels.pt";
  write_with_levels(own, model_levels_json(custom_levels()));
  nlohmann::json damaged = model_levels_json(custom_levels());
  damaged["table"][0]["sims"] = -3;
  write_with_levels(bad, damaged);

  PlayerDescription d;
  std::string error;
  ASSERT_TRUE(parse_player_description(own + ":level=5", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, 4);
  EXPECT_LT(d.search.prior_temperature, 0.0f);
  ASSERT_TRUE(parse_player_description(own + ":level=2", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, 1);
  EXPECT_EQ(d.search.prior_temperature, 2.0f);
  ASSERT_TRUE(parse_player_description(own + ":level=10", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, 150);
  // The shipped model carries none: the default table.
  ASSERT_TRUE(parse_player_description(kCheckpoints + "/quax-5.pt:level=5", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, default_level_table()[4].simulations);
  EXPECT_EQ(d.search.prior_temperature, default_level_table()[4].prior_temperature);

  // The loader checks the levels as the rest of the description; the player refuses the file.
  try {
    load_model_file(bad);
    FAIL() << "a damaged levels table was accepted";
  } catch (const BadModelDescription& e) {
    EXPECT_NE(std::string(e.what()).find("levels: level 1: 'sims' -3 is not in [1, 100000]"), std::string::npos) << e.what();
  }
  EXPECT_EQ(level_table_of(bad), default_level_table());
  EXPECT_EQ(make_player(bad + ":level=5", GameSpec{Variant::kQuax, 5, true}, 1, &error), nullptr);
  EXPECT_NE(error.find("levels: level 1"), std::string::npos) << error;

  // The card lists them, with their Elo.
  const auto card = model_card(own, load_model_file(own));
  const auto has = [&](const std::string& line) { return std::find(card.begin(), card.end(), line) != card.end(); };
  EXPECT_TRUE(has("levels: measured at 5x5 (pie rule), 40 games between neighbouring settings"));
  EXPECT_TRUE(has("  level  2 beginner       the policy at temperature 2, Elo 150"));
  EXPECT_TRUE(has("  level  4 club           the policy's move, Elo 450"));
  EXPECT_TRUE(has("  level 10 full strength  150 simulations, Elo 1350"));
}

}  // namespace
}  // namespace quax
