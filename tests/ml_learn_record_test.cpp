// The learner's metrics record (train/learn_record.h): the mean of the steps since the last
// record, every auxiliary loss under its own name, the skipped steps, where the learner's thread
// spent its time, and a fresh start after each record.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "core/thread_time.h"
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

TEST(LearnRecord, SharesTheSpanBetweenWhatTheLearnerDidAndReadsItsThreadsCpuTime) {
  using Clock = std::chrono::steady_clock;
  using Phase = LearnRecord::Phase;
  const TrainConfig config;
  ReplayWindows windows(config.game_specs(), config.game_weights(), config.replay, false);
  RunControl control;
  const auto start = Clock::now();
  LearnRecord record(config, windows, control);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // wall time without CPU time
  const double cpu0 = thread_cpu_seconds();
  while (thread_cpu_seconds() - cpu0 < 0.1) {
  }
  record.add_time(Phase::kWait, 0.1);
  record.add_time(Phase::kTrain, 0.04);
  record.add_time(Phase::kTrain, 0.02);
  record.add_time(Phase::kUpkeep, 0.01);
  record.add_step(step(1.0, 0.1, 0.1), 0);
  const nlohmann::json t = record.take(1, windows)["learner_time"];
  const double span = std::chrono::duration<double>(Clock::now() - start).count();  // >= the record's
  EXPECT_DOUBLE_EQ(t["train"].get<double>() / t["wait"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(t["upkeep"].get<double>() / t["wait"].get<double>(), 0.1);
  EXPECT_EQ(t["sample"].get<double>(), 0.0);
  EXPECT_GE(t["wait"].get<double>(), 0.1 / span);
  EXPECT_LE(t["wait"].get<double>(), 0.1 / 0.3);  // the span was at least 200 + 100 ms
  // The thread burnt 0.1 s of CPU in a span of at least 0.3 s, most of it asleep.
  EXPECT_GE(t["cpu"].get<double>(), 0.1 / span);
  EXPECT_LT(t["cpu"].get<double>(), 0.5);

  record.add_step(step(1.0, 0.1, 0.1), 0);
  const nlohmann::json next = record.take(2, windows)["learner_time"];
  for (const char* phase : {"sample", "train", "upkeep", "wait"}) EXPECT_EQ(next[phase].get<double>(), 0.0) << phase;
}

}  // namespace
}  // namespace quax
