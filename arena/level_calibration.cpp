#include "arena/level_calibration.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace quax {

std::vector<LevelSetting> level_candidates(int full_simulations) {
  assert(full_simulations >= 2);
  std::vector<LevelSetting> out;
  // The temperatures: hotter than the default table's novice (2.9), down to the top move, in
  // steps that each cost about the same strength on the quax models (BENCHMARKS.md).
  for (float t : {3.5f, 3.0f, 2.5f, 2.0f, 1.6f, 1.3f, 1.0f, 0.8f, 0.6f, 0.4f, 0.0f}) out.push_back({1, t});
  // Searches doubling in size below the full one (on hex-11.pt the policy's top move to 48
  // simulations was 640 Elo, several levels' worth); the last is at most 2/3 of the full one.
  for (int sims = 4; 3 * sims <= 2 * full_simulations; sims *= 2) out.push_back({sims, -1.0f});
  out.push_back({full_simulations, -1.0f});
  return out;
}

std::vector<int> choose_levels(const std::vector<double>& elo) {
  constexpr int kLevels = kMaxPlayLevel - kMinPlayLevel + 1;
  const int n = static_cast<int>(elo.size());
  assert(n >= kLevels);
  auto target = [&](int level) { return elo.front() + (elo.back() - elo.front()) * level / (kLevels - 1); };
  // cost[k][i]: the least total distance of levels 0..k with level k at candidate i.
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> cost(kLevels, std::vector<double>(n, inf));
  std::vector<std::vector<int>> from(kLevels, std::vector<int>(n, -1));
  cost[0][0] = 0;
  for (int k = 1; k < kLevels; ++k)
    for (int i = k; i < n - (kLevels - 1 - k); ++i) {
      if (k == kLevels - 1 && i != n - 1) continue;  // level 10 is the full search
      for (int j = k - 1; j < i; ++j) {
        const double c = cost[k - 1][j] + std::abs(elo[i] - target(k));
        if (c < cost[k][i]) {
          cost[k][i] = c;
          from[k][i] = j;
        }
      }
    }
  std::vector<int> chosen(kLevels);
  chosen[kLevels - 1] = n - 1;
  for (int k = kLevels - 1; k > 0; --k) chosen[k - 1] = from[k][chosen[k]];
  return chosen;
}

}  // namespace quax
