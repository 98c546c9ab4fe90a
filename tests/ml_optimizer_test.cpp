// The learner's optimizer: weight decay reaches the convolution and linear weights and
// nothing else, and a checkpoint written when every parameter sat in one optimizer group
// resumes with its momentum.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>

#include "nets/model.h"
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
