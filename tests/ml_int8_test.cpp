// The int8 network (nets/int8_network.h): its float32 pass is the model's forward with the
// batch norms folded, and its int8 pass stays close to float32 on trained models while
// really rounding; what it cannot run is refused with one line, and a model it cannot hold
// plays in float32 (loaded or published).
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <filesystem>

#include "env/game_state.h"
#include "nets/int8_network.h"
#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "nets/net_evaluator_internal.h"
#include "ml_tiny_config.h"
#include "train/learner.h"
#include "train/learner_internal.h"
#include "train/model_publisher.h"

namespace quax {
namespace {

std::string model_path(const std::string& name) { return std::string(QUAX_SOURCE_DIR) + "/checkpoints/" + name; }

TEST(Int8Network, ItsFloatPassIsTheModelsForward) {
  ASSERT_TRUE(cpu_runs_int8());
  // A network with global pooling in a block and in the heads, a swap logit, and batch norms
  // whose statistics and gains are far from their initial values (so folding them matters).
  NetConfig net = tiny_net_config().net;
  net.blocks = 2;
  net.pool_every = 2;
  const auto shape = model_shape_for(GameSpec{Variant::kHex, 5, true});
  auto model = build_model(net, shape, 3);
  {
    torch::NoGradGuard no_grad;
    torch::manual_seed(4);
    for (const auto& b : model.named_buffers(false)) b.value.copy_(b.name.back() == 'v' ? 0.5 + torch::rand_like(b.value) : torch::randn_like(b.value));
    for (const auto& p : model.named_parameters(false))
      if (p.name.size() > 2 && p.name.substr(p.name.size() - 2) == "_g") p.value.copy_(0.5 + torch::rand_like(p.value));
  }
  model.eval();
  const auto planes = random_position_planes(shape, 16, 9);
  const Int8Network int8(model, planes);
  c10::InferenceMode guard;
  const auto [want_logits, want_values] = run_model(model, planes);
  const auto [logits, values] = int8.forward_float(planes);
  EXPECT_LT((logits - want_logits).abs().max().item<double>(), 1e-4);
  EXPECT_LT((values - want_values).abs().max().item<double>(), 1e-4);
}

// In both ranges of activations (8 bits where the CPU has VNNI, else 7): a CPU with VNNI
// computes the rounding of one without it too.
TEST(Int8Network, TrainedModelsKeepTheirPoliciesAndValues) {
  ASSERT_TRUE(cpu_runs_int8());
  // hex-11 and quax-11: global pooling, a swap logit; quax-5: another net shape.
  for (const char* name : {"hex-11.pt", "quax-11.pt", "quax-5.pt"}) {
    const LoadedModel trained = load_model_file(model_path(name));
    const auto fp32 = make_inference_model(trained.module, trained.shape, trained.step, Precision::kFloat32);
    // Positions of other random games than the calibration's.
    const auto calibration = random_position_planes(trained.shape, 64, 1);
    const auto planes = random_position_planes(trained.shape, 64, 17);
    c10::InferenceMode guard;
    const auto [l1, v1] = run_inference(*fp32, planes);
    // 8 bits only where this CPU takes them: without VNNI oneDNN's 16-bit sums may saturate.
    for (bool full_range : cpu_has_int8_dot_product() ? std::vector<bool>{true, false} : std::vector<bool>{false}) {
      SCOPED_TRACE(std::string(name) + (full_range ? ", 8 bits" : ", 7 bits"));
      const auto [l2, v2] = Int8Network(trained.module, calibration, full_range).forward(planes);
      const auto policy_distances = (torch::softmax(l1, 1) - torch::softmax(l2, 1)).abs().sum(1) / 2;
      const auto value_gaps = (v1 - v2).abs();
      std::printf("%s, %d-bit activations: int8 against float32 over 64 positions: policy total variation mean "
                  "%.4f, max %.4f; value mean %.4f, max %.4f\n",
                  name, full_range ? 8 : 7, policy_distances.mean().item<double>(), policy_distances.max().item<double>(),
                  value_gaps.mean().item<double>(), value_gaps.max().item<double>());
      // On average far within compare_model_outputs' bounds (0.1 and 0.2 at every probe
      // position); at the worst of 64 positions the value moved by up to 0.3 here (8 bits), as
      // a percentile calibration or a margin above the largest value did too
      // (docs/benchmarks-log.md, int8 self-play).
      EXPECT_LT(policy_distances.mean().item<double>(), full_range ? 0.04 : 0.08);
      EXPECT_LT(value_gaps.mean().item<double>(), full_range ? 0.04 : 0.06);
      EXPECT_LT(policy_distances.max().item<double>(), 0.15);
      // ...and it did round: an int8 path that silently ran in float32 would match to 1e-5.
      EXPECT_GT((l1 - l2).abs().max().item<double>(), 1e-3);
    }
  }
}

TEST(Int8Network, WhatItCannotRunIsRefusedWithOneLine) {
  const LoadedModel torus = load_model_file(model_path("torax-9.pt"));
  try {
    make_inference_model(torus.module, torus.shape, torus.step, Precision::kInt8);
    FAIL() << "a torus network was accepted in int8";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("torus"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
  EXPECT_NE(check_precision_on(Precision::kInt8, Device{Device::Kind::kCuda, 0}, "selfplay.precision").find("CPU only"),
            std::string::npos);
  EXPECT_EQ(check_precision_on(Precision::kInt8, kCpuDevice, "selfplay.precision"), "");
  // A network missing a tensor the int8 pass reads.
  NetConfig net;
  net.blocks = 1;
  net.filters = 8;
  const auto shape = model_shape_for(GameSpec{Variant::kQuax, 5, true});
  torch::jit::Module bare("Bare");
  try {
    Int8Network(bare, torch::zeros({1, shape.planes, 5, 5}));
    FAIL() << "a module without the network's tensors was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the network has no tensor 'stem_"), std::string::npos) << e.what();
  }
}

// Makes the tower's channel 0 10,000 times larger and scales every reader of it back: the same
// network in float32, but with one scale per tensor int8 rounds the other channels to nothing.
void make_one_channel_huge(torch::jit::Module& model) {
  torch::NoGradGuard no_grad;
  auto t = [&](const std::string& name) { return model.attr(name).toTensor(); };
  t("stem_g")[0].mul_(1e4);
  t("stem_b")[0].mul_(1e4);
  for (int i = 0; model.hasattr("b" + std::to_string(i) + "c1_w"); ++i) {
    const std::string b = "b" + std::to_string(i);
    t(b + "c1_w").select(1, 0).mul_(1e-4);
    t(b + "c2_g")[0].mul_(1e4);
    t(b + "c2_b")[0].mul_(1e4);
  }
  t("pol_w").select(1, 0).mul_(1e-4);
  t("val_w").select(1, 0).mul_(1e-4);
}

// Such a model loaded in int8 is caught by the output check and plays in float32.
TEST(Int8Network, AModelThatInt8CannotHoldPlaysInFloat32) {
  LoadedModel trained = load_model_file(model_path("quax-9.pt"));
  const auto fp32 = make_inference_model(trained.module, trained.shape, trained.step, Precision::kFloat32);
  make_one_channel_huge(trained.module);
  const auto scaled = make_inference_model(trained.module, trained.shape, trained.step, Precision::kFloat32);
  EXPECT_EQ(compare_model_outputs(*scaled, *fp32), "");  // the same network
  const auto int8 = make_inference_model(trained.module, trained.shape, trained.step, Precision::kInt8);
  EXPECT_NE(compare_model_outputs(*int8, *fp32), "");  // ...that int8 cannot hold
  const std::string path = testing::TempDir() + "/int8-outlier.pt";
  save_model_file(trained.module, trained.description, path);
  testing::internal::CaptureStderr();
  const auto loaded = load_inference_model(path, trained.shape.spec, Precision::kInt8);
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_EQ(inference_model_precision(*loaded), Precision::kFloat32);
  EXPECT_NE(warning.find("plays in fp32: in int8 it computes another network"), std::string::npos) << warning;
  EXPECT_EQ(compare_model_outputs(*loaded, *fp32), "");
  // A model int8 holds loads in int8, without a warning.
  testing::internal::CaptureStderr();
  const auto held = load_inference_model(model_path("quax-9.pt"), trained.shape.spec, Precision::kInt8);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(inference_model_precision(*held), Precision::kInt8);
}

// The learner publishes such a model to self-play in float32, with a warning, and the next
// model that int8 holds in int8 again: a run in int8 goes on whatever one model does.
TEST(Int8Network, TheLearnerPublishesWhatInt8CannotHoldInFloat32) {
  TrainConfig c = tiny_net_config(5);
  c.net.filters = 16;
  c.selfplay.precision = Precision::kInt8;
  const auto dir = std::filesystem::temp_directory_path() / ("quax_int8_publish" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "models");
  Learner learner(c);
  ModelSlot slot;
  ASSERT_EQ(publish_model_if_sound(learner, (dir / "models/model-0.pt").string(), (dir / "model.pt").string(), slot), "");
  EXPECT_EQ(inference_model_precision(*slot.get()), Precision::kInt8);

  make_one_channel_huge(learner_module(learner));
  testing::internal::CaptureStderr();
  EXPECT_EQ(publish_model_if_sound(learner, (dir / "models/model-1.pt").string(), (dir / "model.pt").string(), slot), "");
  const std::string warning = testing::internal::GetCapturedStderr();
  EXPECT_NE(warning.find("plays in fp32: its self-play copy (int8, cpu) computes another network"), std::string::npos)
      << warning;
  EXPECT_EQ(slot.version(), 2);
  EXPECT_EQ(inference_model_precision(*slot.get()), Precision::kFloat32);
  EXPECT_TRUE(std::filesystem::exists(dir / "models/model-1.pt"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quax
