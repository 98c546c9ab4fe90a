#include "mcts/play_levels.h"

#include <cassert>
#include <sstream>

namespace quax {

namespace {

constexpr const char* kNames[] = {"novice", "beginner", "casual", "club",   "intermediate",
                                  "advanced", "strong", "expert", "master", "full strength"};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == kMaxPlayLevel - kMinPlayLevel + 1);

// Spaced by measurement (BENCHMARKS.md, "Difficulty levels"): on quax-9.pt at 9x9 a step of
// about 1.25 in temperature made a level of 150-250 Elo from 0.8 up, but 0.65 down to 0 was
// worth less than one, and so were 16 simulations over the policy's own move; 56 simulations
// over 16 and 200 over 56 scored 65-70%.
constexpr LevelTable kDefaultTable = {{
    {1, 2.9f}, {1, 2.4f}, {1, 2.0f}, {1, 1.6f}, {1, 1.3f}, {1, 1.05f}, {1, 0.8f}, {1, 0.0f}, {48, -1.0f}, {200, -1.0f},
}};

}  // namespace

const LevelTable& default_level_table() { return kDefaultTable; }

const char* play_level_name(int level) {
  assert(level >= kMinPlayLevel && level <= kMaxPlayLevel);
  return kNames[level - kMinPlayLevel];
}

SearchSettings at_level(SearchSettings settings, int level, const LevelTable& table) {
  assert(level >= kMinPlayLevel && level <= kMaxPlayLevel);
  const LevelSetting& l = table[level - kMinPlayLevel];
  settings.simulations = l.simulations;
  settings.prior_temperature = l.prior_temperature;
  return settings;
}

std::string check_level_table(const LevelTable& table) {
  for (int level = kMinPlayLevel; level <= kMaxPlayLevel; ++level) {
    const LevelSetting& l = table[level - kMinPlayLevel];
    const std::string name = "level " + std::to_string(level);
    if (l.simulations < 1 || l.simulations > kMaxLevelSimulations)
      return name + ": simulations " + std::to_string(l.simulations) + " is not in [1, " +
             std::to_string(kMaxLevelSimulations) + "]";
    if (!(l.prior_temperature == -1.0f || (l.prior_temperature >= 0.0f && l.prior_temperature <= kMaxLevelTemperature))) {
      std::ostringstream line;
      line << name << ": temperature " << l.prior_temperature << " is neither -1 (the search's move) nor in [0, "
           << kMaxLevelTemperature << "]";
      return line.str();
    }
  }
  if (table.back().prior_temperature >= 0.0f) return "level 10 must play the search's move (temperature -1)";
  return "";
}

std::string play_level_range() {
  return std::to_string(kMinPlayLevel) + " (" + play_level_name(kMinPlayLevel) + ") to " +
         std::to_string(kMaxPlayLevel) + " (" + play_level_name(kMaxPlayLevel) + ")";
}

}  // namespace quax
