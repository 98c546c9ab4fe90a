// Where a network runs: the one reading of every device setting (the config keys learn.device
// and selfplay.device, the --device option of the commands, the Python module's `device`
// keyword). Torch-free, so that configs and commands can hold a device without LibTorch's
// headers; nets/device_torch.h turns a resolved one into LibTorch's.
//
// Models and checkpoints never depend on it: they are written from CPU tensors and read onto
// the CPU, then moved (a model trained on a GPU plays on any CPU).
#pragma once

#include <string>

#include "nets/net_config.h"

namespace quax {

struct Device {
  enum class Kind { kAuto, kCpu, kCuda };
  Kind kind = Kind::kAuto;
  int index = 0;  // kCuda: which GPU (cuda = cuda:0)

  bool is_cuda() const { return kind == Kind::kCuda; }
  bool operator==(const Device& o) const { return kind == o.kind && (kind != Kind::kCuda || index == o.index); }
  bool operator!=(const Device& o) const { return !(*this == o); }
};

inline constexpr Device kCpuDevice{Device::Kind::kCpu, 0};

// What every door says of the accepted values.
inline constexpr const char* kDeviceSyntax = "cpu, cuda, cuda:N or auto";

// "cpu", "cuda" (cuda:0), "cuda:N" (N a GPU number from 0 to 1023), "auto". Returns false for
// anything else and sets *error (when given) to "expected cpu, cuda, cuda:N or auto, got 'x'".
// Reads the syntax only: whether this machine has that GPU is resolve_device's question.
bool parse_device(const std::string& text, Device* out, std::string* error = nullptr);
// "auto", "cpu", "cuda:N": what parse_device reads back.
std::string device_name(const Device& device);

// The device a network is placed on: auto becomes cuda:0 when LibTorch sees a CUDA device,
// else cpu; cpu stays cpu; cuda:N is checked against the GPUs LibTorch sees. Throws
// std::runtime_error with one line naming `setting` (the door: "--device", "learn.device")
// and the value when there is no such GPU, e.g. "--device cuda: this build of LibTorch sees
// no CUDA device". Never returns kAuto.
Device resolve_device(const Device& device, const std::string& setting);
// The number of CUDA devices LibTorch sees (0 with a CPU-only LibTorch, or without a GPU).
int cuda_device_count();

// The number format a network runs in on a resolved device: on a GPU, auto is bf16 (tensor
// cores multiply it natively on every GPU since Ampere); on the CPU, resolve_precision.
Precision resolve_precision_on(Precision precision, const Device& resolved);
// "" when `precision` (resolved) can run on `resolved`, else one line naming `setting`:
// bf16 on the CPU needs AVX-512 (cpu_runs_bfloat16); a GPU runs every precision.
std::string check_precision_on(Precision precision, const Device& resolved, const std::string& setting);

}  // namespace quax
