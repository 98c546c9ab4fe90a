// Positions of a real game encoded as an Evaluator receives them (planes, network-frame legal
// masks), for tests that compare evaluators on the same batch.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"

namespace quax {

struct Positions {
  std::vector<std::unique_ptr<GameState>> states;
  std::vector<const GameState*> pointers;
  std::vector<float> planes;
  std::vector<uint8_t> masks;
};

// `count` positions of `spec` after 0 to 9 random moves, encoded for the network.
inline Positions random_positions(const GameSpec& spec, int count, uint64_t seed) {
  Positions p;
  Rng rng(seed);
  std::vector<int> legal;
  while (static_cast<int>(p.states.size()) < count) {
    auto s = new_game(spec);
    for (int m = static_cast<int>(rng.below(10)); m > 0 && !s->is_over(); --m) {
      s->legal_actions(&legal);
      s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    if (!s->is_over()) p.states.push_back(std::move(s));
  }
  const GameState& first = *p.states[0];
  const size_t per = static_cast<size_t>(first.num_planes()) * first.size() * first.size();
  const size_t a = static_cast<size_t>(first.num_actions());
  p.planes.resize(per * count);
  p.masks.assign(a * count, 0);
  std::vector<uint8_t> board_mask(a);
  for (int i = 0; i < count; ++i) {
    const GameState& s = *p.states[i];
    p.pointers.push_back(&s);
    s.encode(p.planes.data() + i * per);
    s.legal_mask(board_mask.data());
    for (size_t x = 0; x < a; ++x)
      if (board_mask[x]) p.masks[i * a + s.to_net_action(static_cast<int>(x))] = 1;
  }
  return p;
}

}  // namespace quax
