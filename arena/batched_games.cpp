#include "arena/batched_games.h"

#include <stdexcept>
#include <vector>

#include "env/notation.h"
#include "mcts/search_schema.h"
#include "mcts/selfplay_driver.h"

namespace quax {

void play_games_batched(const GameSpec& spec, const std::vector<std::string>& names,
                        const std::vector<Pairing>& games, const std::vector<const SearchPlayer*>& players,
                        const BatchedGamesOptions& options,
                        const std::function<void(size_t, const GameResult&)>& on_result,
                        const std::function<bool()>& should_stop) {
  if (games.empty()) return;
  // The driver's player settings and evaluators: one entry per arena player that plays.
  std::vector<int> seat_of(players.size(), -1);
  DriverOptions opt;
  opt.spec = spec;
  opt.players.clear();
  std::vector<Evaluator*> evaluators;
  for (const Pairing& g : games)
    for (int p : {g.black, g.white}) {
      if (p < 0 || p >= static_cast<int>(players.size()) || !players[p] || !players[p]->evaluator)
        throw std::invalid_argument("batched arena game names player " + std::to_string(p) +
                                    ", which does not search with an evaluator");
      if (seat_of[p] >= 0) continue;
      seat_of[p] = static_cast<int>(opt.players.size());
      PlayerSettings ps;
      ps.search = play_settings(players[p]->search);
      ps.evaluator = static_cast<int>(evaluators.size());
      ps.temperature_moves = options.sampled_turns;
      ps.temperature_counts_turns = true;
      ps.temperature_early = 1.0f;
      ps.temperature_final = 0.0f;
      opt.players.push_back(ps);
      evaluators.push_back(players[p]->evaluator);
    }
  opt.parallel_games = std::max(1, std::min<int>(options.parallel_games, static_cast<int>(games.size())));
  opt.games_to_play = static_cast<int64_t>(games.size());
  // The driver starts games in order 0, 1, 2, ...: game g takes the g-th pairing's colours.
  opt.seats_for_game = [&](int64_t g) {
    return std::make_pair(seat_of[games[g].black], seat_of[games[g].white]);
  };
  opt.seed = options.seed;
  GameDriver driver(opt, evaluators);
  for (;;) {
    if (should_stop && should_stop()) return;
    const bool more = driver.step();
    for (GameRecord& rec : driver.take_finished()) {
      const size_t g = static_cast<size_t>(rec.game_index);
      GameResult r;
      r.spec = spec;
      r.black = names[games[g].black];
      r.white = names[games[g].white];
      r.outcome = rec.outcome;
      r.moves = static_cast<int>(rec.moves.size());
      std::vector<int> actions;
      for (const MoveRecord& m : rec.moves) actions.push_back(m.action);
      // In the notation every reader replays (a torax auction turn is one token).
      r.record = record_text(spec, actions);
      on_result(g, r);
    }
    if (!more) return;
  }
}

}  // namespace quax
