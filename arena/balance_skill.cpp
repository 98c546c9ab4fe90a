#include "arena/balance_skill.h"

#include <algorithm>

#include "arena/batched_games.h"
#include "arena/strength_curve.h"

namespace quax {

std::vector<int> skill_counts(int first, int cap) {
  std::vector<int> counts;
  for (int s = std::max(1, first); 2 * s <= cap; s *= 2) counts.push_back(s);
  return counts;
}

SkillPoint skill_point(const GameSpec& spec, Evaluator& evaluator, const SearchSettings& search, int sims, int games,
                       uint64_t seed) {
  SearchPlayer doubled{&evaluator, search}, single{&evaluator, search};
  doubled.search.simulations = 2 * sims;
  single.search.simulations = sims;
  BatchedGamesOptions options;
  options.seed = seed;
  SkillPoint p;
  p.sims = sims;
  const auto schedule = schedule_games(2, games, Schedule::kRoundRobin);
  play_games_batched(spec, {"2x", "1x"}, schedule, {&doubled, &single}, options, [&](size_t g, const GameResult& r) {
    const Player doubled_colour = schedule[g].black == 0 ? Player::kBlack : Player::kWhite;
    count_game(winner_of(r.outcome), doubled_colour, &p.wins, &p.draws, &p.losses);
  });
  const ScoreInterval s = score_interval(p.wins, p.draws, p.losses);
  p.score = s.score;
  p.low = s.low;
  p.high = s.high;
  return p;
}

SkillDepth skill_depth(const std::vector<SkillPoint>& curve, double gain) {
  SkillDepth d;
  d.gain = gain;
  for (const SkillPoint& p : curve) {
    if (p.score > gain) ++d.doublings_gaining;
    d.mean_score += p.score;
  }
  if (!curve.empty()) d.mean_score /= static_cast<double>(curve.size());
  return d;
}

}  // namespace quax
