// `quax replay`: checks a game record move by move and prints the final board and result.
#include <cstdio>
#include <memory>

#include "command/command.h"
#include "core/bounded_file.h"
#include "command/game_spec_option.h"
#include "env/notation.h"

namespace quax {
namespace {

// No move contains '.' or '/' (moves are cells like c5, links like e2-f3, words like swap),
// so an argument with either names a file, and any other is the record itself: what the
// argument means never depends on which files happen to exist.
bool names_a_file(const std::string& arg) { return arg.find_first_of("./") != std::string::npos; }

// The record: the argument itself, or the contents of the file it names (a regular file of
// at most kRecordFileLimit bytes).
std::string record_source(const std::string& arg) {
  if (!names_a_file(arg)) return arg;
  try {
    return read_regular_file(arg, kRecordFileLimit, "record file");
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
}

void setup_replay(CLI::App& app) {
  struct Options {
    GameOptions game;
    bool no_pie = false;
    std::string record;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("replay", "Replay a game record, print the board and the result");
  add_game_options(cmd, &opt->game, {true, "quax", "Board size (0: the variant's default)", ""});
  cmd->add_flag("--no-pie", opt->no_pie, "Play without the pie rule (swap is then illegal)");
  cmd->add_option("record", opt->record,
                  "The moves ('d3 f5, f8 h8, ... Black resigns'), or a file holding them: an argument with '.' or "
                  "'/' is a file name (no move has either; write ./name for a file without them)")
      ->required();
  cmd->callback([opt] {
    const GameSpec spec = game_spec_from_options(opt->game.variant, opt->game.size, opt->no_pie ? "off" : "default");
    ParsedRecord record;
    std::string error;
    if (!parse_record(record_source(opt->record), &record, &error)) throw CommandError(error);
    auto state = replay_record(spec, record, &error);
    if (!state) throw CommandError(error);
    std::string result;
    if (record.resigned != Player::kNone)
      result = player_name(record.resigned) + " resigned";
    else if (state->outcome() == Outcome::kOngoing)
      result = "no winner yet";
    else if (state->outcome() == Outcome::kDraw)
      result = "draw";
    else
      result = player_name(winner_of(state->outcome())) + " wins";
    std::printf("%s\n%s, %d moves\nresult: %s\n", state->board_text().c_str(), describe(spec).c_str(),
                state->move_number(), result.c_str());
  });
}

REGISTER_COMMAND("replay", setup_replay);

}  // namespace
}  // namespace quax
