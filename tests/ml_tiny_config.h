// The configuration of the smallest network of a game, for tests that need a model to run
// but not to play well: quax SIZE x SIZE with the pie rule, one residual block of 8 filters;
// and a training batch for it.
#pragma once

#include <vector>

#include "env/rng.h"
#include "nets/net_config.h"
#include "train/config.h"
#include "train/replay_window.h"

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

// A batch of `size` positions of the config's game after a few random moves, with uniform
// policy targets over the legal actions and alternating results.
inline TrainingBatch random_batch(const TrainConfig& c, int size, uint64_t seed) {
  const ModelShape shape = model_shape_for(c.game);
  TrainingBatch b;
  b.size = size;
  b.planes = shape.planes;
  b.n = shape.size;
  b.actions = shape.num_actions();
  const size_t per = static_cast<size_t>(b.planes) * b.n * b.n;
  b.inputs.assign(per * size, 0.0f);
  b.policy.assign(static_cast<size_t>(b.actions) * size, 0.0f);
  b.mask.assign(static_cast<size_t>(b.actions) * size, 0);
  b.value.assign(size, 0.0f);
  Rng rng(seed);
  std::vector<int> legal;
  for (int i = 0; i < size; ++i) {
    auto s = new_game(c.game);
    for (int m = static_cast<int>(rng.below(4)); m > 0; --m) {
      s->legal_actions(&legal);
      s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    s->encode(b.inputs.data() + i * per);
    s->legal_actions(&legal);
    for (int a : legal) {
      const int net = s->to_net_action(a);
      b.mask[i * b.actions + net] = 1;
      b.policy[i * b.actions + net] = 1.0f / static_cast<float>(legal.size());
    }
    b.value[i] = i % 2 ? 1.0f : -1.0f;
  }
  return b;
}

}  // namespace quax
