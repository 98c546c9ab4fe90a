// The text protocol of `quax gtp`: GTP framing (https://www.lysator.liu.se/~gunnar/gtp/)
// with the game-specific commands of issue 2. Kept apart from the command-line front end
// so that later players (search, a model) only need set_agent().
//
// Framing: a line is `[id] command [args...]`; the answer is `=[id] result` or
// `?[id] message`, followed by a blank line. Empty lines and `#` comments get no answer.
// A command that fails leaves the game unchanged. A line longer than kGtpLineLimit is not
// read into memory: its answer is `? line longer than 64 KB refused`. Errors quote what the
// client sent cut short and with control bytes escaped (core/quoted_input.h).
//
// Commands (moves in the notation of RULES.md; colours black/white or any alias):
//   protocol_version, name, version, known_command <c>, list_commands, quit
//   variant [<name> [<n>]]  set (and reset the board; the pie rule becomes the variant's
//                        default) or, without argument, tell the variant. The size stays
//                        where the new variant allows it; where not, the board takes the
//                        nearest size it allows and the answer says so (`= size 6
//                        (quikquax needs an even size, not 5)`). With <n>, that size.
//   boardsize [<n>]      set (and reset the board) or tell the size
//   pie [on|off]         the pie rule (swap) on or off, resetting the board; or tell it
//   clear_board          a new game of the same variant, size and pie rule
//   play <colour> <move> only the player to move; `swap`, `pass`, `end`, `adopt` where the
//                        variant has them and they are legal
//   genmove <colour>     the player set by set_agent() moves; `? game is over` at the end
//   undo                 takes back the last move (replays the rest from the start)
//   showboard            the text board (several lines after `=`)
//   legal_moves          every legal move of the player to move, one line, board order
//   to_move              black, white, or none once the game is over
//   winner               black, white, draw or none
//   list_stones <colour>, list_links <colour>   canonical notation, board order
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "mcts/agent.h"

namespace quax {

// The longest protocol line run() accepts (no command needs more than a few hundred bytes).
inline constexpr std::size_t kGtpLineLimit = 64 * 1024;

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
