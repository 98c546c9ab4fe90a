// The JSON the browser board reads (README, "The board in the browser": the API).
#pragma once

#include <nlohmann/json.hpp>

#include "env/board_layout.h"
#include "serve/game_session.h"

namespace quax {

// How to draw every position of a game: polygons, segments, goal edges, marks, coordinates.
nlohmann::json layout_json(const BoardLayout& layout);

// The game at its cursor: history, record, turn, result, legal actions, what stands on the
// board, the last turn's actions and the winning chain; `layout` is layout_json of its spec.
nlohmann::json game_view(const GameSession& session, const nlohmann::json& layout);

}  // namespace quax
