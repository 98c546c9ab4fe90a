#include "nets/model_agent.h"

#include <fmt/format.h>

#include "mcts/search_agent.h"
#include "nets/net_evaluator.h"

namespace quax {

std::unique_ptr<Agent> make_model_agent(const std::string& path, const GameSpec& spec, const SearchSettings& settings,
                                        uint64_t seed, std::string* error, double seconds) {
  try {
    auto model = load_inference_model(path, spec);
    auto evaluator = std::make_shared<NetEvaluator>(model);
    const std::string name =
        seconds > 0 ? fmt::format("{}@{}s", path, seconds) : fmt::format("{}@{}", path, settings.simulations);
    return std::make_unique<SearchAgent>(name, evaluator, settings, seed, seconds);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

}  // namespace quax
