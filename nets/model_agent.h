// A player that searches with a model file: what gtp, play and the arena use for
// `<model.pt>` players, and the gating games of training. Single-game search
// (mcts/search_agent.h) over a NetEvaluator.
#pragma once

#include <memory>
#include <string>

#include "mcts/agent.h"
#include "mcts/search_settings.h"
#include "nets/device.h"

namespace quax {

// Returns null and sets *error (one line naming the file) when the model cannot be loaded,
// is for another variant, or gives non-finite outputs on its probe positions
// (load_inference_model). Any size of the variant plays (a size outside the trained ones
// with a warning line on stderr, and so does a pie rule other than its training's); the
// agent checks the game again whenever it changes under it (GTP's boardsize, variant, pie),
// an error of that move for another variant. `settings.dirichlet_fraction` should be 0 for
// play. `seconds` > 0: each move searches for that long instead of settings.simulations
// (PUCT only; a Gumbel root rule is an error). Call set_torch_threads()
// (nets/net_evaluator.h) on the playing thread first. The network runs on `device`
// (nets/device.h; a GPU this machine lacks is an error of the load) in `precision`.
std::unique_ptr<Agent> make_model_agent(const std::string& path, const GameSpec& spec, const SearchSettings& settings,
                                        uint64_t seed, std::string* error, double seconds = 0,
                                        const Device& device = kCpuDevice, Precision precision = Precision::kAuto);

}  // namespace quax
