#include "env/ownership.h"

#include <algorithm>
#include <cassert>

namespace quax {

void net_ownership_targets(const GameState& position, const std::vector<CellOwnership>& final_board, int sym,
                           float* out) {
  const int nn = position.size() * position.size();
  assert(static_cast<int>(final_board.size()) == nn && !position.is_over());
  const Player mover = position.to_move();
  // A whole policy vector carries the plane through transform_net_policy, which every variant
  // has; cells are spatial plane 0, and every symmetry maps that plane onto itself.
  std::vector<float> plane(static_cast<size_t>(position.num_actions())), moved(plane.size());
  for (int k = 0; k < kOwnershipPlanes; ++k) {
    std::fill(plane.begin(), plane.end(), 0.0f);
    for (int cell = 0; cell < nn; ++cell) {
      const CellOwnership& c = final_board[cell];
      if (k == 1 && !c.on_chain) continue;
      const float v = c.owner == mover ? 1.0f : c.owner == opponent(mover) ? -1.0f : 0.0f;
      plane[position.to_net_action(cell)] = v;
    }
    position.transform_net_policy(sym, plane.data(), moved.data());
    std::copy(moved.begin(), moved.begin() + nn, out + static_cast<size_t>(k) * nn);
  }
}

}  // namespace quax
