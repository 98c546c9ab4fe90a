#include "arena/level_calibration.h"

#include <algorithm>
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
  // Searches growing by a factor of about 1.4 below the full one, the last at most 2/3 of it: on
  // hex-11.pt the policy's top move to 48 simulations was 640 Elo, and on quax-11.pt 32 to 64
  // simulations 300, more than a level's worth, when the searches only doubled.
  for (int k = 0;; ++k) {
    const int sims = static_cast<int>(std::lround(4.0 * std::pow(2.0, 0.5 * k)));
    if (3 * sims > 2 * full_simulations) break;
    out.push_back({sims, -1.0f});
  }
  out.push_back({full_simulations, -1.0f});
  return out;
}

std::vector<double> pooled_elo(int num_settings, const std::vector<PairRecord>& records) {
  std::vector<PairRecord> smoothed = records;
  for (PairRecord& r : smoothed) {
    r.wins_i += 0.5;
    r.wins_j += 0.5;
  }
  return fit_elo(num_settings, smoothed, 0, 0.0, 0.0).elo;
}

std::vector<double> ordered_within_kinds(const std::vector<double>& elo, const std::vector<LevelSetting>& candidates) {
  assert(elo.size() == candidates.size());
  std::vector<double> out = elo;
  for (const bool search : {false, true}) {
    struct Run {
      double sum;
      int count;
      double mean() const { return sum / count; }
    };
    std::vector<int> members;
    std::vector<Run> runs;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if ((candidates[i].prior_temperature < 0.0f) != search) continue;
      members.push_back(static_cast<int>(i));
      runs.push_back({elo[i], 1});
      while (runs.size() > 1 && runs[runs.size() - 2].mean() > runs.back().mean()) {
        runs[runs.size() - 2].sum += runs.back().sum;
        runs[runs.size() - 2].count += runs.back().count;
        runs.pop_back();
      }
    }
    size_t m = 0;
    for (const Run& r : runs)
      for (int k = 0; k < r.count; ++k) out[members[m++]] = r.mean();
  }
  return out;
}

StepScore step_score(const std::vector<PairRecord>& records, int lower, int upper) {
  double upper_points = 0, games = 0;
  for (const PairRecord& r : records) {
    if (!((r.i == lower && r.j == upper) || (r.i == upper && r.j == lower))) continue;
    const double g = r.wins_i + r.wins_j + r.draws;
    upper_points += (r.i == upper ? r.wins_i : r.wins_j) + 0.5 * r.draws;
    games += g;
  }
  return {games > 0 ? upper_points / games : 0.0, games};
}

bool step_fails_check(const std::vector<PairRecord>& records, const std::vector<double>& elo, int lower, int upper) {
  return step_score(records, lower, upper).score < kCheckedLevelStepScore ||
         elo[upper] - elo[lower] < elo_from_score(kCheckedLevelStepScore);
}

std::vector<std::pair<int, int>> neighbouring_pairs(const std::vector<int>& chosen) {
  std::vector<std::pair<int, int>> out;
  for (size_t k = 1; k < chosen.size(); ++k)
    out.emplace_back(std::min(chosen[k - 1], chosen[k]), std::max(chosen[k - 1], chosen[k]));
  return out;
}

std::vector<int> choose_levels(const std::vector<double>& elo, double min_gap, const CandidatePairs& not_neighbours) {
  constexpr int kLevels = kMaxPlayLevel - kMinPlayLevel + 1;
  const int full = static_cast<int>(elo.size()) - 1;
  // The candidates rated below the full search, by rating (ties: the earlier candidate first).
  std::vector<int> order;
  for (int i = 0; i < full; ++i)
    if (elo[i] < elo[full]) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return elo[a] < elo[b]; });
  order.push_back(full);
  const int n = static_cast<int>(order.size());
  if (n < kLevels) return {};
  const double low = elo[order.front()], high = elo[full];
  auto target = [&](int level) { return low + (high - low) * level / (kLevels - 1); };
  // cost[k][p]: the least total distance of levels 0..k with level k at order[p].
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> cost(kLevels, std::vector<double>(n, inf));
  std::vector<std::vector<int>> from(kLevels, std::vector<int>(n, -1));
  cost[0][0] = 0;
  for (int k = 1; k < kLevels; ++k)
    for (int p = k; p < n - (kLevels - 1 - k); ++p) {
      if (k == kLevels - 1 && p != n - 1) continue;  // level 10 is the full search
      for (int q = k - 1; q < p; ++q) {
        if (!(elo[order[p]] - elo[order[q]] >= min_gap) || !(elo[order[q]] < elo[order[p]])) continue;
        if (not_neighbours.count({std::min(order[p], order[q]), std::max(order[p], order[q])})) continue;
        const double c = cost[k - 1][q] + std::abs(elo[order[p]] - target(k));
        if (c < cost[k][p]) {
          cost[k][p] = c;
          from[k][p] = q;
        }
      }
    }
  if (cost[kLevels - 1][n - 1] == inf) return {};  // too few distinct ratings
  std::vector<int> chosen(kLevels);
  int p = n - 1;
  for (int k = kLevels - 1; k >= 0; --k) {
    chosen[k] = order[p];
    if (k > 0) p = from[k][p];
  }
  return chosen;
}

std::vector<int> choose_levels(const std::vector<double>& elo, LevelGap* gap, const CandidatePairs& not_neighbours) {
  const int full = static_cast<int>(elo.size()) - 1;
  const double low = *std::min_element(elo.begin(), elo.end());
  // A share of an even step where the span is small; then smaller gaps, down to none, when
  // the ratings (few games) leave no ten that far apart.
  gap->wanted = std::min(kMinLevelGap, kMinLevelGapOfEvenStep * (elo[full] - low) / (kMaxPlayLevel - kMinPlayLevel));
  for (gap->used = gap->wanted; gap->used > 1.0; gap->used *= 0.8) {
    auto chosen = choose_levels(elo, gap->used, not_neighbours);
    if (!chosen.empty()) return chosen;
  }
  gap->used = 0;
  return choose_levels(elo, 0.0, not_neighbours);
}

}  // namespace quax
