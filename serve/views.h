// The JSON the browser board reads (README, "The board in the browser": the API).
#pragma once

#include <nlohmann/json.hpp>

#include "env/board_layout.h"
#include "serve/game_session.h"

namespace quax {

// How to draw every position of a game: polygons, segments, goal edges, marks, the games of
// a quadrant board (level, centre, sides), coordinates.
nlohmann::json layout_json(const BoardLayout& layout);

// The game at its cursor: history, record, turn, result, legal actions, what stands on the
// board, the last turn's actions and the winning chain, and what some variants add (the
// points of a quadrant board, torax's auction: serve/variant_facts.h); `layout` is
// layout_json of its spec.
nlohmann::json game_view(const GameSession& session, const nlohmann::json& layout);

}  // namespace quax
