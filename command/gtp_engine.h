// The text protocol of `quax gtp`: GTP framing (https://www.lysator.liu.se/~gunnar/gtp/)
// with the game-specific commands of issue 2, in the dialect HexGui (HTP) drives (issue 55).
//
// Framing: a line is `[id] command [args...]`; the answer is `=[id] result` or
// `?[id] message`, followed by a blank line. The result always follows `=[id]` and one space
// on the same line, a multi-line one too (`= line1\nline2\n\n`, as GTP 2 allows): HexGui
// takes only answers that begin "= " or "? ". Empty lines inside a result are dropped (an
// empty line ends an answer). Empty lines and `#` comments get no answer.
// A command that fails leaves the game unchanged. A line longer than kGtpLineLimit is not
// read into memory: its answer is `? line longer than 64 KB refused`. Errors quote what the
// client sent cut short and with control bytes escaped (core/quoted_input.h).
//
// Commands (moves in the notation of RULES.md; colours black/white, b/w or any alias):
//   protocol_version, known_command <c>, list_commands, quit
//   name                 "quax (<model file>)" or "quax (<baseline>)": the engine and who plays
//   version              the program's version, and the model's learner step
//   variant [<name> [<n>]]  set (and reset the board; the pie rule becomes the variant's
//                        default) or, without argument, tell the variant. The size stays
//                        where the new variant allows it; where not, the board takes the
//                        nearest size it allows and the answer says so (`= size 6
//                        (quikquax needs an even size, not 5)`). With <n>, that size.
//   boardsize [<n> [<n>]]  set (and reset the board) or tell the size; HexGui sends width
//                        and height: equal ones are the size, unequal ones are refused
//   pie [on|off]         the pie rule (swap) on or off, resetting the board; or tell it
//   clear_board          a new game of the same variant, size and pie rule
//   play <colour> <move> only the player to move; `swap` (or HexGui's `swap-pieces`),
//                        `pass`, `end`, `adopt` where the variant has them and they are legal.
//                        HexGui's swap on hex keeps HexGui's board as it was (the stone where
//                        it stood, in Black's colour) with White to move again, where the
//                        engine's swap mirrors the stone across the a1 diagonal, recolours it
//                        and gives Black the move: the same game up to that symmetry. After a
//                        swap made in HexGui's words (swap-pieces) every colour and cell the
//                        client sends or receives crosses it (transposed, colours exchanged),
//                        so that the client sees the board it keeps; undo of the swap ends it
//   genmove <colour>     the player moves; `? game is over` at the end. The swap is answered
//                        `swap-pieces` once the client has used that word or asked
//                        hexgui-analyze_commands (a HexGui), else `swap`
//   reg_genmove <colour> the move genmove would choose, not played
//   undo                 takes back the last move (replays the rest from the start)
//   showboard            the text board (several lines)
//   legal_moves          every legal move of the player to move, one line, board order
//   to_move              black, white, or none once the game is over
//   winner               black, white, draw or none
//   final_score          B+ or W+ for the winner, 0 for a draw; refused before the end
//   time_settings <main> <byoyomi> <stones>, time_left <colour> <seconds> <stones>
//                        a clock (command/gtp_clock.h): genmove then searches for its share
//                        of the time left instead of its own size
//   list_stones <colour>, list_links <colour>   canonical notation, board order
//   hexgui-analyze_commands  the analysis commands below, as HexGui lists them
//                        ("type/label/command", %m for the colour to move)
//   quax-visits [<colour>], quax-values [<colour>], quax-pv [<colour>]   a search of the
//                        position (the player's own, at least kAnalysisSims simulations):
//                        "cell visits ..." pairs, "cell value ..." pairs (the mean value of
//                        the move for the player to move, -1..1), the principal variation
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "command/gtp_clock.h"
#include "command/gtp_player.h"

namespace quax {

// The longest protocol line run() accepts (no command needs more than a few hundred bytes).
inline constexpr std::size_t kGtpLineLimit = 64 * 1024;
// The fewest simulations the analysis commands search (a low level plays from a handful).
inline constexpr int kAnalysisSims = 200;

class GtpEngine {
 public:
  // Precondition: check_spec(spec) is empty. `player` may be null (genmove then fails).
  GtpEngine(const GameSpec& spec, std::unique_ptr<GtpPlayer> player);

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
  // genmove (play = true) and reg_genmove (play = false).
  Reply cmd_genmove(const std::vector<std::string>& args, bool play);
  Reply cmd_final_score();
  Reply cmd_time_settings(const std::vector<std::string>& args);
  Reply cmd_time_left(const std::vector<std::string>& args);
  // quax-visits, quax-values, quax-pv.
  Reply cmd_analysis(const std::string& command, const std::vector<std::string>& args);
  // The name of `action` in the current position as the client spells it (swap-pieces).
  std::string move_name(int action) const;
  Reply cmd_undo();
  Reply cmd_list(const std::vector<std::string>& args, bool links);

  // HexGui's frame (see play above): true once a swap was made in HexGui's words on hex.
  bool hexgui_frame() const { return hexgui_swap_at_ >= 0; }
  // A player across the frame (the other colour in HexGui's frame); its own inverse.
  Player across(Player p) const;
  Outcome across(Outcome o) const;
  // An action across the frame (a cell transposed in HexGui's frame); its own inverse.
  int across(int action) const;
  // The position as the client sees it: in HexGui's frame, the game replayed without the
  // swap and with the later moves across the frame, on a board without the pie rule.
  std::unique_ptr<GameState> client_view() const;
  // Applies `action` (engine frame) and notes a swap made in HexGui's words.
  void apply(int action);

  GameSpec spec_;
  std::unique_ptr<GameState> state_;
  // Every action since clear_board: undo replays all but the last (states have no undo).
  std::vector<int> actions_;
  std::unique_ptr<GtpPlayer> player_;
  GtpClock clock_;
  // The client's word for the swap: "swap", or "swap-pieces" once a HexGui shows itself.
  std::string swap_word_ = "swap";
  // The index in actions_ of a swap made in HexGui's words on hex, or -1 (hexgui_frame).
  int hexgui_swap_at_ = -1;
};

}  // namespace quax
