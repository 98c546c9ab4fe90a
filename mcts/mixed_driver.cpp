#include "mcts/mixed_driver.h"

#include <stdexcept>
#include <string>

namespace quax {

MixedDriver::MixedDriver(const std::vector<DriverOptions>& options,
                         const std::vector<std::vector<Evaluator*>>& evaluators, const std::vector<double>& weights) {
  if (options.empty()) throw std::invalid_argument("a mixed driver needs at least one game");
  if (evaluators.size() != options.size() || weights.size() != options.size())
    throw std::invalid_argument("a mixed driver needs one evaluator list and one weight per game (" +
                                std::to_string(options.size()) + " games, " + std::to_string(evaluators.size()) +
                                " evaluator lists, " + std::to_string(weights.size()) + " weights)");
  for (double w : weights)
    if (!(w > 0)) throw std::invalid_argument("the weights of a mixed driver must be positive");
  for (size_t i = 0; i < options.size(); ++i)
    drivers_.push_back(std::make_unique<GameDriver>(options[i], evaluators[i]));
  weights_ = weights;
  finished_counts_.assign(options.size(), 0);
  exhausted_.assign(options.size(), false);
}

void MixedDriver::set_simulations(int simulations) {
  for (auto& d : drivers_) d->set_simulations(0, simulations);
}

bool MixedDriver::step() {
  while (true) {
    size_t best = drivers_.size();
    for (size_t i = 0; i < drivers_.size(); ++i) {
      if (exhausted_[i]) continue;
      if (best == drivers_.size() ||
          finished_counts_[i] / weights_[i] < finished_counts_[best] / weights_[best])
        best = i;
    }
    if (best == drivers_.size()) return false;
    const bool more = drivers_[best]->step();
    for (GameRecord& g : drivers_[best]->take_finished()) {
      ++finished_counts_[best];
      finished_.push_back(std::move(g));
    }
    if (more) return true;
    exhausted_[best] = true;
  }
}

std::vector<GameRecord> MixedDriver::take_finished() {
  std::vector<GameRecord> out;
  out.swap(finished_);
  return out;
}

}  // namespace quax
