// Players that need no network, by name: what gtp, play and the arena accept as
// `--player random | uct:<playouts> | mcts:<sims>`.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mcts/agent.h"
#include "mcts/evaluator.h"

namespace quax {

// A baseline's description read: the one reader of "random", "uct:<playouts>" and
// "mcts:<simulations>" (a count from 1 to 100,000,000) for every door.
struct BaselinePlayer {
  enum class Kind { kRandom, kUct, kMcts };
  Kind kind = Kind::kRandom;
  int count = 0;  // playouts (uct) or simulations (mcts); 0 for random
};
// nullopt, and *error (when given: one line naming the description and what is wrong) for
// anything else.
std::optional<BaselinePlayer> parse_baseline(const std::string& description, std::string* error);
// Whether `text` is written as a baseline ("random", or "uct:" or "mcts:" and anything): what
// parse_baseline, not the model reader, should answer.
bool names_baseline(const std::string& text);

// Uniformly random legal moves.
std::unique_ptr<Agent> make_random_agent(uint64_t seed);

// Builds the agent a description names: "random"; "uct:<playouts>" (plain UCT, UCB1 with
// c = 1 on win rates, random rollouts); "mcts:<simulations>" (PUCT, c_puct 1.25, flat
// priors, each leaf valued by one random playout, no noise). Returns null and sets *error (one line naming the
// description and what is wrong) for an unknown or malformed description.
std::unique_ptr<Agent> make_baseline_agent(const std::string& description, uint64_t seed, std::string* error);

// The leaf evaluator of `mcts:<sims>` for a player seeded `seed` (one random playout per leaf),
// for callers that run that search themselves (the Python module's batched search).
std::shared_ptr<Evaluator> make_mcts_baseline_evaluator(uint64_t seed);

}  // namespace quax
