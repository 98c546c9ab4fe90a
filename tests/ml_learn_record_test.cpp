// The learner's metrics record (train/learn_record.h): the mean of the steps since the last
// record, every auxiliary loss under its own name, the skipped steps, and a fresh start after
// each record.
#include <gtest/gtest.h>

#include "train/config.h"
#include "train/learn_record.h"
#include "train/replay_windows.h"
#include "train/run_control.h"

namespace quax {
namespace {

StepMetrics step(double loss, double ownership, double lr) {
  StepMetrics m;
  m.loss = loss;
  m.policy_loss = loss / 2;
  m.value_loss = loss / 4;
  m.aux_losses["ownership_loss"] = ownership;
  m.lr = lr;
  return m;
}

TEST(LearnRecord, MeansTheStepsSinceTheLastRecordAndStartsOver) {
  const TrainConfig config;
  ReplayWindows windows(config.game_specs(), config.game_weights(), config.replay, false);
  RunControl control;
  LearnRecord record(config, windows, control);
  record.add_step(step(2.0, 0.4, 0.1), 0);
  record.add_skipped(0);
  record.add_step(step(4.0, 0.8, 0.05), 0);
  const nlohmann::json first = record.take(7, windows);
  EXPECT_EQ(first["kind"], "learn");
  EXPECT_EQ(first["step"], 7);
  EXPECT_DOUBLE_EQ(first["loss"].get<double>(), 3.0);
  EXPECT_DOUBLE_EQ(first["policy_loss"].get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(first["value_loss"].get<double>(), 0.75);
  EXPECT_DOUBLE_EQ(first["ownership_loss"].get<double>(), 0.6);
  EXPECT_FALSE(first.contains("soft_policy_loss"));   // no such head: no such metric
  EXPECT_DOUBLE_EQ(first["lr"].get<double>(), 0.05);  // the last step's
  EXPECT_EQ(first["nonfinite_steps"], 1);
  EXPECT_FALSE(first.contains("selfplay_games_per_s"));  // no self-play in this process
  EXPECT_FALSE(first.contains("by_size"));               // one size

  record.add_step(step(1.0, 0.2, 0.05), 0);
  control.games = 5;
  const nlohmann::json second = record.take(8, windows);
  EXPECT_DOUBLE_EQ(second["loss"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(second["ownership_loss"].get<double>(), 0.2);
  EXPECT_EQ(second["nonfinite_steps"], 0);
  EXPECT_GT(second["selfplay_games_per_s"].get<double>(), 0.0);
}

TEST(LearnRecord, CountsEachSizesBatchesInARunOfSeveralSizes) {
  TrainConfig config;
  config.sizes = {5, 7};
  ReplayWindows windows(config.game_specs(), config.game_weights(), config.replay, false);
  RunControl control;
  LearnRecord record(config, windows, control);
  record.add_step(step(1.0, 0.1, 0.1), 1);
  record.add_skipped(1);
  record.add_step(step(1.0, 0.1, 0.1), 0);
  const nlohmann::json j = record.take(3, windows);
  ASSERT_EQ(j["by_size"].size(), 2u);
  EXPECT_EQ(j["by_size"][0]["size"], 5);
  EXPECT_EQ(j["by_size"][0]["batches"], 1);
  EXPECT_EQ(j["by_size"][1]["batches"], 2);  // a skipped step's batch was drawn too
  record.add_step(step(1.0, 0.1, 0.1), 1);
  EXPECT_EQ(record.take(4, windows)["by_size"][1]["batches"], 1);
}

}  // namespace
}  // namespace quax
