#include "mcts/play_levels.h"

#include <cassert>

namespace quax {

namespace {

// Spaced by measurement (BENCHMARKS.md, "Difficulty levels"): on quax-9.pt at 9x9 a step of
// about 1.25 in temperature made a level of 150-250 Elo from 0.8 up, but 0.65 down to 0 was
// worth less than one, and so were 16 simulations over the policy's own move; 56 simulations
// over 16 and 200 over 56 scored 65-70%.
constexpr PlayLevel kLevels[] = {
    {1, "novice", 1, 2.9f},        {2, "beginner", 1, 2.4f},      {3, "casual", 1, 2.0f},
    {4, "club", 1, 1.6f},          {5, "intermediate", 1, 1.3f},  {6, "advanced", 1, 1.05f},
    {7, "strong", 1, 0.8f},        {8, "expert", 1, 0.0f},        {9, "master", 48, -1.0f},
    {10, "full strength", 200, -1.0f},
};
static_assert(sizeof(kLevels) / sizeof(kLevels[0]) == kMaxPlayLevel - kMinPlayLevel + 1);

}  // namespace

const PlayLevel& play_level(int level) {
  assert(level >= kMinPlayLevel && level <= kMaxPlayLevel);
  return kLevels[level - kMinPlayLevel];
}

SearchSettings at_level(SearchSettings settings, int level) {
  const PlayLevel& l = play_level(level);
  settings.simulations = l.simulations;
  settings.prior_temperature = l.prior_temperature;
  return settings;
}

std::string play_level_range() {
  return std::to_string(kMinPlayLevel) + " (" + play_level(kMinPlayLevel).name + ") to " +
         std::to_string(kMaxPlayLevel) + " (" + play_level(kMaxPlayLevel).name + ")";
}

}  // namespace quax
