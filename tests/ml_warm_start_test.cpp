// run.init_from: a fresh learner takes the weights of a model file or a checkpoint of another
// size (or a variant of the same shapes), keeps its fresh optimizer and step, and refuses a
// source of another shape without changing anything; a net of more residual blocks starts as
// the source's function.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>

#include "nets/model.h"
#include "nets/model_file.h"
#include "train/learner.h"
#include "ml_tiny_config.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

struct WarmStart : ::testing::Test {
  void SetUp() override {
    torch::set_num_threads(1);
    dir = (fs::temp_directory_path() / ("quax_warm_" + std::to_string(::getpid()))).string();
    fs::remove_all(dir);
    fs::create_directories(dir);
    source_config = tiny_net_config(4);
    source_config.learn.lr_warmup_steps = 0;
    Learner source(source_config);
    for (int i = 0; i < 5; ++i) source.train_step(random_batch(source_config, 16, 40 + i));
    source_weights = Learner(source_config).flat_state().size();
    trained = source.flat_state();
    trained.resize(source_weights);  // without the momentum buffers
    checkpoint = dir + "/ckpt.pt";
    source.save_checkpoint(checkpoint, RunState{});
    model = dir + "/model.pt";
    source.publish_model(model);
  }
  void TearDown() override { fs::remove_all(dir); }

  std::string dir, checkpoint, model;
  TrainConfig source_config;
  size_t source_weights = 0;
  std::vector<float> trained;
};

TEST_F(WarmStart, AnotherSizeStartsFromACheckpointOrAModelFile) {
  for (const std::string& path : {checkpoint, model}) {
    TrainConfig five = tiny_net_config(5);
    Learner learner(five);
    ASSERT_NE(learner.flat_state(), trained);
    const std::string what = learner.init_from(path);
    EXPECT_NE(what.find("quax 4x4"), std::string::npos) << what;
    EXPECT_NE(what.find("step 5"), std::string::npos) << what;
    EXPECT_EQ(learner.flat_state(), trained) << path;  // the weights and statistics, no momentum
    EXPECT_EQ(learner.step(), 0);
    EXPECT_EQ(learner.lr_at(0), Learner(five).lr_at(0));
    EXPECT_FALSE(learner.train_step(random_batch(five, 16, 3)).skipped);
  }
}

TEST_F(WarmStart, AuxiliaryHeadsTheSourceLacksStayFresh) {
  TrainConfig with_head = tiny_net_config(4);
  with_head.net.ownership_head = true;
  Learner learner(with_head);
  const std::vector<float> before = learner.flat_state();
  learner.init_from(model);
  const std::vector<float> after = learner.flat_state();
  ASSERT_EQ(after.size(), before.size());
  size_t changed = 0, kept = 0;
  for (size_t i = 0; i < after.size(); ++i) (after[i] != before[i] ? changed : kept) += 1;
  EXPECT_GT(changed, 0u);
  EXPECT_GT(kept, 0u) << "the ownership head's fresh weights were overwritten";
}

TEST_F(WarmStart, AnotherShapeIsRefusedAndChangesNothing) {
  TrainConfig wider = tiny_net_config(4);
  wider.net.filters = 16;
  TrainConfig hex = tiny_net_config(4);
  hex.game = GameSpec{Variant::kHex, 4, true};
  for (const TrainConfig& other : {wider, hex}) {
    Learner learner(other);
    const std::vector<float> before = learner.flat_state();
    try {
      learner.init_from(checkpoint);
      FAIL() << "accepted a source of another shape";
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("cannot start from '" + checkpoint + "' (quax 4x4 checkpoint, step 5): tensor '"),
                std::string::npos)
          << msg;
      EXPECT_NE(msg.find(" here ("), std::string::npos) << msg;
    }
    EXPECT_EQ(learner.flat_state(), before);
  }
  Learner learner(tiny_net_config(4));
  EXPECT_THROW(learner.init_from(dir + "/missing.pt"), std::runtime_error);
}

// The policy logits and values of a model file on `planes`, in inference mode.
std::pair<torch::Tensor, torch::Tensor> outputs_of(const std::string& path, const torch::Tensor& planes) {
  LoadedModel loaded = load_model_file(path);
  loaded.module.eval();
  torch::NoGradGuard no_grad;
  return run_model(loaded.module, planes);
}

TEST_F(WarmStart, ADeeperNetStartsAsTheSourcesFunction) {
  TrainConfig deeper = tiny_net_config(4);
  deeper.net.blocks = 4;  // the source has 1; the new b2 has a pooling branch (pool_every 3)
  ASSERT_EQ(source_config.net.blocks, 1);
  const ModelShape shape = model_shape_for(deeper.game);
  torch::manual_seed(7);
  const torch::Tensor planes = torch::rand({6, shape.planes, shape.size, shape.size});
  const auto [source_logits, source_values] = outputs_of(model, planes);
  for (const std::string& path : {checkpoint, model}) {
    Learner learner(deeper);
    const std::string what = learner.init_from(path);
    EXPECT_NE(what.find("; blocks 2 to 4 start as the identity"), std::string::npos) << what;
    const std::string published = dir + "/deeper.pt";
    learner.publish_model(published);
    const auto [logits, values] = outputs_of(published, planes);
    ASSERT_EQ(logits.sizes(), source_logits.sizes());
    EXPECT_TRUE(torch::allclose(logits, source_logits, 1e-5, 1e-5)) << path;
    EXPECT_TRUE(torch::allclose(values, source_values, 1e-5, 1e-5)) << path;
    // It trains on from there.
    EXPECT_FALSE(learner.train_step(random_batch(deeper, 16, 5)).skipped);
    learner.publish_model(published);
    EXPECT_FALSE(torch::allclose(outputs_of(published, planes).first, source_logits, 1e-5, 1e-5));
  }
}

TEST_F(WarmStart, AShallowerNetIsRefusedAndChangesNothing) {
  TrainConfig deeper = tiny_net_config(4);
  deeper.net.blocks = 3;
  const std::string deep_checkpoint = dir + "/deep.pt";
  Learner(deeper).save_checkpoint(deep_checkpoint, RunState{});
  Learner learner(tiny_net_config(4));
  const std::vector<float> before = learner.flat_state();
  try {
    learner.init_from(deep_checkpoint);
    FAIL() << "a 1-block net started from a 3-block one";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("it has 3 residual blocks and this net 1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(learner.flat_state(), before);
}

}  // namespace
}  // namespace quax
