#include "command/players.h"

#include "mcts/baseline_agents.h"

namespace quax {

std::unique_ptr<Agent> make_player(const std::string& description, const GameSpec& spec, uint64_t seed,
                                   std::string* error) {
  return make_baseline_agent(description, seed, error);
}

}  // namespace quax
