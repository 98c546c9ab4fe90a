#include "nets/net_config.h"

#include <fmt/format.h>

#include "env/game_state.h"

namespace quax {

ModelShape model_shape_for(const GameSpec& spec) {
  const auto state = new_game(spec);
  ModelShape shape;
  shape.spec = spec;
  shape.planes = state->num_planes();
  shape.size = spec.size;
  shape.spatial_planes = state->spatial_planes();
  shape.extra_actions = state->extra_actions();
  return shape;
}

std::string describe(const NetConfig& net) {
  return fmt::format("{} blocks x {} filters{}", net.blocks, net.filters,
                     net.global_pooling ? ", global pooling" : "");
}

}  // namespace quax
