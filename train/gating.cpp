#include "train/gating.h"

#include <algorithm>
#include <stdexcept>

#include "arena/elo.h"
#include "env/rng.h"
#include "arena/match.h"
#include "mcts/baseline_agents.h"
#include "mcts/search_schema.h"
#include "nets/model_agent.h"

namespace quax {

namespace {
// A score of 0 or 1 has no finite Elo difference; the few games of a gating match cannot tell
// more than this anyway.
constexpr double kMaxEloDiff = 800.0;
}  // namespace

nlohmann::json play_gating_games(const TrainConfig& config, int64_t step, const std::string& model_path,
                                 const std::string& previous_model_path) {
  const auto& g = config.gating;
  const bool vs_previous = g.opponent == "previous";
  SearchSettings search = play_settings(config.search);
  search.simulations = g.simulations;
  const std::vector<std::string> names = {"new", vs_previous ? "previous" : g.opponent};
  auto make = [&](int index, uint64_t seed) -> std::unique_ptr<Agent> {
    std::string error;
    std::unique_ptr<Agent> agent;
    if (index == 0) agent = make_model_agent(model_path, config.game, search, seed, &error, 0, config.selfplay.device);
    else if (vs_previous) agent = make_model_agent(previous_model_path, config.game, search, seed, &error, 0, config.selfplay.device);
    else agent = make_baseline_agent(g.opponent, seed, &error);
    if (!agent) throw std::runtime_error("gating: " + error);
    return agent;
  };
  // The new model's results by the colour it played.
  struct Tally {
    double wins = 0, losses = 0, draws = 0;
    nlohmann::json json() const {
      return {{"games", wins + losses + draws}, {"wins", wins}, {"losses", losses}, {"draws", draws}};
    }
  } as_black, as_white;
  const auto games = schedule_games(2, g.games);
  play_games(config.game, names, games, make, 1, derive_seed(config.run.seed, static_cast<uint64_t>(step)),
             [&](size_t, const GameResult& r) {
               const bool new_is_black = r.black == names[0];
               Tally& t = new_is_black ? as_black : as_white;
               if (r.outcome == Outcome::kDraw) t.draws += 1;
               else if ((r.outcome == Outcome::kBlackWins) == new_is_black) t.wins += 1;
               else t.losses += 1;
             });
  const double wins = as_black.wins + as_white.wins, losses = as_black.losses + as_white.losses;
  const double draws = as_black.draws + as_white.draws;
  const double n = wins + losses + draws;
  const double score = (wins + 0.5 * draws) / n;
  nlohmann::json j;
  j["kind"] = "gating";
  j["step"] = step;
  j["opponent"] = names[1];
  j["games"] = n;
  j["wins"] = wins;
  j["losses"] = losses;
  j["draws"] = draws;
  j["as_black"] = as_black.json();
  j["as_white"] = as_white.json();
  j["score"] = score;
  j["elo_diff"] = std::clamp(elo_from_score(std::clamp(score, 1e-6, 1 - 1e-6)), -kMaxEloDiff, kMaxEloDiff);
  return j;
}

}  // namespace quax
