// The learner's optimizer: weight decay reaches the convolution and linear weights and
// nothing else, and a checkpoint written when every parameter sat in one optimizer group
// resumes with its momentum.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>

#include "nets/model.h"
#include "nets/model_file.h"
#include "train/learner.h"
#include "train/learner_internal.h"
#include "ml_tiny_config.h"

namespace quax {
namespace {

std::vector<std::pair<std::string, torch::Tensor>> parameters_after_one_step(double weight_decay) {
  TrainConfig c = tiny_net_config();
  c.learn.batch_size = 8;
  c.learn.lr_warmup_steps = 0;
  c.learn.weight_decay = weight_decay;
  Learner learner(c);
  EXPECT_FALSE(learner.train_step(random_batch(c, 8, 3)).skipped);
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& p : learner_module(learner).named_parameters(false)) out.emplace_back(p.name, p.value.clone());
  return out;
}

// Two learners that differ only in learn.weight_decay take the same step: the weights part,
// the gains and biases do not.
TEST(Optimizer, WeightDecayReachesTheWeightsOnly) {
  torch::set_num_threads(1);
  const auto plain = parameters_after_one_step(0.0);
  const auto decayed = parameters_after_one_step(0.5);
  ASSERT_EQ(plain.size(), decayed.size());
  int weights = 0, others = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    const std::string& name = plain[i].first;
    ASSERT_EQ(name, decayed[i].first);
    const bool weight = name.size() > 2 && name.compare(name.size() - 2, 2, "_w") == 0;
    const bool same = torch::equal(plain[i].second, decayed[i].second);
    if (weight) {
      ++weights;
      EXPECT_FALSE(same) << name << " was not decayed";
    } else {
      ++others;
      EXPECT_TRUE(same) << name << " (a gain or bias) was decayed";
    }
  }
  EXPECT_GT(weights, 5);
  EXPECT_GT(others, 5);
}

// tests/data/checkpoints/one-group-sgd-quax4.pt was written before the weight-decay groups.
TEST(Optimizer, AOneGroupCheckpointResumesWithItsMomentum) {
  torch::set_num_threads(1);
  const std::string path = std::string(QUAX_SOURCE_DIR) + "/tests/data/checkpoints/one-group-sgd-quax4.pt";
  const TrainConfig c = checkpoint_config(path);
  Learner learner(c);
  const size_t weights_only = learner.flat_state().size();
  learner.load_checkpoint(path);
  EXPECT_EQ(learner.step(), 1680);

  // What the file's one group holds, read by an optimizer of that shape over the same tensors
  // and listed in the learner's order (decayed group, then the other).
  torch::serialize::InputArchive archive, optimizer_archive;
  archive.load_from(path);
  archive.read("optimizer", optimizer_archive);
  torch::jit::Module& module = learner_module(learner);
  torch::optim::SGD one_group(model_parameters(module), torch::optim::SGDOptions(0.1).momentum(0.9));
  one_group.load(optimizer_archive);
  const WeightDecayGroups groups = weight_decay_groups(module);
  std::vector<float> expected;
  for (const auto* part : {&groups.decayed, &groups.not_decayed})
    for (const torch::Tensor& p : *part) {
      const auto* state = optimizer_param_state(one_group, p);
      ASSERT_NE(state, nullptr);
      const auto buffer =
          static_cast<const torch::optim::SGDParamState&>(*state).momentum_buffer().contiguous().view(-1);
      expected.insert(expected.end(), buffer.data_ptr<float>(), buffer.data_ptr<float>() + buffer.numel());
    }
  const std::vector<float> state = learner.flat_state();
  // flat_state: the parameters and BN statistics, then one momentum buffer per parameter.
  ASSERT_EQ(state.size(), weights_only + expected.size()) << "a parameter lost its momentum";
  const std::vector<float> momentum(state.begin() + static_cast<std::ptrdiff_t>(weights_only), state.end());
  EXPECT_EQ(momentum, expected);
  double magnitude = 0;
  for (float m : momentum) magnitude += std::abs(m);
  EXPECT_GT(magnitude, 0.0);

  // And it trains on.
  EXPECT_FALSE(learner.train_step(random_batch(c, 8, 5)).skipped);
  EXPECT_EQ(learner.step(), 1681);
}

}  // namespace
}  // namespace quax

namespace quax {
namespace {

// The tensors of model_state by name, copied.
std::map<std::string, torch::Tensor> state_by_name(const torch::jit::Module& m) {
  std::map<std::string, torch::Tensor> out;
  for (const auto& [name, t] : model_state(m)) out[name] = t.detach().clone();
  return out;
}

// learn.lr_minutes: the learning rate falls along a half cosine over the run's training
// minutes to lr * lr_final_fraction and stays there; the step takes the minutes last set. Off,
// the minutes change nothing.
TEST(LearningRate, FallsAlongAHalfCosineOverTheTrainingMinutes) {
  torch::set_num_threads(1);
  TrainConfig c = tiny_net_config();
  c.learn.batch_size = 8;
  c.learn.lr = 0.02;
  c.learn.lr_warmup_steps = 0;
  c.learn.lr_drops.clear();
  c.learn.lr_minutes = 60;
  c.learn.lr_final_fraction = 0.1;
  Learner learner(c);
  EXPECT_DOUBLE_EQ(learner.lr_at(0, 0), 0.02);
  EXPECT_NEAR(learner.lr_at(0, 30), 0.02 * 0.55, 1e-12);  // cos(pi / 2) = 0: halfway to the floor
  EXPECT_NEAR(learner.lr_at(0, 60), 0.002, 1e-12);
  EXPECT_NEAR(learner.lr_at(0, 600), 0.002, 1e-12);
  for (double m = 1; m <= 60; m += 1) EXPECT_LT(learner.lr_at(0, m), learner.lr_at(0, m - 1)) << m << " minutes";
  learner.set_training_minutes(45);
  const StepMetrics step = learner.train_step(random_batch(c, 8, 3));
  EXPECT_NEAR(step.lr, learner.lr_at(0, 45), 1e-12);
  EXPECT_LT(step.lr, 0.02 * 0.55);
  c.learn.lr_minutes = 0;
  EXPECT_DOUBLE_EQ(Learner(c).lr_at(0, 600), 0.02);
}

// learn.ema_decay: the published model holds the moving average, computed here by hand from
// the weights after each step with the decay min(ema_decay, (1 + step) / (10 + step)); off, it
// holds the weights themselves.
TEST(MovingAverage, PublishedWeightsAreTheAverageOfTheSteps) {
  torch::set_num_threads(1);
  const std::string path = ::testing::TempDir() + "/ema_model.pt";
  for (double decay : {0.0, 0.2}) {
    TrainConfig c = tiny_net_config();
    c.learn.batch_size = 8;
    c.learn.lr_warmup_steps = 0;
    c.learn.lr = 0.5;  // steps big enough that the average and the weights differ plainly
    c.learn.ema_decay = decay;
    Learner learner(c);
    auto expected = state_by_name(learner_module(learner));
    for (int step = 1; step <= 3; ++step) {
      ASSERT_FALSE(learner.train_step(random_batch(c, 8, step)).skipped);
      const double d = decay > 0 ? std::min(decay, (1.0 + step) / (10.0 + step)) : 0.0;
      for (auto& [name, t] : state_by_name(learner_module(learner)))
        expected[name] = t.is_floating_point() ? expected[name] * d + t * (1 - d) : t;
    }
    learner.publish_model(path);
    const auto published = state_by_name(load_model_file(path).module);
    const auto weights = state_by_name(learner_module(learner));
    int compared = 0, apart = 0;
    for (const auto& [name, t] : published) {
      ASSERT_TRUE(expected.count(name)) << name;
      if (!t.is_floating_point()) continue;
      EXPECT_TRUE(torch::allclose(t, expected[name], 1e-5, 1e-6)) << name << " with decay " << decay;
      ++compared;
      if (!torch::allclose(t, weights.at(name), 1e-4, 1e-5)) ++apart;
    }
    EXPECT_GT(compared, 10);
    if (decay > 0)
      EXPECT_GT(apart, compared / 2) << "the average is the weights";
    else
      EXPECT_EQ(apart, 0);
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace quax
