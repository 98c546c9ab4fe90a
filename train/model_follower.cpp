#include "train/model_follower.h"

#include <cstdio>
#include <exception>

#include "nets/net_evaluator.h"

namespace quax {

bool ModelFollower::offer(const std::string& path, ModelSlot& slot) {
  if (path.empty() || path == loaded_ || path == refused_) return false;
  try {
    slot.set(load_inference_model(path, spec_, precision_, device_));
    loaded_ = path;
    return true;
  } catch (const std::exception& e) {
    refused_ = path;
    std::fprintf(stderr, "warning: self-play keeps %s: %s\n",
                 loaded_.empty() ? "waiting for a usable model" : ("the model " + loaded_).c_str(), e.what());
    std::fflush(stderr);
    return false;
  }
}

}  // namespace quax
