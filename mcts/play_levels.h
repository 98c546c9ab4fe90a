// The difficulty levels of a model player (`--level` of play, gtp and serve, `level=N` in a
// player description, quax.Search(level=)): 10 is the model at full strength, each level
// below plays a weaker way with the same model - fewer simulations, then the network's
// policy alone (no search), then that policy drawn at rising temperatures. The table is the
// same for every model; how far apart its levels are in Elo depends on the model and is
// measured per model with `quax arena --chain` (the figures are in each model's card).
#pragma once

#include <string>

#include "mcts/search_settings.h"

namespace quax {

inline constexpr int kMinPlayLevel = 1;
inline constexpr int kMaxPlayLevel = 10;

struct PlayLevel {
  int level;
  const char* name;          // what the browser offers: "novice" ... "full strength"
  int simulations;           // per move; 1 with the policy alone (it only evaluates the root)
  float prior_temperature;   // < 0: the search's move; >= 0: SearchSettings::prior_temperature
};

// Precondition: kMinPlayLevel <= level <= kMaxPlayLevel.
const PlayLevel& play_level(int level);

// `settings` playing at `level`: its simulations and prior temperature set, the rest kept.
SearchSettings at_level(SearchSettings settings, int level);

// "1 (novice) to 10 (full strength)": for help texts and error lines.
std::string play_level_range();

}  // namespace quax
