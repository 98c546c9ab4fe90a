// Where networks run (nets/device.h): the one reading of cpu|cuda|cuda:N|auto behind every
// door, auto resolving to the CPU where LibTorch sees no GPU, the host buffer batches cross to
// a device through, and the files a learner writes on its device loading on the CPU with the
// outputs it had. The same tests on a GPU are tests/cuda/ (built only with a CUDA LibTorch).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "nets/device.h"
#include "nets/host_staging.h"
#include "nets/model.h"
#include "nets/net_evaluator.h"
#include "nets/net_evaluator_internal.h"
#include "train/learner.h"
#include "ml_tiny_config.h"
#include "net_positions.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string parse_error(const std::string& text) {
  Device d;
  std::string error;
  EXPECT_FALSE(parse_device(text, &d, &error)) << text;
  return error;
}

TEST(Device, ReadsEveryFormAndNamesItBack) {
  for (const char* text : {"auto", "cpu", "cuda:0", "cuda:1", "cuda:15", "cuda:1023"}) {
    Device d;
    ASSERT_TRUE(parse_device(text, &d)) << text;
    EXPECT_EQ(device_name(d), text);
  }
  Device d;
  ASSERT_TRUE(parse_device("cuda", &d));
  EXPECT_EQ(d, (Device{Device::Kind::kCuda, 0}));
  ASSERT_TRUE(parse_device("cuda:7", &d));
  EXPECT_EQ(d, (Device{Device::Kind::kCuda, 7}));
  ASSERT_TRUE(parse_device("cpu", &d));
  EXPECT_EQ(d, kCpuDevice);
  EXPECT_FALSE(d.is_cuda());
  EXPECT_EQ(Device{}.kind, Device::Kind::kAuto);
}

TEST(Device, RefusesEverythingElseInOneLine) {
  EXPECT_EQ(parse_error("gpu"), "expected cpu, cuda, cuda:N or auto, got 'gpu'");
  for (const char* text : {"", "CPU", "cuda:", "cuda:-1", "cuda:01", "cuda:1024", "cuda:99999999999", "cuda:1x",
                           "cuda 1", "cuda:0:0", " cpu", "mps", "auto\n"})
    EXPECT_NE(parse_error(text).rfind("expected cpu, cuda, cuda:N or auto, got ", 0), std::string::npos) << text;
  EXPECT_EQ(parse_error("a\nb"), "expected cpu, cuda, cuda:N or auto, got 'a\\x0ab'");
}

TEST(Device, AutoTakesAGpuOnlyWhereLibTorchSeesOne) {
  const Device resolved = resolve_device(Device{}, "--device");
  EXPECT_EQ(resolved.is_cuda(), cuda_device_count() > 0);
  if (!resolved.is_cuda()) {
    EXPECT_EQ(resolved, kCpuDevice);
  }
  EXPECT_EQ(resolve_device(kCpuDevice, "--device"), kCpuDevice);
}

TEST(Device, AGpuThisMachineLacksIsOneLineNamingTheSetting) {
  // cuda:<count> is missing on every machine: cuda:0 here without a GPU.
  const int gpus = cuda_device_count();
  const Device missing{Device::Kind::kCuda, gpus};
  try {
    resolve_device(missing, "learn.device");
    FAIL() << "a missing GPU was accepted";
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    if (gpus == 0) {
      EXPECT_EQ(what, "learn.device cuda:0: this build of LibTorch sees no CUDA device (use cpu or auto)");
    } else {
      EXPECT_EQ(what.rfind("learn.device " + device_name(missing) + ": LibTorch sees ", 0), 0u) << what;
    }
  }
}

TEST(Device, PrecisionOnTheCpuIsTheCpusAndOnAGpuBf16) {
  EXPECT_EQ(resolve_precision_on(Precision::kAuto, kCpuDevice), resolve_precision(Precision::kAuto));
  EXPECT_EQ(resolve_precision_on(Precision::kFloat32, kCpuDevice), Precision::kFloat32);
  const Device gpu{Device::Kind::kCuda, 0};
  EXPECT_EQ(resolve_precision_on(Precision::kAuto, gpu), Precision::kBFloat16);
  EXPECT_EQ(resolve_precision_on(Precision::kFloat32, gpu), Precision::kFloat32);
  EXPECT_EQ(check_precision_on(Precision::kBFloat16, gpu, "learn.precision"), "");
  EXPECT_EQ(check_precision_on(Precision::kFloat32, kCpuDevice, "learn.precision"), "");
  EXPECT_EQ(check_precision_on(Precision::kBFloat16, kCpuDevice, "learn.precision").empty(), cpu_runs_bfloat16());
}

TEST(Device, ModelsAndLearnersOfAutoRunWhereAutoResolves) {
  TrainConfig c = tiny_net_config(5);
  const ModelShape shape = model_shape_for(c.game);
  const Device here = resolve_device(Device{}, "device");
  const auto module = build_model(c.net, shape, 1);
  EXPECT_EQ(inference_model_device(*make_inference_model(module, shape, 0, Precision::kFloat32, Device{})), here);
  EXPECT_EQ(inference_model_device(*make_inference_model(module, shape, 0, Precision::kFloat32)), kCpuDevice)
      << "the library's default is the CPU: only the doors default to auto";
  EXPECT_EQ(inference_model_device(*load_inference_model(std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-5.pt",
                                                         c.game, Precision::kFloat32, Device{})),
            here);
  // A learner of auto starts from the weights a CPU learner starts from.
  c.learn.precision = Precision::kFloat32;
  c.learn.device = kCpuDevice;
  const auto on_cpu = Learner(c).flat_state();
  c.learn.device = Device{};
  EXPECT_EQ(Learner(c).flat_state(), on_cpu);
}

TEST(HostStaging, ReusesItsBufferAndGrowsOnlyWhenABatchNeedsMore) {
  HostStaging staging;
  auto a = staging.buffer({8, 3, 5, 5}, kCpuDevice);
  EXPECT_EQ(a.sizes(), (std::vector<int64_t>{8, 3, 5, 5}));
  EXPECT_TRUE(a.is_contiguous());
  EXPECT_EQ(a.scalar_type(), torch::kFloat32);
  EXPECT_FALSE(a.is_pinned());  // pinned only for a GPU
  auto b = staging.buffer({4, 3, 5, 5}, kCpuDevice);
  EXPECT_EQ(b.data_ptr<float>(), a.data_ptr<float>()) << "a smaller batch reuses the buffer";
  EXPECT_EQ(staging.allocations(), 1);
  auto c = staging.buffer({16, 3, 5, 5}, kCpuDevice);
  EXPECT_EQ(c.numel(), 16 * 3 * 5 * 5);
  EXPECT_EQ(staging.allocations(), 2);
  staging.buffer({12, 3, 5, 5}, kCpuDevice);
  EXPECT_EQ(staging.allocations(), 2);
}

TrainConfig cpu_config(const std::string& name) {
  TrainConfig c = tiny_net_config(5);
  c.learn.device = kCpuDevice;
  c.selfplay.device = kCpuDevice;
  c.learn.precision = Precision::kFloat32;
  c.selfplay.precision = Precision::kFloat32;
  c.run.dir = (fs::temp_directory_path() / ("quax_device_" + name + std::to_string(::getpid()))).string();
  fs::remove_all(c.run.dir);
  fs::create_directories(c.run.dir);
  return c;
}

TEST(DeviceFreeFiles, AModelALearnerWritesLoadsOnTheCpuWithItsOutputs) {
  const TrainConfig c = cpu_config("model");
  Learner learner(c);
  for (int i = 0; i < 3; ++i) learner.train_step(random_batch(c, 32, 10 + i));
  const std::string path = c.run.dir + "/model.pt";
  learner.publish_model(path);
  const Positions p = random_positions(c.game, 12, 4);
  const int64_t a = p.states[0]->num_actions();
  std::vector<float> want_logits(12 * a), want_values(12), got_logits(12 * a), got_values(12);
  NetEvaluator(learner.inference_model(Precision::kFloat32, kCpuDevice))
      .evaluate(p.pointers, p.planes.data(), p.masks.data(), want_logits.data(), want_values.data());
  const auto loaded = load_inference_model(path, c.game, Precision::kFloat32, kCpuDevice);
  EXPECT_EQ(inference_model_device(*loaded), kCpuDevice);
  NetEvaluator(loaded).evaluate(p.pointers, p.planes.data(), p.masks.data(), got_logits.data(), got_values.data());
  EXPECT_EQ(got_logits, want_logits);
  EXPECT_EQ(got_values, want_values);
  fs::remove_all(c.run.dir);
}

TEST(DeviceFreeFiles, ACheckpointResumesExactlyOnTheCpu) {
  const TrainConfig c = cpu_config("ckpt");
  Learner a(c);
  for (int i = 0; i < 3; ++i) a.train_step(random_batch(c, 32, 20 + i));
  const std::string path = c.run.dir + "/ckpt.pt";
  a.save_checkpoint(path, RunState{});
  // Writing moved the momentum to the CPU and back: training goes on from the same state.
  const auto before = a.flat_state();
  Learner b(c);
  b.load_checkpoint(path);
  EXPECT_EQ(b.flat_state(), before);
  a.train_step(random_batch(c, 32, 30));
  b.train_step(random_batch(c, 32, 30));
  EXPECT_EQ(b.flat_state(), a.flat_state());
  // What export reads a checkpoint with: a CPU learner whatever the run's learn.device.
  EXPECT_EQ(checkpoint_learner_on_cpu(path)->flat_state(), before);
  fs::remove_all(c.run.dir);
}

TEST(DeviceFreeFiles, ALearnerOnAGpuThisMachineLacksIsRefusedInOneLine) {
  TrainConfig c = cpu_config("refused");
  c.learn.device = Device{Device::Kind::kCuda, cuda_device_count()};
  try {
    Learner refused(c);
    FAIL() << "a learner on a missing GPU was made";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("learn.device cuda:", 0), 0u) << e.what();
  }
  fs::remove_all(c.run.dir);
}

}  // namespace
}  // namespace quax
