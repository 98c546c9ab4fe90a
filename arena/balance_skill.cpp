#include "arena/balance_skill.h"

#include <algorithm>

#include "arena/batched_games.h"
#include "arena/match.h"
#include "arena/strength_curve.h"

namespace quax {

std::vector<int> skill_counts(int first, int cap) {
  std::vector<int> counts;
  for (int s = std::max(1, first); 2 * s <= cap; s *= 2) counts.push_back(s);
  return counts;
}

SkillPoint skill_point(const GameSpec& spec, const BalancePlayer& player, const SearchSettings& search, int sims,
                       int games, uint64_t seed) {
  SkillPoint p;
  p.sims = sims;
  const auto schedule = schedule_games(2, games, Schedule::kRoundRobin);
  const std::vector<std::string> names = {"2x", "1x"};
  auto count = [&](size_t g, const GameResult& r) {
    const Player doubled_colour = schedule[g].black == 0 ? Player::kBlack : Player::kWhite;
    count_game(winner_of(r.outcome), doubled_colour, &p.wins, &p.draws, &p.losses);
  };
  if (player.evaluator) {
    SearchPlayer doubled{player.evaluator, search}, single{player.evaluator, search};
    doubled.search.simulations = 2 * sims;
    single.search.simulations = sims;
    BatchedGamesOptions options;
    options.seed = seed;
    play_games_batched(spec, names, schedule, {&doubled, &single}, options, count);
  } else {
    const auto make = [&](int index, uint64_t agent_seed) {
      return player.make_agent(index == 0 ? 2 * sims : sims, agent_seed);
    };
    // One thread: the arena's threads keep an agent each across their games, so more of them
    // would make the figures depend on which thread played which game.
    play_games(spec, names, schedule, make, /*threads=*/1, seed, count);
  }
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
