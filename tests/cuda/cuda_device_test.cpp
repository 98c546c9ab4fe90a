// The device path on a GPU: what tests/ml_device_test.cpp and ml_evaluation_server_test.cpp
// check on the CPU, here on cuda:0. Built and registered only with a CUDA LibTorch
// (tests/CMakeLists.txt); a machine of such a build without a visible GPU exits 77, which
// ctest reports as skipped (not passed).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <thread>
#include <vector>

#include "core/remove_tree.h"
#include "nets/device.h"
#include "nets/evaluation_server.h"
#include "nets/host_staging.h"
#include "nets/model.h"
#include "nets/net_evaluator.h"
#include "nets/net_evaluator_internal.h"
#include "train/learner.h"
#include "../ml_tiny_config.h"
#include "../net_positions.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

const Device kGpu{Device::Kind::kCuda, 0};

struct Outputs {
  std::vector<float> logits, values;
};

Outputs evaluate_with(Evaluator& e, const Positions& p) {
  const size_t a = static_cast<size_t>(p.states[0]->num_actions());
  Outputs o{std::vector<float>(a * p.states.size()), std::vector<float>(p.states.size())};
  e.evaluate(p.pointers, p.planes.data(), p.masks.data(), o.logits.data(), o.values.data());
  return o;
}

// float32 on both: cuDNN and oneDNN differ by rounding only (TF32 is off for convolutions
// by default only in some versions, hence the loose bound).
void expect_near(const Outputs& got, const Outputs& want, double tolerance) {
  ASSERT_EQ(got.logits.size(), want.logits.size());
  for (size_t i = 0; i < got.logits.size(); ++i) ASSERT_NEAR(got.logits[i], want.logits[i], tolerance) << i;
  for (size_t i = 0; i < got.values.size(); ++i) ASSERT_NEAR(got.values[i], want.values[i], tolerance) << i;
}

TrainConfig gpu_config(const std::string& name) {
  TrainConfig c = tiny_net_config(5);
  c.learn.device = kGpu;
  c.selfplay.device = kGpu;
  c.learn.precision = Precision::kFloat32;
  c.selfplay.precision = Precision::kFloat32;
  c.run.dir = (fs::temp_directory_path() / ("quax_cuda_" + name + std::to_string(::getpid()))).string();
  remove_tree(c.run.dir);
  fs::create_directories(c.run.dir);
  return c;
}

TEST(Cuda, AutoTakesTheGpu) { EXPECT_EQ(resolve_device(Device{}, "--device"), kGpu); }

TEST(Cuda, StagingIsPinned) {
  HostStaging staging;
  EXPECT_TRUE(staging.buffer({4, 3, 5, 5}, kGpu).is_pinned());
  EXPECT_FALSE(staging.buffer({4, 3, 5, 5}, kCpuDevice).is_pinned());
}

TEST(Cuda, EvaluatorOnTheGpuGivesTheCpusOutputs) {
  const TrainConfig c = gpu_config("eval");
  Learner learner(c);
  const Positions p = random_positions(c.game, 16, 1);
  NetEvaluator cpu(learner.inference_model(Precision::kFloat32, kCpuDevice));
  NetEvaluator gpu(learner.inference_model(Precision::kFloat32, kGpu));
  EXPECT_EQ(inference_model_device(*gpu.model()), kGpu);
  expect_near(evaluate_with(gpu, p), evaluate_with(cpu, p), 1e-2);
  // bf16 on the GPU: the search does not notice its ~1% (nets/net_config.h).
  NetEvaluator bf16(learner.inference_model(Precision::kAuto, kGpu));
  EXPECT_EQ(inference_model_precision(*bf16.model()), Precision::kBFloat16);
  expect_near(evaluate_with(bf16, p), evaluate_with(cpu, p), 0.1);
  remove_tree(c.run.dir);
}

TEST(Cuda, AModelTrainedOnTheGpuPlaysOnTheCpu) {
  const TrainConfig c = gpu_config("model");
  Learner learner(c);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(learner.train_step(random_batch(c, 32, 10 + i)).skipped);
  const std::string path = c.run.dir + "/model.pt";
  learner.publish_model(path);
  const Positions p = random_positions(c.game, 12, 2);
  NetEvaluator on_gpu(learner.inference_model(Precision::kFloat32, kGpu));
  NetEvaluator from_file(load_inference_model(path, c.game, Precision::kFloat32, kCpuDevice));
  expect_near(evaluate_with(from_file, p), evaluate_with(on_gpu, p), 1e-2);
  remove_tree(c.run.dir);
}

TEST(Cuda, ACheckpointWrittenOnTheGpuResumesOnTheCpuAndBack) {
  const TrainConfig c = gpu_config("ckpt");
  Learner a(c);
  for (int i = 0; i < 3; ++i) a.train_step(random_batch(c, 32, 20 + i));
  const std::string path = c.run.dir + "/ckpt.pt";
  a.save_checkpoint(path, RunState{});
  TrainConfig cpu = c;
  cpu.learn.device = kCpuDevice;
  Learner on_cpu(cpu);
  on_cpu.load_checkpoint(path);
  EXPECT_EQ(on_cpu.flat_state(), a.flat_state()) << "the checkpoint holds the GPU's exact weights and momentum";
  Learner again(c);
  again.load_checkpoint(path);
  again.train_step(random_batch(c, 32, 30));
  a.train_step(random_batch(c, 32, 30));
  // On the GPU within rounding: cuDNN's backward passes may add in any order.
  const auto x = again.flat_state(), y = a.flat_state();
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(x[i], y[i], 1e-4) << i;
  remove_tree(c.run.dir);
}

TEST(Cuda, TheLearnerTrainsInBf16Autocast) {
  TrainConfig c = gpu_config("bf16");
  c.learn.precision = Precision::kAuto;  // bf16 on a GPU
  Learner learner(c);
  double first = 0, last = 0;
  const TrainingBatch batch = random_batch(c, 64, 5);
  for (int i = 0; i < 20; ++i) {
    const auto m = learner.train_step(batch);
    ASSERT_FALSE(m.skipped);
    (i == 0 ? first : last) = m.loss;
  }
  EXPECT_LT(last, first) << "twenty steps on one batch lower its loss";
  remove_tree(c.run.dir);
}

TEST(Cuda, TheServerJoinsThreadsOnTheGpu) {
  const TrainConfig c = gpu_config("server");
  Learner learner(c);
  const auto model = learner.inference_model(Precision::kFloat32, kGpu);
  EvaluationServer::Options o;
  o.max_wait_us = 20'000'000;
  EvaluationServer server(model, o);
  const Positions a = random_positions(c.game, 7, 1), b = random_positions(c.game, 9, 2);
  NetEvaluator own(model);
  const Outputs want_a = evaluate_with(own, a), want_b = evaluate_with(own, b);
  Outputs got_a, got_b;
  {
    EvaluationServer::Client ca(server), cb(server);
    std::thread ta([&] { got_a = evaluate_with(ca, a); }), tb([&] { got_b = evaluate_with(cb, b); });
    ta.join(), tb.join();
  }
  EXPECT_EQ(server.passes(), 1);
  expect_near(got_a, want_a, 1e-3);
  expect_near(got_b, want_b, 1e-3);
  remove_tree(c.run.dir);
}

// What a training run on the GPU hands self-play (BENCHMARKS.md, "On a GPU": a GPU-trained hex
// model learnt the first cells in order, as if its searches had seen equal outputs): after some
// learner steps, the bf16 model published for self-play, evaluated through the server by many
// clients at once and again, gives the CPU float32 outputs of the same weights.
TEST(Cuda, SelfPlayThroughTheServerSeesTheTrainedWeights) {
  const TrainConfig c = gpu_config("scale");
  Learner learner(c);
  for (int i = 0; i < 5; ++i) ASSERT_FALSE(learner.train_step(random_batch(c, 64, 40 + i)).skipped);
  NetEvaluator cpu(learner.inference_model(Precision::kFloat32, kCpuDevice));
  EvaluationServer::Options o;
  o.max_positions = 512;
  EvaluationServer server(learner.inference_model(Precision::kAuto, kGpu), o);
  constexpr int kClients = 8;
  std::vector<Positions> in;
  for (int t = 0; t < kClients; ++t) in.push_back(random_positions(c.game, 64, 100 + t));
  std::vector<Outputs> got(kClients);
  {
    std::vector<std::unique_ptr<EvaluationServer::Client>> clients;
    for (int t = 0; t < kClients; ++t) clients.push_back(std::make_unique<EvaluationServer::Client>(server));
    std::vector<std::thread> threads;
    for (int t = 0; t < kClients; ++t)
      threads.emplace_back([&, t] {
        for (int round = 0; round < 5; ++round) got[t] = evaluate_with(*clients[t], in[t]);
      });
    for (auto& thread : threads) thread.join();
  }
  for (int t = 0; t < kClients; ++t) expect_near(got[t], evaluate_with(cpu, in[t]), 0.1);
  remove_tree(c.run.dir);
}

// The network's inference copy on the GPU, as each pass leaves it, against the float32 copy on
// the CPU, for a network whose every block is active: its batch-norm gains, biases and
// statistics drawn at random (a fresh network's residual branches end in a zero gain, which
// would hide a fault in a fused residual kernel). Errors are relative to the logits' size; and
// how far a copy's logits move between positions (`separation`) must be the CPU's, so that a
// copy giving every position the same outputs fails too. Prints each path, so that one run on
// a GPU machine says which pass is wrong; make_inference_module's copies must agree.
TEST(Cuda, EveryInferencePathOfAnActiveNetworkAgreesWithTheCpu) {
  NetConfig net;
  net.blocks = 4;
  net.filters = 48;
  const GameSpec game{Variant::kHex, 11, false};
  const ModelShape shape = model_shape_for(game);
  auto model = build_model(net, shape, 7);
  {
    torch::NoGradGuard no_grad;
    torch::manual_seed(8);
    for (const auto& p : model.named_parameters(false))
      if (p.value.dim() == 1) p.value.uniform_(0.2, 1.0);  // gains and biases
    for (const auto& b : model.named_buffers(false)) {
      if (!b.value.is_floating_point()) continue;
      const bool variance = b.name.size() > 2 && b.name.substr(b.name.size() - 2) == "_v";
      variance ? b.value.uniform_(0.5, 1.5) : b.value.normal_(0.0, 0.1);
    }
  }
  model.eval();
  constexpr int64_t kCount = 64;
  const Positions p = random_positions(game, kCount, 3);
  const auto planes = torch::from_blob(const_cast<float*>(p.planes.data()),
                                       {kCount, shape.planes, shape.size, shape.size}, torch::kFloat32);
  auto cpu_model = make_inference_module(model);
  const auto [want_logits, want_values] = run_model(cpu_model, planes);
  auto separation = [](const torch::Tensor& logits) {
    return (logits - logits.mean(0, true)).abs().mean().item<double>();
  };
  const double want_separation = separation(want_logits), size = want_logits.abs().mean().item<double>();
  ASSERT_GT(want_separation, 0.01) << "the network must tell the positions apart";
  const c10::Device gpu(c10::DeviceType::CUDA, 0);
  // The logits' mean absolute error as a share of their size, their separation as a share of
  // the CPU's, and the values' mean absolute error.
  struct Errors {
    double logits, separation, values;
  };
  auto errors = [&](torch::jit::Module& m, bool bf16) {
    c10::InferenceMode guard;
    auto x = planes.to(gpu);
    const auto [logits, values] = run_model(m, bf16 ? x.to(torch::kBFloat16) : x);
    const auto got = logits.to(torch::kFloat32).cpu();
    return Errors{(got - want_logits).abs().mean().item<double>() / size, separation(got) / want_separation,
                  (values.to(torch::kFloat32).cpu().reshape({kCount}) - want_values.reshape({kCount}))
                      .abs().mean().item<double>()};
  };
  struct Path {
    const char* name;
    bool bf16, freeze, optimize;
  };
  for (const Path path : {Path{"plain fp32", false, false, false}, Path{"frozen fp32", false, true, false},
                          Path{"optimized fp32", false, true, true}, Path{"plain bf16", true, false, false},
                          Path{"frozen bf16", true, true, false}, Path{"optimized bf16", true, true, true}}) {
    auto copy = model.deepcopy();
    copy.eval();
    if (path.bf16) copy.to(torch::kBFloat16);
    copy.to(gpu);
    if (path.freeze) copy = torch::jit::freeze(copy);
    if (path.optimize) copy = torch::jit::optimize_for_inference(copy);
    const Errors e = errors(copy, path.bf16);
    std::printf("  %-15s logits' error %.4f of their size, separation %.3f of the CPU's; values' error %.4f\n",
                path.name, e.logits, e.separation, e.values);
  }
  for (const bool bf16 : {false, true}) {
    auto ours = make_inference_module(model, bf16, gpu);
    const Errors e = errors(ours, bf16);
    std::printf("  make_inference_module %s: logits' error %.4f of their size, separation %.3f of the CPU's; "
                "values' error %.4f\n", bf16 ? "bf16" : "fp32", e.logits, e.separation, e.values);
    EXPECT_LT(e.logits, bf16 ? 0.05 : 0.005);
    EXPECT_NEAR(e.separation, 1.0, 0.3);
    EXPECT_LT(e.values, bf16 ? 0.05 : 1e-3);
  }
}

}  // namespace
}  // namespace quax

int main(int argc, char** argv) {
  if (quax::cuda_device_count() == 0) {
    std::fprintf(stderr, "cuda_tests: this CUDA build of LibTorch sees no GPU on this machine: not run\n");
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
