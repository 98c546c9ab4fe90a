// A player that searches with a model file: what gtp, play and the arena use for
// `<model.pt>` players. Single-game search (mcts/search_agent.h) over a NetEvaluator.
#pragma once

#include <memory>
#include <string>

#include "mcts/agent.h"
#include "mcts/search_settings.h"

namespace quax {

// Returns null and sets *error (one line naming the file) when the model cannot be loaded
// or is for another variant or size. `settings.dirichlet_fraction` should be 0 for play.
// Call set_torch_threads() (nets/net_evaluator.h) on the playing thread first.
std::unique_ptr<Agent> make_model_agent(const std::string& path, const GameSpec& spec, const SearchSettings& settings,
                                        uint64_t seed, std::string* error);

}  // namespace quax
