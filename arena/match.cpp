#include "arena/match.h"

#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "env/notation.h"
#include "env/rng.h"

namespace quax {

std::vector<std::string> entrant_names(const std::vector<std::string>& descriptions) {
  std::map<std::string, int> listed, seen;
  for (const auto& d : descriptions) ++listed[d];
  std::vector<std::string> names;
  for (const auto& d : descriptions)
    names.push_back(listed[d] == 1 ? d : d + "#" + std::to_string(++seen[d]));
  return names;
}

std::vector<Pairing> schedule_games(int num_players, int games_per_pair, Schedule schedule) {
  const int rounds = (games_per_pair + 1) / 2 * 2;
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < num_players; ++i)
    for (int j = i + 1; j < num_players; ++j)
      if (schedule == Schedule::kRoundRobin || (schedule == Schedule::kGauntlet && i == 0) ||
          (schedule == Schedule::kChain && j == i + 1))
        pairs.emplace_back(i, j);
  std::vector<Pairing> out;
  for (int round = 0; round < rounds; ++round)
    for (auto [i, j] : pairs) out.push_back(round % 2 == 0 ? Pairing{i, j} : Pairing{j, i});
  return out;
}

GameResult play_game(const GameSpec& spec, Agent& black, Agent& white, int max_moves) {
  auto state = new_game(spec);
  black.reset();
  white.reset();
  GameResult result;
  result.spec = spec;
  std::vector<int> actions;
  while (!state->is_over() && state->move_number() < max_moves) {
    Agent& agent = state->to_move() == Player::kBlack ? black : white;
    const int action = agent.choose_action(*state);
    actions.push_back(action);
    state->apply(action);
  }
  // In the notation every reader replays (a torax auction turn is one token).
  result.record = record_text(spec, actions);
  result.outcome = state->is_over() ? state->outcome() : Outcome::kDraw;
  result.moves = state->move_number();
  return result;
}

void play_games(const GameSpec& spec, const std::vector<std::string>& names, const std::vector<Pairing>& games,
                const AgentFactory& make_agent, int threads, uint64_t seed,
                const std::function<void(size_t, const GameResult&)>& on_result,
                const std::function<bool()>& should_stop) {
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex mu;               // serialises on_result and guards `error`
  std::exception_ptr error;    // the first error of any thread
  auto worker = [&](int t) {
    try {
      std::vector<std::unique_ptr<Agent>> agents(names.size());
      for (;;) {
        if (failed || (should_stop && should_stop())) return;
        const size_t g = next++;
        if (g >= games.size()) return;
        const Pairing& p = games[g];
        for (int idx : {p.black, p.white})
          if (!agents[idx]) {
            agents[idx] = make_agent(idx, derive_seed(derive_seed(seed, t), static_cast<uint64_t>(idx)));
            if (!agents[idx]) throw std::runtime_error("player '" + names[idx] + "' could not be made");
          }
        GameResult r = play_game(spec, *agents[p.black], *agents[p.white]);
        r.black = names[p.black];
        r.white = names[p.white];
        std::lock_guard<std::mutex> lock(mu);
        try {
          on_result(g, r);
        } catch (...) {
          // Raised while the lock is held: a thread that takes the lock next reports the game it
          // has finished and then sees the failure, instead of starting new games.
          failed = true;
          throw;
        }
      }
    } catch (...) {
      // An exception must not leave a thread (that ends the process, losing the games of
      // the others): the caller gets it once every thread has stopped.
      failed = true;  // before the lock: the other threads may keep taking it for new games
      std::lock_guard<std::mutex> lock(mu);
      if (!error) error = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace quax
