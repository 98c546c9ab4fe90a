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

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>
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

// The entries of a book file. Throws std::runtime_error "<path>:<line>: <reason>" for a bad
// line: malformed, a record that does not replay (or ends the game), a to_move that is not
// the player to move after it, or a winning move that is not a legal move there (off the
// board, occupied, ...): a score against such a line would mean nothing. Winning moves come
// back in canonical notation. Throws naming the file when it is missing, unreadable, not a
// regular file or larger than kBookFileLimit (core/bounded_file.h).
std::vector<BookEntry> read_book(const std::string& path);
// Writes to a temporary name in the same directory and renames it over `path`, so a reader
// never sees half a book. Throws std::runtime_error naming the path on failure.
void write_book(const std::string& path, const std::vector<BookEntry>& entries);

// The replayed position of an entry; null and *error (one line) when the record does not
// replay in its game or the position is over.
std::unique_ptr<GameState> book_position(const BookEntry& entry, std::string* error);

// Bounds on listing positions: the number of positions grows exponentially with the depth
// (quax 5x5 at depth 40 would fill any memory), so a listing stops when the clock passes
// `deadline` or the list would hold more than `max_bytes`.
struct ListingLimits {
  std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
  size_t max_bytes = std::numeric_limits<size_t>::max();
};

// A list of positions as move sequences, and whether a limit cut it short.
struct PositionList {
  enum class Stop { kComplete, kDeadline, kMemory };
  std::vector<std::vector<int>> positions;
  Stop stop = Stop::kComplete;
  int plies = -1;  // of positions_up_to_depth: the deepest ply whose positions are all listed
};

// The move sequences of every position reached from `start_actions` in at most `depth`
// plies that is not over, breadth first, each position (by position key) once, by the first
// line that reaches it. Stops at a limit with what it has listed so far.
PositionList positions_up_to_depth(const GameSpec& spec, const std::vector<int>& start_actions, int depth,
                                   const ListingLimits& limits = {});

// The move sequences of the positions along game records: for each record the positions
// after `min_ply`..`max_ply` moves that are not over (the records must replay in `spec`).
// Stops at a limit with what it has listed so far.
PositionList positions_along(const GameSpec& spec, const std::vector<std::vector<int>>& records, int min_ply,
                             int max_ply, const ListingLimits& limits = {});

// A book being solved, as solve_book hands it to its progress callback and returns it.
struct BookRun {
  // The book as it stands: the solved entries of BookOptions::known first, as they were, then
  // the positions solved by this call, in the order listed. Written out, it loses nothing.
  std::vector<BookEntry> entries;
  size_t listed_done = 0;  // listed positions handled: solved, found in `known`, or a repeat
  size_t solved = 0;       // positions solved by this call
  bool stopped = false;    // BookOptions::stop ended the call before the list did
};

struct BookOptions {
  // One position (and, in solve_moves, one move) per class of symmetric ones.
  bool symmetry = false;
  // Entries solved before (a book being resumed, read_book): a listed position among them (by
  // position key, or by symmetric key with `symmetry`) is not solved again. Entries of value
  // "unknown" are left out and their positions solved.
  std::vector<BookEntry> known;
  // Once true, the position being solved is left out unless its solve had finished, and the
  // call returns. Give the search the same flag (ProofSearch::set_stop_flag) so that a long
  // proof ends too. Null: none.
  const std::atomic<bool>* stop = nullptr;
  // Called after each position this call solves (may be empty).
  std::function<void(const BookRun&)> progress;
};

// Solves each listed position once (by position key, or with `symmetry` by symmetric key,
// the first one met standing for its class) with all its winning moves, in the order given.
// Throws std::runtime_error when an entry of `known` is of another game or does not replay.
BookRun solve_book(ProofSearch& search, const std::vector<std::vector<int>>& positions, const BookOptions& options);
// The same with each position's moves shared among `searches`, one thread each (solve_moves).
BookRun solve_book(const std::vector<ProofSearch*>& searches, const std::vector<std::vector<int>>& positions,
                   const BookOptions& options);

}  // namespace quax
