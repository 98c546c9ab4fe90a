// learn.precision: bf16 runs the learner's forward and backward passes under LibTorch's CPU
// autocast with float32 master weights. One step moves the loss and the weights as a float32
// step does, within the rounding of bfloat16; a tiny net learns a task in bf16; a CPU that
// cannot run bf16 convolutions refuses the setting in one line.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>

#include "nets/net_config.h"
#include "train/learner.h"
#include "ml_tiny_config.h"

namespace quax {
namespace {

TrainConfig config_in(Precision precision, int size = 5) {
  TrainConfig c = tiny_net_config(size);
  c.net.blocks = 2;
  c.net.filters = 16;
  c.learn.lr_warmup_steps = 0;
  c.learn.precision = precision;
  return c;
}

// A task with one right answer per position, so that it can be learnt to a small loss:
// the policy target is the first legal action, the value +1 when the position's first plane
// holds an even number of stones, else -1.
TrainingBatch task_batch(const TrainConfig& c, int size, uint64_t seed) {
  TrainingBatch b = random_batch(c, size, seed);
  const size_t per = static_cast<size_t>(b.planes) * b.n * b.n;
  for (int i = 0; i < size; ++i) {
    float* policy = b.policy.data() + static_cast<size_t>(i) * b.actions;
    const uint8_t* mask = b.mask.data() + static_cast<size_t>(i) * b.actions;
    bool first = true;
    for (int a = 0; a < b.actions; ++a) {
      policy[a] = (mask[a] && first) ? 1.0f : 0.0f;
      if (mask[a]) first = false;
    }
    float stones = 0;
    for (int cell = 0; cell < b.n * b.n; ++cell) stones += b.inputs[i * per + cell];
    b.value[i] = static_cast<int>(stones) % 2 == 0 ? 1.0f : -1.0f;
  }
  return b;
}

bool bf16_runs_here() {
  if (cpu_runs_bfloat16()) return true;
  // Where it cannot run, what is checked is the refusal.
  try {
    Learner refused(config_in(Precision::kBFloat16));
    ADD_FAILURE() << "learn.precision bf16 accepted on a CPU without AVX-512";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("learn.precision bf16 needs a CPU with AVX-512"), std::string::npos) << e.what();
  }
  return false;
}

TEST(BFloat16Learner, OneStepMovesLossAndWeightsAsFloat32Does) {
  if (!bf16_runs_here()) return;
  torch::set_num_threads(1);
  const TrainingBatch batch = random_batch(config_in(Precision::kFloat32), 64, 5);
  Learner fp32(config_in(Precision::kFloat32));
  Learner bf16(config_in(Precision::kBFloat16));
  const std::vector<float> start = fp32.flat_state();
  ASSERT_EQ(bf16.flat_state(), start) << "the precision must not change the initial weights";

  const StepMetrics a0 = fp32.train_step(batch);
  const StepMetrics b0 = bf16.train_step(batch);
  ASSERT_FALSE(a0.skipped);
  ASSERT_FALSE(b0.skipped);
  // The forward passes agree to bfloat16's rounding (8 bits of mantissa: ~0.4% per product).
  EXPECT_NEAR(b0.loss, a0.loss, 0.02 * a0.loss);
  EXPECT_NE(b0.loss, a0.loss) << "a bf16 learner that silently ran in float32 would match exactly";

  // The updates point the same way and have the same length.
  const std::vector<float> wa = fp32.flat_state(), wb = bf16.flat_state();
  double dot = 0, na = 0, nb = 0;
  for (size_t i = 0; i < start.size(); ++i) {
    const double da = wa[i] - start[i], db = wb[i] - start[i];
    dot += da * db, na += da * da, nb += db * db;
  }
  ASSERT_GT(na, 0);
  const double cosine = dot / std::sqrt(na * nb);
  EXPECT_GT(cosine, 0.98) << "update directions differ";
  EXPECT_NEAR(std::sqrt(nb / na), 1.0, 0.05) << "update lengths differ";

  // The next loss on the same batch falls by about as much in both.
  const double fall_a = a0.loss - fp32.train_step(batch).loss;
  const double fall_b = b0.loss - bf16.train_step(batch).loss;
  ASSERT_GT(fall_a, 0);
  EXPECT_NEAR(fall_b, fall_a, 0.25 * fall_a + 0.01 * a0.loss);
  // The master weights stay float32: the checkpointed state is as long in both.
  EXPECT_EQ(bf16.flat_state().size(), fp32.flat_state().size());
}

TEST(BFloat16Learner, ATinyNetLearnsATask) {
  if (!bf16_runs_here()) return;
  torch::set_num_threads(1);
  TrainConfig c = config_in(Precision::kBFloat16);
  c.learn.lr = 0.05;
  c.learn.weight_decay = 0;
  const TrainingBatch batch = task_batch(c, 32, 17);
  Learner learner(c);
  const StepMetrics first = learner.train_step(batch);
  StepMetrics last;
  for (int step = 0; step < 300; ++step) last = learner.train_step(batch);
  ASSERT_FALSE(last.skipped);
  EXPECT_LT(last.policy_loss, 0.1 * first.policy_loss) << "first " << first.policy_loss << " last " << last.policy_loss;
  EXPECT_LT(last.value_loss, 0.1 * first.value_loss) << "first " << first.value_loss << " last " << last.value_loss;
  EXPECT_GE(last.value_accuracy, 0.95);
}

}  // namespace
}  // namespace quax
