#include "mcts/baseline_agents.h"

#include <cerrno>
#include <cstdlib>
#include <vector>

#include "env/rng.h"
#include "mcts/search_agent.h"
#include "mcts/simple_evaluators.h"
#include "mcts/uct_agent.h"

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

// The count after "name:", or -1 when it is missing, not a number or out of range.
bool names_baseline(const std::string& text) {
  return text == "random" || text.rfind("uct:", 0) == 0 || text.rfind("mcts:", 0) == 0;
}

std::optional<BaselinePlayer> parse_baseline(const std::string& description, std::string* error) {
  if (description == "random") return BaselinePlayer{};
  const bool uct = description.rfind("uct:", 0) == 0, mcts = description.rfind("mcts:", 0) == 0;
  if (!uct && !mcts) {
    if (error) *error = "unknown player '" + description + "' (known: random, uct:<playouts>, mcts:<simulations>)";
    return std::nullopt;
  }
  const std::string digits = description.substr(uct ? 4 : 5);
  const long n = digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9
                     ? -1
                     : std::strtol(digits.c_str(), nullptr, 10);
  if (n < 1 || n > 100000000) {
    if (error) *error = "bad player '" + description + "': expected a count from 1 to 100000000 after ':'";
    return std::nullopt;
  }
  return BaselinePlayer{uct ? BaselinePlayer::Kind::kUct : BaselinePlayer::Kind::kMcts, static_cast<int>(n)};
}

std::shared_ptr<Evaluator> make_mcts_baseline_evaluator(uint64_t seed) {
  return std::make_shared<RolloutEvaluator>(1, seed ^ 0x5EEDULL);
}

std::unique_ptr<Agent> make_baseline_agent(const std::string& description, uint64_t seed, std::string* error) {
  const auto baseline = parse_baseline(description, error);
  if (!baseline) return nullptr;
  switch (baseline->kind) {
    case BaselinePlayer::Kind::kRandom: return make_random_agent(seed);
    case BaselinePlayer::Kind::kUct: return std::make_unique<UctAgent>(baseline->count, seed);
    case BaselinePlayer::Kind::kMcts: break;
  }
  SearchSettings settings;
  settings.simulations = baseline->count;
  return std::make_unique<SearchAgent>(description, make_mcts_baseline_evaluator(seed), settings, seed);
}

}  // namespace quax
