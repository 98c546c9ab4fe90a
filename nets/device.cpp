#include "nets/device.h"

#include <fmt/format.h>
#include <torch/cuda.h>

#include <cstdlib>
#include <stdexcept>

#include "core/quoted_input.h"
#include "nets/device_torch.h"
#include "nets/int8_network.h"

namespace quax {

namespace {
// Far above any machine's GPU count: a bound on what the syntax accepts, not a check.
constexpr int kMaxCudaIndex = 1023;
}  // namespace

bool parse_device(const std::string& text, Device* out, std::string* error) {
  Device d;
  if (text == "auto") {
    d.kind = Device::Kind::kAuto;
  } else if (text == "cpu") {
    d.kind = Device::Kind::kCpu;
  } else if (text == "cuda") {
    d.kind = Device::Kind::kCuda;
  } else if (text.rfind("cuda:", 0) == 0 && text.size() > 5 && text.size() <= 9 &&
             text.find_first_not_of("0123456789", 5) == std::string::npos &&
             (text.size() == 6 || text[5] != '0') && std::atoi(text.c_str() + 5) <= kMaxCudaIndex) {
    d.kind = Device::Kind::kCuda;
    d.index = std::atoi(text.c_str() + 5);
  } else {
    if (error) *error = std::string("expected ") + kDeviceSyntax + ", got " + quoted_input(text);
    return false;
  }
  *out = d;
  return true;
}

std::string device_name(const Device& device) {
  switch (device.kind) {
    case Device::Kind::kAuto: return "auto";
    case Device::Kind::kCpu: return "cpu";
    case Device::Kind::kCuda: return fmt::format("cuda:{}", device.index);
  }
  return "?";
}

int cuda_device_count() { return static_cast<int>(torch::cuda::device_count()); }

Device resolve_device(const Device& device, const std::string& setting) {
  const int gpus = cuda_device_count();
  switch (device.kind) {
    case Device::Kind::kCpu: return device;
    case Device::Kind::kAuto: return gpus > 0 ? Device{Device::Kind::kCuda, 0} : kCpuDevice;
    case Device::Kind::kCuda: break;
  }
  if (gpus == 0)
    throw std::runtime_error(fmt::format("{} {}: this build of LibTorch sees no CUDA device (use cpu or auto)", setting,
                                         device_name(device)));
  if (device.index >= gpus)
    throw std::runtime_error(fmt::format("{} {}: LibTorch sees {} CUDA device{} (cuda:0 to cuda:{})", setting,
                                         device_name(device), gpus, gpus == 1 ? "" : "s", gpus - 1));
  return device;
}

Precision resolve_precision_on(Precision precision, const Device& resolved) {
  if (!resolved.is_cuda()) return resolve_precision(precision);
  return precision == Precision::kAuto ? Precision::kBFloat16 : precision;
}

std::string check_precision_on(Precision precision, const Device& resolved, const std::string& setting) {
  if (precision == Precision::kBFloat16 && !resolved.is_cuda() && !cpu_runs_bfloat16())
    return setting + " bf16 needs a CPU with AVX-512 (BW, VL, DQ) or a GPU; use fp32 or auto";
  if (precision == Precision::kInt8 && resolved.is_cuda()) return setting + " int8 runs on the CPU only; use bf16, fp32 or auto";
  if (precision == Precision::kInt8 && !cpu_runs_int8())
    return setting + " int8 needs LibTorch's oneDNN quantized engine, which this build lacks; use fp32 or auto";
  return "";
}

c10::Device torch_device(const Device& resolved) {
  switch (resolved.kind) {
    case Device::Kind::kCpu: return c10::Device(c10::DeviceType::CPU);
    case Device::Kind::kCuda: return c10::Device(c10::DeviceType::CUDA, static_cast<c10::DeviceIndex>(resolved.index));
    case Device::Kind::kAuto: break;
  }
  throw std::logic_error("torch_device of an unresolved device (auto)");
}

}  // namespace quax
