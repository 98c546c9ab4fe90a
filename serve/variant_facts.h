// The parts of the browser board's game view (serve/views.h) that only some variants have:
// the points of the quadrant boards and torax's auction, read off the variant's own state so
// that the page says what the terminal's diagram says.
#pragma once

#include <nlohmann/json.hpp>

#include "env/game_state.h"

namespace quax {

// The score of a quadrant board (quadhex, quady, quady2): {"to_win", "black", "white",
// "winners", "text"}, `winners` one entry per BoardLayout::games entry ("black", "white",
// or null while undecided), `text` HexGame::points_text(). null on every other board.
nlohmann::json points_json(const GameState& state);

// Torax while its auction lasts: {"blocks": placed in this turn, "max_blocks": a turn's
// limit (the size)}. null on other variants, in the play after the auction, and at the end.
nlohmann::json auction_json(const GameState& state);

}  // namespace quax
