// Game-theoretic values of positions and their winning moves, on top of the proof search.
//
// Values are for the player to move (not by ply parity: in some variants one player moves
// several times in a row). Only crossway can end in a draw (RULES.md); for the other
// variants "black does not win" is "white wins", so one proof per position settles it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "solve/proof_search.h"

namespace quax {

enum class GameValue : int8_t { kWin, kLoss, kDraw, kUnknown };

// "win", "loss", "draw", "unknown".
std::string value_name(GameValue v);
// Accepts the names above; false for anything else.
bool parse_value(const std::string& text, GameValue* out);
// The value for the other player (win <-> loss).
GameValue flip(GameValue v);

// True for the variants whose games can end without a winner.
bool can_draw(const GameSpec& spec);

// The value for the player to move. Precondition: !state.is_over(). kUnknown only when the
// search's deadline stopped it.
GameValue solve_value(ProofSearch& search, const GameState& state);

// The value of `state` for the player to move in `root` after the root's mover played into
// it (either player may be to move in `state`, or the game may be over).
GameValue value_for(ProofSearch& search, const GameState& state, Player root_mover);

struct Solution {
  // The position's value: proven before the moves are tried, so it stands even when the
  // deadline leaves some moves unknown.
  GameValue value = GameValue::kUnknown;
  // Every winning move (board frame), in action order; each proven (or the image, under a
  // symmetry of the position, of a proven one when symmetry is used).
  std::vector<int> winning_moves;
  // Moves whose value is not known because the deadline came first (none when complete).
  std::vector<int> unknown_moves;
  int moves = 0;          // legal moves of the position
  int moves_solved = 0;   // of them solved by search (one per symmetry class when used)
};

// Solves every move of `state`. With `use_symmetry`, moves whose results are images of each
// other under a symmetry of the board (solve/symmetric_key.h) share one search (a move left
// unknown by the deadline leaves its images unknown too). Precondition: !state.is_over().
Solution solve_moves(ProofSearch& search, const GameState& state, bool use_symmetry);
// The same on several threads, one per search (each with its own table, none shared): the first
// proves the position's value, then each thread takes the next move no other has taken. The
// same values as with one search; the work differs (a thread's table holds only its own moves).
// `solved`, when given, hears each searched move's value as soon as it is known (from one
// thread at a time).
using MoveSolved = std::function<void(int action, GameValue value)>;
Solution solve_moves(const std::vector<ProofSearch*>& searches, const GameState& state, bool use_symmetry,
                     const MoveSolved& solved = {});

}  // namespace quax
