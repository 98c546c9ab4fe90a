// The arithmetic of `quax levels` (command/levels.cpp), which measures a model's own
// difficulty levels: the settings it measures, and the choice of ten of them from their
// ratings. Playing the games is the command's part.
#pragma once

#include <set>
#include <utility>
#include <vector>

#include "arena/elo.h"
#include "mcts/play_levels.h"

namespace quax {

// The settings measured, weakest first by design: the policy alone drawn at falling
// temperatures, its top move, then searches of rising size up to `full_simulations` (the
// last one, level 10). Precondition: full_simulations >= 2.
std::vector<LevelSetting> level_candidates(int full_simulations);

// The ratings of settings from all their games (`records`: one per pair that played, as
// results_log's tally pools them), setting 0 at 0: the Bradley-Terry fit (arena/elo.h) of the
// records with half a win added to each side of every pair, so that a pair won 40-0 is finite
// without a prior pulling every rating towards setting 0. On a chain (each setting against the
// next only) each rating is the sum of the links' Elo differences; the games of later checks
// between any two settings join the same fit. Precondition: every setting is connected to
// setting 0 through the records.
std::vector<double> pooled_elo(int num_settings, const std::vector<PairRecord>& records);

// The ratings with each kind of setting made non-decreasing in the candidates' order: the
// policy at falling temperatures, then the searches of rising size. A cooler draw of the same
// policy, or more simulations of the same search, does not play weaker; a dip between them is
// the noise of 40 games a link (crossway-19.pt at 19x19: 6, 8 and 11 simulations rated 1794,
// 1741 and 1635, and ten levels chosen from those ratings put 6 simulations above 11). Each run
// of settings rated against their order gets its mean (pooling adjacent violators), so that
// none of them is chosen above another; across kinds the ratings stay as measured (a search of
// a few simulations can lose to the policy's top move). Precondition: elo.size() == candidates.size().
std::vector<double> ordered_within_kinds(const std::vector<double>& elo, const std::vector<LevelSetting>& candidates);

// Indices of levels 1..10 among candidates rated `elo`, the last candidate the full search:
// level 10 is the full search, level 1 the lowest rated, and levels 2..9 the candidates rated
// between them whose ratings, each at least `min_gap` above the one below, lie nearest (least
// total distance) to evenly spaced ratings. By rating, not by the candidates' order: a search
// of a few simulations can play worse than the policy's top move (hex-11.pt: 4 simulations
// lost 11-29 to it). Two candidates listed in `not_neighbours` (lower index first) are never
// neighbouring levels. Empty when no ten candidates, the full search counted, are that far
// apart up to it.
using CandidatePairs = std::set<std::pair<int, int>>;
std::vector<int> choose_levels(const std::vector<double>& elo, double min_gap,
                               const CandidatePairs& not_neighbours = {});

// Neighbouring levels at least this far apart where the ratings allow: an expected score of 73%
// for the stronger, so that 40 fresh games between them fall under 60% about one time in 25.
// Ratings from 40 games a link carry about +-100 Elo, and two settings rated 105 apart scored
// 21-19 when played again (quax-11.pt's policy at temperatures 0.4 and 0); the checks of
// `quax levels` play the chosen pairs again.
inline constexpr double kMinLevelGap = 170.0;
// ... or this share of an even step where the span is too small for that.
inline constexpr double kMinLevelGapOfEvenStep = 0.7;

// choose_levels with the largest gap that leaves ten levels: `wanted`, the lesser of the two
// above, then 20% less at a time until ten fit, down to none (`used` 0: ratings merely rising).
// Empty when not even that: fewer than ten distinct ratings up to the full search's.
struct LevelGap {
  double wanted = 0, used = 0;
};
std::vector<int> choose_levels(const std::vector<double>& elo, LevelGap* gap, const CandidatePairs& not_neighbours = {});

// What a level must score against the one below it (the issue of the levels: 60% of 40
// games), and the bar of `quax levels`' checks, which play each pair of neighbouring levels
// again after choosing them: a pair whose games together score less than this for the
// higher-rated one, or whose ratings from all games are less apart than this score's Elo, is
// no neighbours in the next choice. Well above 60% because the table will be checked again with
// fresh games: on quickway-11.pt the policy's top move over 8 simulations passed a check of
// 60% with 26-14, rated 90 Elo apart, and then scored 23-17 in a fresh chain; on quadhex-10.pt 16
// simulations over the policy's top move passed a check of 65% with 27-13, rated 130 apart, and
// then scored 23-17. From a true 70%, 40 fresh games fall under 60% about one time in ten.
inline constexpr double kMinLevelStepScore = 0.6;
inline constexpr double kCheckedLevelStepScore = 0.7;

// The score of `upper` in the games of `records` between it and `lower` (draws half), and how
// many they were; {0, 0} when they never met.
struct StepScore {
  double score = 0, games = 0;
};
StepScore step_score(const std::vector<PairRecord>& records, int lower, int upper);

// Whether settings `lower` and `upper` (upper rated higher in `elo`, from all `records`) fail
// the check of neighbouring levels: their own games score under kCheckedLevelStepScore for the
// upper one, or all games rate them less apart than that score's Elo (their neighbours' games
// count too).
bool step_fails_check(const std::vector<PairRecord>& records, const std::vector<double>& elo, int lower, int upper);

// The pairs of neighbouring `chosen` levels, lower index first (the key of CandidatePairs).
std::vector<std::pair<int, int>> neighbouring_pairs(const std::vector<int>& chosen);

}  // namespace quax
