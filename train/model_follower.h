// How `quax selfplay` (a process of its own) takes up the models a separate learner
// publishes in <run>/models: a file that cannot be used (damaged, NaN or inf outputs on the
// probe positions, another game) is passed over with one warning naming it, and self-play
// keeps playing with the model it has.
#pragma once

#include <string>

#include "env/types.h"
#include "nets/device.h"
#include "nets/net_config.h"
#include "train/run_control.h"

namespace quax {

class ModelFollower {
 public:
  // Models load in `precision` on `device` (selfplay.precision and selfplay.device).
  ModelFollower(const GameSpec& spec, Precision precision, const Device& device = kCpuDevice)
      : spec_(spec), precision_(precision), device_(device) {}

  // Offers the newest model file. Loads it into `slot` unless it is the one loaded last or
  // one refused before; a file that cannot be loaded prints one warning line on stderr
  // naming it and leaves the slot as it was. Returns true when the slot got a new model.
  bool offer(const std::string& path, ModelSlot& slot);

 private:
  GameSpec spec_;
  Precision precision_;
  Device device_;
  std::string loaded_, refused_;
};

}  // namespace quax
