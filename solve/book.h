// Solved-positions files ("books"): one JSON object per line, one line per position.
//
//   {"variant":"quax","size":5,"swap":false,"record":"c3 b2","to_move":"black",
//    "value":"win","winning_moves":["b3","c2"]}
//
//  variant, size, swap  the game (env/types.h GameSpec); every line carries it, so a line
//                       stands alone and files can be concatenated.
//  record               the moves from the start in canonical notation, separated by
//                       spaces (env/notation.h reads it back); "" is the start position.
//  to_move              "black" or "white": the player the value is for.
//  value                "win", "loss" or "draw" for the player to move; "unknown" when a
//                       time limit stopped the solve.
//  winning_moves        every move that wins for the player to move, canonical notation,
//                       in action order (cells, `/` links, `\` links, swap); empty unless
//                       value is "win".
// Positions that are over are not listed. Readers ignore blank lines and unknown fields.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/types.h"
#include "solve/solver.h"

namespace quax {

struct BookEntry {
  GameSpec spec;
  std::string record;
  Player to_move = Player::kBlack;
  GameValue value = GameValue::kUnknown;
  std::vector<std::string> winning_moves;
};

// One line (no newline).
std::string book_line(const BookEntry& entry);
// Returns false and sets *error (one line naming the field) for a malformed line.
bool parse_book_line(const std::string& line, BookEntry* out, std::string* error);

// Throws std::runtime_error "<path>:<line>: <reason>" for an unreadable file or a bad line.
std::vector<BookEntry> read_book(const std::string& path);
// Writes to a temporary name in the same directory and renames it over `path`, so a reader
// never sees half a book. Throws std::runtime_error naming the path on failure.
void write_book(const std::string& path, const std::vector<BookEntry>& entries);

// The replayed position of an entry; null and *error (one line) when the record does not
// replay in its game or the position is over.
std::unique_ptr<GameState> book_position(const BookEntry& entry, std::string* error);

// The move sequences of every position reached from `start_actions` in at most `depth`
// plies that is not over, breadth first (duplicates included; solve_book removes them).
std::vector<std::vector<int>> positions_up_to_depth(const GameSpec& spec, const std::vector<int>& start_actions,
                                                   int depth);

// The move sequences of the positions along game records: for each record the positions
// after `min_ply`..`max_ply` moves that are not over (the records must replay in `spec`).
std::vector<std::vector<int>> positions_along(const GameSpec& spec, const std::vector<std::vector<int>>& records,
                                             int min_ply, int max_ply);

// Solves each position once (by position key, or with `symmetry` by symmetric key, the
// first one met standing for its class) with all its winning moves, in the order given.
// `progress` (may be empty) is called after each position with the count so far.
std::vector<BookEntry> solve_book(ProofSearch& search, const std::vector<std::vector<int>>& positions, bool symmetry,
                                  const std::function<void(const BookEntry&, size_t done)>& progress);

}  // namespace quax
