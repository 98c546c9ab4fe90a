// NaN and inf must not spread (a diverged run, a damaged file): a model with non-finite
// outputs is refused at load naming the file; one that slips past the probe still lets a
// timed search answer in time, with one warning per model; the learner skips steps whose
// loss is not finite without touching its state and stops after learn.max_nonfinite_steps
// in a row; such a model is never published; self-play keeps the last good model.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "mcts/search_agent.h"
#include "nets/model.h"
#include "nets/model_agent.h"
#include "nets/model_file.h"
#include "nets/net_evaluator_internal.h"
#include "train/learner_internal.h"
#include "train/model_follower.h"
#include "train/model_publisher.h"
#include "watchdog.h"
#include "ml_tiny_config.h"

namespace quax {
namespace {

namespace fs = std::filesystem;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

TrainConfig tiny_config() {
  TrainConfig c = tiny_net_config();
  c.learn.batch_size = 8;
  c.learn.lr_warmup_steps = 0;
  c.selfplay.precision = Precision::kFloat32;
  return c;
}

std::string temp_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("quax_nonfinite_" + name + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

// Fills the parameter `name` of `model` with `value` (as a diverged run or a damaged file
// would leave it). valout_b: the value head's last bias; polout_b: the policy head's.
void fill_parameter(torch::jit::Module& model, const std::string& name, float value) {
  torch::NoGradGuard no_grad;
  model.attr(name).toTensor().fill_(value);
}

std::string model_file(const TrainConfig& c, const std::string& dir, const std::string& name, uint64_t seed,
                       const std::string& broken_parameter = "", float value = 0.0f) {
  const ModelShape shape = model_shape_for(c.game);
  auto model = build_model(c.net, shape, seed);
  if (!broken_parameter.empty()) fill_parameter(model, broken_parameter, value);
  const std::string path = dir + "/" + name;
  save_model_file(model, model_description(shape, c.net, 0), path);
  return path;
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(NonFiniteModel, IsRefusedAtLoadWithOneLineNamingTheFile) {
  const TrainConfig c = tiny_config();
  const auto dir = temp_dir("load");
  const auto good = model_file(c, dir, "good.pt", 1);
  EXPECT_NO_THROW(load_inference_model(good, c.game));
  for (const auto& [parameter, value] : {std::pair{"valout_b", kNaN}, std::pair{"polout_b", kInf}}) {
    SCOPED_TRACE(parameter);
    const auto bad = model_file(c, dir, std::string(parameter) + ".pt", 1, parameter, value);
    try {
      load_inference_model(bad, c.game);
      FAIL() << "loaded a model with non-finite outputs";
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      EXPECT_NE(msg.find("model '" + bad + "'"), std::string::npos) << msg;
      EXPECT_NE(msg.find("non-finite outputs"), std::string::npos) << msg;
    }
    // The player gtp, play, the arena and gating build: refused the same way.
    std::string error;
    EXPECT_EQ(make_model_agent(bad, c.game, SearchSettings{}, 1, &error, 1.0), nullptr);
    EXPECT_NE(error.find(bad), std::string::npos) << error;
  }
  fs::remove_all(dir);
}

// A model that gets past the probe (here: built in memory, which skips it) and gives NaN
// on the positions searched: a timed genmove still answers within its time, with a legal
// move, and the model is warned about once, however many searches and evaluators use it.
TEST(NonFiniteModel, PastTheProbeATimedSearchAnswersInTimeAndWarnsOnce) {
  torch::set_num_threads(1);
  const TrainConfig c = tiny_config();
  auto module = build_model(c.net, model_shape_for(c.game), 3);
  fill_parameter(module, "valout_b", kNaN);
  fill_parameter(module, "polout_b", kNaN);
  const auto model = make_inference_model(module, model_shape_for(c.game), 77, Precision::kFloat32);
  ASSERT_NE(probe_model_outputs(*model), "");
  SearchSettings s;
  s.leaves_per_batch = 4;
  constexpr double kSeconds = 0.3;
  testing::internal::CaptureStderr();
  for (int agent_index = 0; agent_index < 2; ++agent_index) {
    SearchAgent agent("nan", std::make_shared<NetEvaluator>(model), s, 5, kSeconds);
    auto state = new_game(c.game);
    for (int move = 0; move < 2; ++move) {
      const auto t0 = std::chrono::steady_clock::now();
      const int action = within(20, "a timed search on a NaN model", [&] { return agent.choose_action(*state); });
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      EXPECT_LT(elapsed, kSeconds + 0.7);
      ASSERT_TRUE(state->is_legal(action));
      EXPECT_GT(agent.last_tree()->nonfinite_evaluations(), 0);
      state->apply(action);
    }
  }
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(count(err, "warning:"), 1) << err;
  EXPECT_NE(err.find("the model of step 77 gives non-finite outputs"), std::string::npos) << err;
}

bool all_finite(const std::vector<float>& v) {
  for (float x : v)
    if (!std::isfinite(x)) return false;
  return true;
}

TEST(NonFiniteTraining, NaNTargetsSkipTheStepAndLeaveTheStateUnchanged) {
  torch::set_num_threads(1);
  const TrainConfig c = tiny_config();
  Learner learner(c);
  ASSERT_FALSE(learner.train_step(random_batch(c, 8, 1)).skipped);  // momentum buffers exist now
  const auto before = learner.flat_state();
  ASSERT_TRUE(all_finite(before));
  TrainingBatch nan_value = random_batch(c, 8, 2);
  nan_value.value[3] = kNaN;
  TrainingBatch nan_policy = random_batch(c, 8, 3);
  for (int a = 0; a < nan_policy.actions; ++a)
    if (nan_policy.mask[a]) nan_policy.policy[a] = kNaN;
  int skipped = 0;
  for (const TrainingBatch* b : {&nan_value, &nan_policy}) {
    const StepMetrics m = learner.train_step(*b);
    EXPECT_TRUE(m.skipped);
    EXPECT_EQ(learner.step(), 1);
    EXPECT_EQ(learner.nonfinite_steps_in_a_row(), ++skipped);
    // Weights, BN statistics (moved by the forward pass) and momentum: all as before.
    EXPECT_EQ(learner.flat_state(), before);
  }
  const StepMetrics good = learner.train_step(random_batch(c, 8, 4));
  EXPECT_FALSE(good.skipped);
  EXPECT_EQ(learner.step(), 2);
  EXPECT_EQ(learner.nonfinite_steps_in_a_row(), 0);
  EXPECT_NE(learner.flat_state(), before);
  EXPECT_TRUE(all_finite(learner.flat_state()));
}

TEST(NonFiniteTraining, StopsAfterMaxStepsInARowWithTheLastGoodStateIntact) {
  torch::set_num_threads(1);
  TrainConfig c = tiny_config();
  c.learn.max_nonfinite_steps = 3;
  const auto dir = temp_dir("stop");
  Learner learner(c);
  learner.train_step(random_batch(c, 8, 1));
  const auto ckpt = checkpoint_path(dir, learner.step());
  learner.save_checkpoint(ckpt, RunState{});
  const auto good_state = learner.flat_state();
  TrainingBatch bad = random_batch(c, 8, 2);
  bad.value.assign(bad.value.size(), kNaN);
  // Two skips, then a good step: the count starts again.
  EXPECT_TRUE(learner.train_step(bad).skipped);
  EXPECT_TRUE(learner.train_step(bad).skipped);
  EXPECT_FALSE(learner.train_step(random_batch(c, 8, 3)).skipped);
  const auto last_good = learner.flat_state();
  EXPECT_TRUE(learner.train_step(bad).skipped);
  EXPECT_TRUE(learner.train_step(bad).skipped);
  try {
    learner.train_step(bad);
    FAIL() << "a third non-finite step in a row did not stop the learner";
  } catch (const NonFiniteTrainingError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(msg.find("3 training steps in a row had a non-finite loss"), std::string::npos) << msg;
    EXPECT_NE(msg.find("learn.max_nonfinite_steps"), std::string::npos) << msg;
  }
  EXPECT_EQ(learner.step(), 2);
  EXPECT_EQ(learner.flat_state(), last_good);
  // The checkpoint written before loads, finite, as it was.
  Learner resumed(c);
  resumed.load_checkpoint(ckpt);
  EXPECT_EQ(resumed.flat_state(), good_state);
  EXPECT_TRUE(all_finite(resumed.flat_state()));
  fs::remove_all(dir);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(NonFinitePublishing, AModelWithNonFiniteOutputsIsNotPublished) {
  torch::set_num_threads(1);
  const TrainConfig c = tiny_config();
  const auto dir = temp_dir("publish");
  Learner learner(c);
  ModelSlot slot;
  ASSERT_EQ(publish_model_if_sound(learner, dir + "/models/model-0.pt", dir + "/model.pt", slot), "");
  ASSERT_TRUE(fs::exists(dir + "/models/model-0.pt"));
  const auto published = file_bytes(dir + "/model.pt");
  EXPECT_EQ(published, file_bytes(dir + "/models/model-0.pt"));
  const auto good_model = slot.get();
  ASSERT_NE(good_model, nullptr);
  EXPECT_EQ(slot.version(), 1);

  fill_parameter(learner_module(learner), "valout_b", kNaN);
  const std::string refused = publish_model_if_sound(learner, dir + "/models/model-1.pt", dir + "/model.pt", slot);
  EXPECT_NE(refused.find("not published"), std::string::npos) << refused;
  EXPECT_NE(refused.find("non-finite outputs"), std::string::npos) << refused;
  EXPECT_EQ(refused.find('\n'), std::string::npos) << refused;
  EXPECT_FALSE(fs::exists(dir + "/models/model-1.pt"));
  EXPECT_EQ(file_bytes(dir + "/model.pt"), published);
  EXPECT_EQ(slot.version(), 1);
  EXPECT_EQ(slot.get(), good_model);
  fs::remove_all(dir);
}

// `quax selfplay` follows <run>/models: a newer file with NaN outputs is passed over with
// one warning naming it, and the last good model stays in use; a later good one is taken.
TEST(NonFiniteFollower, SelfplayKeepsTheLastGoodModel) {
  const TrainConfig c = tiny_config();
  const auto dir = temp_dir("follow");
  const auto first = model_file(c, dir, "model-1.pt", 1);
  const auto broken = model_file(c, dir, "model-2.pt", 2, "valout_b", kNaN);
  const auto later = model_file(c, dir, "model-3.pt", 3);
  ModelFollower follower(c.game, Precision::kFloat32);
  ModelSlot slot;
  EXPECT_TRUE(follower.offer(first, slot));
  const auto good = slot.get();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(follower.offer(broken, slot));
  EXPECT_FALSE(follower.offer(broken, slot));  // polled again: no second warning
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(slot.get(), good);
  EXPECT_EQ(slot.version(), 1);
  EXPECT_EQ(count(err, "\n"), 1) << err;
  EXPECT_NE(err.find("warning: self-play keeps the model " + first), std::string::npos) << err;
  EXPECT_NE(err.find(broken), std::string::npos) << err;
  EXPECT_FALSE(follower.offer(first, slot));  // already in use
  EXPECT_TRUE(follower.offer(later, slot));
  EXPECT_NE(slot.get(), good);
  EXPECT_EQ(slot.version(), 2);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
