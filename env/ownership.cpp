#include "env/ownership.h"

#include <algorithm>
#include <cassert>

namespace quax {

std::vector<CellOwnership> edge_chain_ownership(int n, Outcome outcome, const std::function<Player(int)>& owner_of,
                                                int num_groups, const std::function<int(int)>& group_of) {
  if (outcome == Outcome::kOngoing) return {};
  std::vector<CellOwnership> cells(static_cast<size_t>(n) * n);
  for (int cell = 0; cell < n * n; ++cell) cells[cell].owner = owner_of(cell);
  const Player winner = winner_of(outcome);
  if (winner == Player::kNone) return cells;
  // Edge bits: 1 south, 2 north, 4 west, 8 east.
  const int goal = winner == Player::kBlack ? (1 | 2) : (4 | 8);
  auto edges = [&](int cell) {
    const int c = cell % n, r = cell / n;
    return (r == 0 ? 1 : 0) | (r == n - 1 ? 2 : 0) | (c == 0 ? 4 : 0) | (c == n - 1 ? 8 : 0);
  };
  std::vector<uint8_t> reached(static_cast<size_t>(num_groups), 0);  // per group: the edges its cells touch
  for (int cell = 0; cell < n * n; ++cell)
    if (cells[cell].owner == winner) reached[group_of(cell)] |= static_cast<uint8_t>(edges(cell));
  for (int cell = 0; cell < n * n; ++cell)
    cells[cell].on_chain = cells[cell].owner == winner && (reached[group_of(cell)] & goal) == goal;
  return cells;
}

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
