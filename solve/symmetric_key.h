// One key for a position and its images under the symmetries of the board that keep the
// value for the player to move: all 8 of the square (env/symmetry.h). The 4 that exchange
// the goals swap the colours and the player to move with them, which keeps "the mover wins";
// swap maps to swap in the image (see transform_position), so the game trees correspond.
#pragma once

#include <cstdint>

#include "env/game_state.h"

namespace quax {

// Hex's rhombus has four such images (symmetric_key.cpp). The smallest position_key() over the
// images; position_key() itself for games without a symmetry table (the other hexagonal boards).
uint64_t symmetric_key(const GameState& state);

}  // namespace quax
