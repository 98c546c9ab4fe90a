// Gating games: each newly published model plays the previous one (or a baseline) for a
// few colour-balanced games, and the result becomes a "gating" line of the run's metrics:
// a running measure of progress that needs no separate arena run.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "train/config.h"

namespace quax {

// Plays config.gating.games games between the model file `model_path` and the opponent the
// config names ("previous" = `previous_model_path`, which must then be non-empty).
// Returns the metrics line: step, opponent, wins, losses, draws, score and the Elo
// difference it implies (clamped at +-800 for a perfect score), all from the new model's
// side, and the same counts split by the colour it played ("as_black", "as_white": games,
// wins, losses, draws; half the games each). Throws std::runtime_error
// when a model cannot be loaded.
nlohmann::json play_gating_games(const TrainConfig& config, int64_t step, const std::string& model_path,
                                 const std::string& previous_model_path);

}  // namespace quax
