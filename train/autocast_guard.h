// LibTorch's autocast for the learner's forward pass, on the CPU or a GPU: while an
// AutocastGuard that is on lives, convolutions and matrix products on that device type take
// bfloat16 copies of their float32 inputs and weights (the copies of the weights cached until
// the guard ends); everything else stays float32. The state is thread-local and nests.
//
// The autocast API differs between LibTorch versions; this file is where that is handled
// (TORCH_VERSION_MAJOR/MINOR): 1.13 up to 2.3 have per-device functions
// (set_cpu_enabled/set_autocast_cpu_dtype, set_enabled/set_autocast_gpu_dtype for CUDA), 2.4
// and later functions that take the device type (set_autocast_enabled/set_autocast_dtype),
// the old ones deprecated.
#pragma once

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

namespace quax {

class AutocastGuard {
 public:
  // Does nothing when !on. `device` is CPU or CUDA.
  AutocastGuard(bool on, c10::DeviceType device);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool on_;
  c10::DeviceType device_;
  bool was_enabled_ = false;
  c10::ScalarType was_dtype_ = c10::ScalarType::BFloat16;
};

}  // namespace quax
