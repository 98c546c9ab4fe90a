// The difficulty levels of a model player (`--level` of play, gtp and serve, `level=N` in a
// player description, quax.Search(level=)): 10 is the model at full strength, each level
// below plays a weaker way with the same model - fewer simulations, then the network's
// policy alone (no search), then that policy drawn at rising temperatures. How far apart the
// levels are in Elo depends on the model: the default table below suits the quax models it
// was measured on, and `quax levels` measures a model's own table and writes it into the
// model file (nets/model_levels.h), which then replaces the default for that model.
#pragma once

#include <array>
#include <string>

#include "mcts/search_settings.h"

namespace quax {

inline constexpr int kMinPlayLevel = 1;
inline constexpr int kMaxPlayLevel = 10;

// How one level plays.
struct LevelSetting {
  int simulations;          // per move; 1 with the policy alone (it only evaluates the root)
  float prior_temperature;  // < 0: the search's move; >= 0: SearchSettings::prior_temperature
  bool operator==(const LevelSetting& o) const { return simulations == o.simulations && prior_temperature == o.prior_temperature; }
};

// The settings of levels 1..10, weakest first (index level - 1).
using LevelTable = std::array<LevelSetting, kMaxPlayLevel - kMinPlayLevel + 1>;

// The table for models that carry none of their own.
const LevelTable& default_level_table();

// What the browser offers: "novice" ... "full strength". Precondition: a level in range.
const char* play_level_name(int level);

// `settings` playing at `level` by `table`: its simulations and prior temperature set, the
// rest kept. Precondition: kMinPlayLevel <= level <= kMaxPlayLevel.
SearchSettings at_level(SearchSettings settings, int level, const LevelTable& table = default_level_table());

// "" when `table` can be played: simulations in [1, kMaxLevelSimulations], a temperature that
// is -1 (the search's move) or in [0, kMaxLevelTemperature], and level 10 searching; else one
// line naming the first level that is wrong.
inline constexpr int kMaxLevelSimulations = 100'000;
inline constexpr float kMaxLevelTemperature = 10.0f;
std::string check_level_table(const LevelTable& table);

// "1 (novice) to 10 (full strength)": for help texts and error lines.
std::string play_level_range();

}  // namespace quax
