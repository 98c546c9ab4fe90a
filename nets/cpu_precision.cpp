// `precision: auto` on the CPU (net_config.h): bfloat16 only where this CPU runs the network
// measurably faster in it.
//
// Why measured and not read off the CPU's flags: AVX-512 BF16 means opposite things on the
// machines here. On an AMD EPYC (Zen 4) self-play made 1.3x the evaluations and the learner
// 1.47x the samples in bf16; on an Intel Xeon whose AVX-512 BF16 is exposed without AMX,
// `quax bench net --config configs/hex_9x9.yaml` gave 4,807 evaluations/s in bf16 against
// 8,938 in float32 (0.54x) and the learner 1,310 samples/s against 1,771 (0.74x)
// (docs/benchmarks-log.md, 2026-11-30). On both, the learner moved the way inference did, so one
// probe of inference decides both keys.
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>

#include "nets/model.h"
#include "nets/net_config.h"

namespace quax {

namespace {

// bfloat16 multiplied in hardware: AMX-BF16 or AVX-512 BF16 (without either, oneDNN emulates it,
// always slower than float32), and oneDNN's bfloat16 convolutions at all (cpu_runs_bfloat16).
bool cpu_has_bfloat16_arithmetic() {
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  __builtin_cpu_init();
  return (__builtin_cpu_supports("amx-bf16") || __builtin_cpu_supports("avx512bf16")) && cpu_runs_bfloat16();
#else
  return false;
#endif
}

// A 4 x 48 network (the medium tier's shape) for hex 9x9, built once for both formats' probes.
torch::jit::Module probe_network(const ModelShape& shape) {
  NetConfig net;
  net.blocks = 4;
  net.filters = 48;
  // build_model seeds torch's generator: the caller's random stream stays as it was.
  auto generator = at::detail::getDefaultCPUGenerator();
  const auto saved = generator.get_state();
  auto model = build_model(net, shape, /*seed=*/1);
  generator.set_state(saved);
  return model;
}

// Positions per second of `model`'s frozen inference copy at a batch of 48 (self-play's usual
// batch on hex 9x9), the best of three rounds of 8 batches after one warm-up batch. With building
// and freezing the copies, the two formats take about 0.8 s a process on the Intel Xeon here.
double probe_positions_per_second(const torch::jit::Module& model, const ModelShape& shape, bool bfloat16) {
  auto module = make_inference_module(model, bfloat16);
  constexpr int64_t kBatch = 48;
  constexpr int kBatchesARound = 8;
  // Any values do: the network's cost does not depend on them.
  auto planes = torch::full({kBatch, shape.planes, shape.size, shape.size}, 0.5);
  if (bfloat16) planes = planes.to(torch::kBFloat16);
  const std::vector<c10::IValue> input{in_convolution_layout(planes)};
  c10::InferenceMode guard;
  module.forward(input);
  double best_seconds = 1e30;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kBatchesARound; ++i) module.forward(input);
    best_seconds = std::min(best_seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return kBatch * kBatchesARound / std::max(best_seconds, 1e-9);
}

}  // namespace

Precision choose_cpu_precision(bool bfloat16_in_hardware, const std::function<double(bool bfloat16)>& positions_per_second) {
  if (!bfloat16_in_hardware) return Precision::kFloat32;
  const double fp32 = positions_per_second(false);
  const double bf16 = positions_per_second(true);
  return bf16 >= kBfloat16NeededSpeedup * fp32 ? Precision::kBFloat16 : Precision::kFloat32;
}

Precision resolve_precision(Precision p) {
  if (p != Precision::kAuto) return p;
  static std::once_flag once;
  static Precision chosen = Precision::kFloat32;
  std::call_once(once, [] {
    const ModelShape shape = model_shape_for(GameSpec{Variant::kHex, 9, false});
    std::optional<torch::jit::Module> model;  // built at the first probe, if any
    chosen = choose_cpu_precision(cpu_has_bfloat16_arithmetic(), [&](bool bf16) {
      if (!model) model = probe_network(shape);
      return probe_positions_per_second(*model, shape, bf16);
    });
  });
  return chosen;
}

}  // namespace quax
