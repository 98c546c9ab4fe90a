#include "train/autocast_guard.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace quax {

namespace {

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
bool enabled(c10::DeviceType d) { return at::autocast::is_autocast_enabled(d); }
void set_enabled(c10::DeviceType d, bool on) { at::autocast::set_autocast_enabled(d, on); }
c10::ScalarType dtype(c10::DeviceType d) { return at::autocast::get_autocast_dtype(d); }
void set_dtype(c10::DeviceType d, c10::ScalarType t) { at::autocast::set_autocast_dtype(d, t); }
#else
bool is_cuda(c10::DeviceType d) { return d == c10::DeviceType::CUDA; }
bool enabled(c10::DeviceType d) { return is_cuda(d) ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled(); }
void set_enabled(c10::DeviceType d, bool on) {
  if (is_cuda(d))
    at::autocast::set_enabled(on);
  else
    at::autocast::set_cpu_enabled(on);
}
c10::ScalarType dtype(c10::DeviceType d) {
  return is_cuda(d) ? at::autocast::get_autocast_gpu_dtype() : at::autocast::get_autocast_cpu_dtype();
}
void set_dtype(c10::DeviceType d, c10::ScalarType t) {
  if (is_cuda(d))
    at::autocast::set_autocast_gpu_dtype(t);
  else
    at::autocast::set_autocast_cpu_dtype(t);
}
#endif

}  // namespace

AutocastGuard::AutocastGuard(bool on, c10::DeviceType device) : on_(on), device_(device) {
  if (!on_) return;
  was_enabled_ = enabled(device_);
  was_dtype_ = dtype(device_);
  set_enabled(device_, true);
  set_dtype(device_, c10::ScalarType::BFloat16);
  at::autocast::increment_nesting();
}

AutocastGuard::~AutocastGuard() {
  if (!on_) return;
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  set_enabled(device_, was_enabled_);
  set_dtype(device_, was_dtype_);
}

}  // namespace quax
