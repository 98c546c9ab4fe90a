#include "nets/model_agent.h"

#include <fmt/format.h>

#include <stdexcept>

#include "mcts/search_agent.h"
#include "nets/net_evaluator.h"

namespace quax {

namespace {

// The search agent of a model, with the model's check of the game (check_model_plays) made
// again whenever the game changes under it (GTP's boardsize and variant): another variant is
// an error of that move, a size outside the trained ones a warning.
class ModelAgent final : public Agent {
 public:
  ModelAgent(std::shared_ptr<const InferenceModel> model, std::unique_ptr<Agent> search, const GameSpec& checked)
      : model_(std::move(model)), search_(std::move(search)), checked_(checked) {}
  std::string name() const override { return search_->name(); }
  void reset() override { search_->reset(); }
  std::optional<double> last_value() const override { return search_->last_value(); }
  std::vector<std::pair<int, int>> last_root_visits() const override { return search_->last_root_visits(); }
  int choose_action(const GameState& state) override {
    if (state.spec() != checked_) {
      if (auto err = check_model_plays(*model_, state.spec()); !err.empty()) throw std::runtime_error(err);
      checked_ = state.spec();
    }
    return search_->choose_action(state);
  }

 private:
  std::shared_ptr<const InferenceModel> model_;
  std::unique_ptr<Agent> search_;
  GameSpec checked_;
};

}  // namespace

std::unique_ptr<Agent> make_model_agent(const std::string& path, const GameSpec& spec, const SearchSettings& settings,
                                        uint64_t seed, std::string* error, double seconds, const Device& device,
                                        Precision precision) {
  try {
    auto model = load_inference_model(path, spec, precision, device);
    auto evaluator = std::make_shared<NetEvaluator>(model);
    const std::string name =
        seconds > 0 ? fmt::format("{}@{}s", path, seconds) : fmt::format("{}@{}", path, settings.simulations);
    return std::make_unique<ModelAgent>(model, std::make_unique<SearchAgent>(name, evaluator, settings, seed, seconds),
                                        spec);
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return nullptr;
  }
}

}  // namespace quax
