// Ownership targets in the network frame: the auxiliary targets (KataGo's ownership, and the
// winning chain) a training position gets from the end of its game. No LibTorch here.
#pragma once

#include <functional>
#include <vector>

#include "env/game_state.h"

namespace quax {

// GameState::final_ownership() of a game on an n x n grid of cells (cell r*n + c, row 0 the
// south edge) whose winner connects two opposite edges: Black south and north, White west and
// east (the square family, quikquax, stymie's octagons). Empty while `outcome` is ongoing;
// otherwise owner_of(cell) for every cell, and on_chain on each of the winner's cells whose
// group touches both of the winner's edges. group_of(cell) names a cell's group, below
// num_groups, in a replay of the game's connections that joins no edge: the game's own
// union-find has merged every group touching an edge into that edge's set, so it no longer
// tells the groups apart.
std::vector<CellOwnership> edge_chain_ownership(int n, Outcome outcome, const std::function<Player(int)>& owner_of,
                                                int num_groups, const std::function<int(int)>& group_of);

// The planes an ownership head predicts.
inline constexpr int kOwnershipPlanes = 2;

// Writes kOwnershipPlanes planes of size() x size() floats to `out`, in the network frame of
// `position` after its network-frame symmetry `sym` (the frame and symmetry of the training
// example's inputs and policy), from the mover M's point of view:
//   plane 0, owner: +1 on the cells holding M's stones at the end, -1 on the opponent's, 0 on
//     cells left empty (and off the board);
//   plane 1, chain: +1 on the cells of M's winning chain, -1 on the opponent's, 0 elsewhere.
// `final_board` is the game's GameState::final_ownership(), taken once per game: board-frame
// cells become network-frame ones through position.to_net_action() of the cell actions of
// spatial plane 0, and the symmetry is position.transform_net_policy() of that plane.
// Preconditions: `position` is a position of that game, not over; final_board has size()^2
// entries.
void net_ownership_targets(const GameState& position, const std::vector<CellOwnership>& final_board, int sym,
                           float* out);

}  // namespace quax
