// The torch side of nets/device.h, for the LibTorch files that place tensors and modules.
#pragma once

#include <c10/core/Device.h>

#include "nets/device.h"

namespace quax {

// LibTorch's device for a resolved Device (resolve_device); kAuto is a logic error.
c10::Device torch_device(const Device& resolved);

}  // namespace quax
