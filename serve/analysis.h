// A search of one position that reports as it goes, for the browser board's analysis panel:
// each step() searches for a slice of time, then says what the tree holds so far (the
// network's prior, the most visited moves with their visits and Q, the root value).
#pragma once

#include <memory>
#include <nlohmann/json.hpp>

#include "env/game_state.h"
#include "mcts/evaluation_batch.h"
#include "mcts/search_tree.h"
#include "nets/net_evaluator.h"

namespace quax {

class PositionAnalysis {
 public:
  // Precondition: !position.is_over(); the model plays position's game.
  PositionAnalysis(const GameState& position, std::shared_ptr<const InferenceModel> model, int simulations);

  // Searches for about `seconds` (at least one evaluator call) unless done, then reports:
  // {"simulations", "value" (for the player to move), "prior": [[action, p]...] (legal
  // actions), "top": [{"action", "move", "visits", "q", "prior"}] (most visited first, at
  // most 10), "best" (the most visited action), "done"}. Actions in the board frame.
  nlohmann::json step(double seconds);
  bool done() const { return tree_.done(); }

 private:
  SearchTree tree_;
  NetEvaluator evaluator_;
  EvaluationBatch batch_;
  Rng rng_;
};

}  // namespace quax
