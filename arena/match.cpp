#include "arena/match.h"

#include <atomic>
#include <chrono>
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
    for (auto [i, j] : pairs) out.push_back(round % 2 == 0 ? Pairing{i, j, {}} : Pairing{j, i, {}});
  return out;
}

GameResult play_game(const GameSpec& spec, Agent& black, Agent& white, const std::vector<int>& opening,
                     int max_moves) {
  auto state = new_game(spec);
  black.reset();
  white.reset();
  GameResult result;
  result.spec = spec;
  std::vector<int> actions;
  auto apply = [&](int action) {
    black.inform_action(*state, action);
    white.inform_action(*state, action);
    actions.push_back(action);
    state->apply(action);
  };
  for (int action : opening) {
    if (state->is_over() || !state->why_illegal(action).empty())
      throw std::runtime_error("opening move " + std::to_string(actions.size() + 1) + " (action " +
                               std::to_string(action) + ") is illegal: " + state->why_illegal(action));
    apply(action);
  }
  Outcome resigned = Outcome::kOngoing;
  while (!state->is_over() && state->move_number() < max_moves) {
    const int side = state->to_move() == Player::kBlack ? 0 : 1;
    Agent& agent = side == 0 ? black : white;
    const auto start = std::chrono::steady_clock::now();
    const int action = agent.choose_action(*state);
    result.seconds[side] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ++result.chosen[side];
    if (action == kResignAction) {
      resigned = side == 0 ? Outcome::kWhiteWins : Outcome::kBlackWins;
      break;
    }
    if (const auto why = state->why_illegal(action); !why.empty())
      throw std::runtime_error("player " + agent.name() + " chose an illegal move: " + why);
    apply(action);
  }
  // In the notation every reader replays (a torax auction turn is one token).
  result.record = record_text(spec, actions);
  result.resigned = resigned != Outcome::kOngoing;
  result.outcome = result.resigned ? resigned : state->is_over() ? state->outcome() : Outcome::kDraw;
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
        GameResult r = play_game(spec, *agents[p.black], *agents[p.white], p.opening);
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
