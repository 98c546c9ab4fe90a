// A program outside the project (MoHex, another `quax gtp`) as an arena Agent: it keeps its own
// board, which this agent brings up to the game's moves (Agent::inform_action: only the arena's
// play_game tells them) before asking `genmove`. Its answers are checked like a user's moves.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "arena/gtp_process.h"
#include "mcts/agent.h"

namespace quax {

struct GtpOpponent {
  std::string name = "gtp";         // how results and errors call it
  std::string command;              // its command line (/bin/sh reads it)
  std::vector<std::string> setup;   // commands sent once after it starts, e.g. "boardsize 9"
  double move_seconds = 120;        // the longest it may take to answer one command
  std::string stderr_path;          // where its stderr is appended; "": discarded
};

// Splits "boardsize 9; param_mohex max_games 10000" at ';' into trimmed commands, empty ones
// left out.
std::vector<std::string> split_gtp_setup(const std::string& text);

class GtpAgent : public Agent {
 public:
  // Starts the program, asks its `name` and `version` and sends its setup commands. Throws GtpProcessError (one line) when it
  // cannot be started or refuses a setup command, and std::invalid_argument for a game with
  // the pie rule (programs write the swap in different ways; matches balance the first move
  // with openings instead).
  GtpAgent(const GameSpec& spec, const GtpOpponent& opponent);

  std::string name() const override { return opponent_.name; }
  // What the program says it is: its answers to `name` and `version`, e.g. "MoHex 2.0".
  const std::string& identity() const { return identity_; }
  // Sends the moves it was told of and not yet sent (after `clear_board` for a new game), then
  // `genmove`. Returns the program's move, or kResignAction for "resign". Throws
  // GtpProcessError when the program fails (process.h), answers with no move, or with an
  // illegal one (naming it), or when it was not told the game's moves (another driver).
  int choose_action(const GameState& state) override;
  void inform_action(const GameState& before, int action) override;
  void reset() override;

 private:
  GameSpec spec_;
  GtpOpponent opponent_;
  std::unique_ptr<GtpProcess> process_;
  std::string identity_;
  std::vector<std::string> moves_;  // "black c3", ... the game's moves as `play` arguments
  size_t sent_ = 0;                 // how many of moves_ the program's board holds
  bool cleared_ = false;            // its board was cleared for this game
};

}  // namespace quax
