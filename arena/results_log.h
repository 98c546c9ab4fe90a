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
};

// Appends the results as JSON lines with one write and an fsync. Throws std::runtime_error
// naming the file when it cannot be written.
void append_results(const std::string& path, const std::vector<GameResult>& results);

// Reads every result of `spec` from the file (results of other games are skipped); a
// missing file is an empty list. Throws std::runtime_error naming the file and line for
// a malformed line.
std::vector<GameResult> load_results(const std::string& path, const GameSpec& spec);

// Per-player tally used by the table and the Elo fit.
struct Standings {
  std::vector<std::string> players;
  std::vector<PairRecord> pairs;  // one per pair that played, from the first player's side
  std::vector<int> games_as_black, games_as_white;
};

// Collects results among `players` (others ignored); players in results but not in the
// list are added when `include_others` is true.
Standings tally(const std::vector<std::string>& players, const std::vector<GameResult>& results, bool include_others);

}  // namespace quax
