// The configuration of the smallest network of a game, for tests that need a model to run
// but not to play well: quax SIZE x SIZE with the pie rule, one residual block of 8 filters.
#pragma once

#include "train/config.h"

namespace quax {

inline TrainConfig tiny_net_config(int size = 4) {
  TrainConfig c;
  c.game = GameSpec{Variant::kQuax, size, true};
  c.net.blocks = 1;
  c.net.filters = 8;
  c.net.policy_channels = 4;
  c.net.value_channels = 4;
  c.net.value_hidden = 8;
  return c;
}

}  // namespace quax
