// The host memory that a batch of planes crosses on its way to the network's device. For a
// GPU it is page-locked (pinned): only from pinned memory does a host-to-device copy run
// asynchronously (non_blocking), overlapping the work queued before it, and at full bus speed.
// On the CPU it is ordinary memory. One buffer per user (an evaluator, an evaluation server),
// grown when a batch needs more and then reused: pinning is slow, so it is done rarely.
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "nets/device.h"

namespace quax {

class HostStaging {
 public:
  // A float32 CPU tensor of `sizes` to fill (contiguous), pinned when `device` (resolved) is a
  // GPU. It shares the buffer with the tensors earlier calls returned, so the caller must be
  // done with those: a non_blocking copy from one must have completed (any later synchronising
  // call on its stream - e.g. copying the outputs back - ensures it).
  torch::Tensor buffer(c10::IntArrayRef sizes, const Device& device);
  // How many times buffer() had to allocate (for tests: growth, not every call).
  int64_t allocations() const { return allocations_; }

 private:
  torch::Tensor storage_;  // flat, of at least the largest batch asked for so far
  bool pinned_ = false;
  int64_t allocations_ = 0;
};

}  // namespace quax
