// The text protocol of `quax gtp`: GTP framing (https://www.lysator.liu.se/~gunnar/gtp/)
// with the game-specific commands of issue 2. Kept apart from the command-line front end
// so that later players (search, a model) only need set_agent().
//
// Framing: a line is `[id] command [args...]`; the answer is `=[id] result` or
// `?[id] message`, followed by a blank line. Empty lines and `#` comments get no answer.
// A command that fails leaves the game unchanged.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "mcts/agent.h"

namespace quax {

class GtpEngine {
 public:
  // Precondition: check_spec(spec) is empty. `agent` may be null (genmove then fails).
  GtpEngine(const GameSpec& spec, std::unique_ptr<Agent> agent);

  // Replaces the player genmove asks; the engine owns it.
  void set_agent(std::unique_ptr<Agent> agent);

  // Handles one input line and returns the full answer including its trailing blank line,
  // or "" for a line that gets no answer (empty or comment). Sets *quit after `quit`.
  std::string handle_line(const std::string& line, bool* quit);

  // Reads commands until end of input or `quit`, flushing each answer.
  void run(std::istream& in, std::ostream& out);

  const GameState& state() const { return *state_; }

  // The commands list_commands reports, in order.
  static const std::vector<std::string>& commands();

 private:
  struct Reply {
    bool ok;
    std::string text;
  };
  Reply dispatch(const std::string& command, const std::vector<std::string>& args);
  // Starts a new game of `spec`; the action list is cleared.
  void reset(const GameSpec& spec);
  // A reason the player named `color` may not move now, or "" when they may.
  std::string check_turn(const std::string& color) const;

  Reply cmd_variant(const std::vector<std::string>& args);
  Reply cmd_boardsize(const std::vector<std::string>& args);
  Reply cmd_pie(const std::vector<std::string>& args);
  Reply cmd_play(const std::vector<std::string>& args);
  Reply cmd_genmove(const std::vector<std::string>& args);
  Reply cmd_undo();
  Reply cmd_list(const std::vector<std::string>& args, bool links);

  GameSpec spec_;
  std::unique_ptr<GameState> state_;
  // Every action since clear_board: undo replays all but the last (states have no undo).
  std::vector<int> actions_;
  std::unique_ptr<Agent> agent_;
};

}  // namespace quax
