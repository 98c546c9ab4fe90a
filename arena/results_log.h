// The arena's record of played games: one JSON object per line, appended, so that a
// later arena adds games to the earlier ones instead of starting over.
#pragma once

#include <string>
#include <vector>

#include "arena/elo.h"
#include "env/types.h"

namespace quax {

struct GameResult {
  std::string black;  // player descriptions as given on the command line
  std::string white;
  Outcome outcome = Outcome::kOngoing;
  int moves = 0;
  GameSpec spec;
  std::string record;  // the moves in canonical notation, space-separated
  // Games of agents (arena/match.h), by colour (0 black, 1 white): seconds spent choosing and
  // moves chosen (an opening's moves are not chosen). Zero for batched games, which do not
  // time their sides; a results line carries them only when some move was chosen.
  double seconds[2] = {0, 0};
  int chosen[2] = {0, 0};
  bool resigned = false;  // the game ended in a resignation (a program over GTP), not on the board
};

// Appends the results as JSON lines with one write and an fsync. Throws std::runtime_error
// naming the file and the cause when it cannot be written or is not a regular file.
void append_results(const std::string& path, const std::vector<GameResult>& results);

// What a results file holds. A line cut short is set aside (named, not counted): a killed
// arena or a full disk stops a write midway, leaving a line that ends inside its JSON
// object, or a last line without its newline that does not parse. Any other line that is
// not a result is malformed. Empty lines are skipped.
struct ResultsFileContents {
  std::vector<GameResult> results;     // the whole results of the requested game, in file order
  std::vector<std::string> cut_lines;  // "<file>:<line>: ..." (one line each) for the lines set aside
  std::vector<std::string> malformed;  // "<file>:<line>: malformed result line (<what>)"
  bool ends_without_newline = false;   // the last line lacks its '\n' (a whole game or a cut one)
};

// Reads the file; results of other games (variant, size, swap) are skipped; a missing file
// holds nothing. Throws std::runtime_error naming the file when it exists but cannot be
// read (no permission) or is not a regular file of at most kResultsFileLimit bytes
// (core/bounded_file.h: a directory, a FIFO, a device are refused without blocking).
ResultsFileContents read_results_file(const std::string& path, const GameSpec& spec);

// Gets the file ready for an arena to append to, before any game is played: reads it and
// throws std::runtime_error with the first malformed line (the message above) leaving the
// file untouched; checks the file can be appended to (creating it, empty, when missing) and
// throws naming it when not; and when its last line lacks a newline, appends one, so that
// the next game is a line of its own (a cut fragment then stays a line of its own, set
// aside by every later read). Returns what the file held.
ResultsFileContents prepare_results_file(const std::string& path, const GameSpec& spec);

// read_results_file's results; throws std::runtime_error with the first malformed line.
std::vector<GameResult> load_results(const std::string& path, const GameSpec& spec);

// Per-player tally used by the table and the Elo fit.
struct Standings {
  std::vector<std::string> players;
  std::vector<PairRecord> pairs;  // one per pair that played, from the first player's side
  // Per player: games played and games won with each colour (a draw is neither a win nor a
  // loss), so that a first-move advantage shows apart from strength.
  std::vector<int> games_as_black, games_as_white;
  std::vector<int> wins_as_black, wins_as_white;
  // Per pair, in the order of `pairs`: how many of its games differ from each other in
  // colours, length or final position up to the board's symmetries (a reflection of a game,
  // on torax a translation, is the same game; a record that does not replay counts by its
  // text). Strong agents with few sampled turns repeat games, and a repeated game is not
  // another sample: a score over 200 games of which 120 differ is closer to a score over 120.
  std::vector<int> distinct_games;
};

// Collects results among `players` (others ignored); players in results but not in the
// list are added when `include_others` is true. `count_distinct` false leaves distinct_games
// empty: telling games apart replays every record and tries every symmetry of its last
// position (about 10 ms a game on torax 9x9), which callers that only rate can skip.
Standings tally(const std::vector<std::string>& players, const std::vector<GameResult>& results, bool include_others,
                bool count_distinct = true);

}  // namespace quax
