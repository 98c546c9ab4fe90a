#include "mcts/baseline_agents.h"

#include <vector>

#include "env/rng.h"

namespace quax {

namespace {

class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  int choose_action(const GameState& state) override {
    state.legal_actions(&legal_);
    return legal_[rng_.below(static_cast<uint32_t>(legal_.size()))];
  }

 private:
  Rng rng_;
  std::vector<int> legal_;
};

}  // namespace

std::unique_ptr<Agent> make_random_agent(uint64_t seed) { return std::make_unique<RandomAgent>(seed); }

std::unique_ptr<Agent> make_baseline_agent(const std::string& description, uint64_t seed, std::string* error) {
  if (description == "random") return make_random_agent(seed);
  if (error) *error = "unknown player '" + description + "' (known: random)";
  return nullptr;
}

}  // namespace quax
