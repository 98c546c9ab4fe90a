// Game records: the move lists of the seed games and the play-by-email server,
// e.g. `d3 f5, f8 h8, g6 f7, g3 f3, f2 e2, e3 e2f3, ... g7 e8, Black resigns`.
// Single moves are parsed and printed by GameState::parse_action / action_to_string;
// this file only splits records and replays them.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "env/game_state.h"
#include "env/types.h"

namespace quax {

// A record split into its tokens (GameRecord, of mcts/selfplay_driver.h, is a played game).
struct ParsedRecord {
  // The move tokens in order, as written (not yet checked against any board).
  std::vector<std::string> moves;
  // Who resigned at the end of the record, kNone when nobody did.
  Player resigned = Player::kNone;
};

// Splits a record into moves. Moves are separated by spaces, tabs, newlines and/or commas;
// the record may end with `<player> resigns` (any player name or alias of docs/RULES.md, any case,
// e.g. `Black resigns`, `Red resigns`). Returns false and sets *error (one line) when the
// record is empty or a resignation is malformed or not at the end.
bool parse_record(std::string_view text, ParsedRecord* out, std::string* error);

// Replays `record` from the start of a game of `spec` (precondition: check_spec(spec) is
// empty). Returns the final state, and fills *actions (when given) with the board-frame
// actions played. On the first move that does not parse or is not legal, returns null and
// sets *error to "ply K (move 'x'): <reason>" (K counts from 1; K counts tokens, and a token
// may be a whole turn: GameState::parse_record_token). A resignation after the end of the
// game is an error too.
std::unique_ptr<GameState> replay_record(const GameSpec& spec, const ParsedRecord& record, std::string* error,
                                         std::vector<int>* actions = nullptr);

// The moves of `actions` (a legal sequence from the start) in canonical notation, joined by
// spaces, turns joined where the variant writes them so (GameState::record_form): a record
// parse_record and replay_record read back.
std::string record_text(const GameSpec& spec, const std::vector<int>& actions);

}  // namespace quax
