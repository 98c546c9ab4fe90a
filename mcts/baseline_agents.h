// Players that need no network, by name: what gtp, play and the arena accept as
// `--player random | uct:<playouts> | mcts:<sims>`.
#pragma once

#include <memory>
#include <string>

#include "mcts/agent.h"

namespace quax {

// Uniformly random legal moves.
std::unique_ptr<Agent> make_random_agent(uint64_t seed);

// Builds the agent a description names: "random"; "uct:<playouts>" (plain UCT, UCB1 with
// c = 1 on win rates, random rollouts); "mcts:<simulations>" (PUCT, c_puct 1.25, flat
// priors, each leaf valued by one random playout, no noise). Returns null and sets *error (one line naming the
// description and what is wrong) for an unknown or malformed description.
std::unique_ptr<Agent> make_baseline_agent(const std::string& description, uint64_t seed, std::string* error);

}  // namespace quax
