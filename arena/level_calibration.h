// The arithmetic of `quax levels` (command/levels.cpp), which measures a model's own
// difficulty levels: the settings it measures, and the choice of ten of them from their
// ratings. Playing the games is the command's part.
#pragma once

#include <vector>

#include "mcts/play_levels.h"

namespace quax {

// The settings measured, weakest first by design: the policy alone drawn at falling
// temperatures, its top move, then searches of rising size up to `full_simulations` (the
// last one, level 10). Precondition: full_simulations >= 2.
std::vector<LevelSetting> level_candidates(int full_simulations);

// Indices of levels 1..10 among candidates rated `elo` (weakest first; noise may make the
// ratings dip): level 1 is the first candidate, level 10 the last, and levels 2..9 the
// candidates, strictly rising in index, whose ratings lie nearest (least total distance) to
// ten evenly spaced ratings between those two. Precondition: elo.size() >= 10.
std::vector<int> choose_levels(const std::vector<double>& elo);

}  // namespace quax
