#include "nets/host_staging.h"

#include <algorithm>

namespace quax {

torch::Tensor HostStaging::buffer(c10::IntArrayRef sizes, const Device& device) {
  int64_t floats = 1;
  for (int64_t s : sizes) floats *= s;
  const bool pin = device.is_cuda();
  if (!storage_.defined() || storage_.numel() < floats || pinned_ != pin) {
    // Room for growth: batches of one run vary in size (games end, sizes mix).
    const int64_t want = storage_.defined() && pinned_ == pin ? std::max<int64_t>(floats, 2 * storage_.numel()) : floats;
    storage_ = torch::empty({want}, torch::TensorOptions().dtype(torch::kFloat32).pinned_memory(pin));
    pinned_ = pin;
    ++allocations_;
  }
  return storage_.narrow(0, 0, floats).view(sizes);
}

}  // namespace quax
