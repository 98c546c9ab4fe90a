#include "env/game_state.h"

#include <algorithm>
#include <stdexcept>

namespace quax {

namespace {
void check_identity(int sym) {
  if (sym != 0) throw std::invalid_argument("this game has only the identity as a network-frame symmetry");
}
}  // namespace

void GameState::legal_actions(std::vector<int>* out) const {
  const int n = num_actions();
  std::vector<uint8_t> mask(static_cast<size_t>(n));
  legal_mask(mask.data());
  out->clear();
  for (int a = 0; a < n; ++a)
    if (mask[a]) out->push_back(a);
}

std::vector<int> GameState::parse_record_token(std::string_view token, std::string* error) const {
  const int action = parse_action(token, error);
  if (action < 0) return {};
  return {action};
}

void GameState::transform_net_planes(int sym, const float* in, float* out) const {
  check_identity(sym);
  std::copy(in, in + static_cast<size_t>(num_planes()) * size() * size(), out);
}

void GameState::transform_net_policy(int sym, const float* in, float* out) const {
  check_identity(sym);
  std::copy(in, in + num_actions(), out);
}

void GameState::transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const {
  check_identity(sym);
  std::copy(in, in + num_actions(), out);
}

}  // namespace quax
