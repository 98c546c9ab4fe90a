// Turns a player description from the command line into an Agent: the baselines of
// mcts/ (`random`, `uct:<playouts>`, `mcts:<sims>`) and, where LibTorch models are
// built in, model files with their search settings.
#pragma once

#include <memory>
#include <string>

#include "mcts/agent.h"

namespace quax {

// Returns null and sets *error (one line) when the description names nothing usable for
// this game (unknown player, missing model, model of another variant or size).
std::unique_ptr<Agent> make_player(const std::string& description, const GameSpec& spec, uint64_t seed,
                                   std::string* error);

}  // namespace quax
