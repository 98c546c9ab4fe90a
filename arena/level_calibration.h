// The arithmetic of `quax levels` (command/levels.cpp), which measures a model's own
// difficulty levels: the settings it measures, and the choice of ten of them from their
// ratings. Playing the games is the command's part.
#pragma once

#include <vector>

#include "arena/elo.h"
#include "mcts/play_levels.h"

namespace quax {

// The settings measured, weakest first by design: the policy alone drawn at falling
// temperatures, its top move, then searches of rising size up to `full_simulations` (the
// last one, level 10). Precondition: full_simulations >= 2.
std::vector<LevelSetting> level_candidates(int full_simulations);

// The ratings of settings that each played the next one only (`links[i]`: setting i against
// i + 1, from i's side), setting 0 at 0: the sum of the links' Elo differences, each from its
// score with half a win added to each side (a link won 40-0 is finite, as with fit_elo's
// prior; a chain needs no more, its links being independent). Precondition: links[i].i == i
// and links[i].j == i + 1.
std::vector<double> chain_elo(const std::vector<PairRecord>& links);

// Indices of levels 1..10 among candidates rated `elo`, the last candidate the full search:
// level 10 is the full search, level 1 the lowest rated, and levels 2..9 the candidates rated
// between them whose ratings, each at least `min_gap` above the one below, lie nearest (least
// total distance) to evenly spaced ratings. By rating, not by the candidates' order: a search
// of a few simulations can play worse than the policy's top move (hex-11.pt: 4 simulations
// lost 11-29 to it). Empty when no ten candidates, the full search counted, are that far apart
// up to it.
std::vector<int> choose_levels(const std::vector<double>& elo, double min_gap);

// Neighbouring levels at least this far apart where the ratings allow: ratings from 40 games a
// link carry about +-100 Elo, and two settings rated 105 apart scored 21-19 when played again
// (quax-11.pt's policy at temperatures 0.4 and 0). An expected score of 67% for the stronger.
inline constexpr double kMinLevelGap = 120.0;

// choose_levels with the largest gap that leaves ten levels: `wanted`, kMinLevelGap (half an
// even step where the span is less than nine of them), halved until ten fit, down to none
// (`used` 0: ratings merely rising). Empty when not even that: fewer than ten distinct ratings
// up to the full search's.
struct LevelGap {
  double wanted = 0, used = 0;
};
std::vector<int> choose_levels(const std::vector<double>& elo, LevelGap* gap);

}  // namespace quax
