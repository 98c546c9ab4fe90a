// `quax play`: a human against the engine in the terminal.
#include <fmt/core.h>

#include <iostream>
#include <sstream>

#include "command/command.h"
#include "command/device_option.h"
#include "command/game_spec_option.h"
#include "command/player_options.h"
#include "core/atomic_file.h"
#include "env/game_state.h"
#include "env/notation.h"
#include "mcts/play_levels.h"
#include "nets/default_model.h"
#include "nets/players.h"

namespace quax {
namespace {

// The moves are the game's own words (GameState::move_help(), which knows the variant and the
// position); this is only what the terminal adds.
const char* kCommands =
    "Commands: undo (takes back your last move and the reply), hint (the engine's choice for you and its value),\n"
    "moves (your legal moves), board, new [black|white] (another game), save FILE (the record), help, quit.";
const char* kAfterTheEnd = "undo (back to your last move), new [black|white] (another game), save FILE, quit.";

// Every legal move, the word moves (end, adopt, swap, pass) first: after a long list of
// cells they are easy to miss.
std::string legal_move_list(const GameState& state) {
  std::vector<int> legal;
  state.legal_actions(&legal);
  const int spatial = state.spatial_planes() * state.size() * state.size();
  std::string words, placements;
  for (int a : legal) (a >= spatial ? words : placements) += state.action_to_string(a) + " ";
  std::string list = words + placements;
  if (!list.empty()) list.pop_back();
  return list;
}

struct Options {
  GameOptions game;
  PlayerOptions engine;
  std::string color = "black";
  uint64_t seed = 1;
  std::string device = "auto";
};

// The engine of --model, --player or --level (default: the variant's shipped model, else
// uct:2000); `description` is set to what it plays.
std::unique_ptr<Agent> make_engine(const Options& opt, const GameSpec& spec, PlayerDescription* description) {
  const Device device = device_from_option(opt.device);
  std::string engine_desc = !opt.engine.model.empty() ? opt.engine.model : opt.engine.player;
  if (engine_desc.empty()) engine_desc = default_model_path(spec);
  if (opt.engine.level > 0 && engine_desc.empty())
    throw CommandError(std::string("--level needs a model, and there is no shipped model of ") +
                       variant_info(spec.variant).name + " (give one with --model)");
  if (engine_desc.empty()) engine_desc = "uct:2000";
  PlayerDescription& player = *description;
  std::string error;
  if (!parse_player_description(engine_desc, &player, &error)) throw CommandError(error);
  if (opt.engine.level > 0) {
    if (player.kind == PlayerDescription::Kind::kBaseline)
      throw CommandError("--level plays a model weaker, not the baseline '" + engine_desc + "'");
    PlayerSearchSize size;
    size.level = opt.engine.level;
    if (!set_player_search_size(&player, size, &error)) throw CommandError(error);
  }
  auto engine = make_player(player, spec, opt.seed, &error, device);
  if (!engine) throw CommandError(error);
  return engine;
}

// The game in the terminal. It goes on after its end: undo takes moves back, new starts another
// game, save keeps the record; only quit (or the end of the input) ends it.
class TerminalGame {
 public:
  TerminalGame(const GameSpec& spec, std::unique_ptr<Agent> engine, Player human)
      : spec_(spec), engine_(std::move(engine)), human_(human), state_(new_game(spec)) {}

  void run() {
    while (true) {
      if (!engine_turn_or_show()) continue;
      fmt::print("{}> ", state_->is_over() ? std::string("game over") : player_name(human_));
      std::fflush(stdout);
      std::string line;
      if (!std::getline(std::cin, line)) {
        fmt::print("\n");
        return;
      }
      if (!answer(line)) return;
    }
  }

 private:
  // The engine moves when it is to move (false: no prompt yet); else the end of the game, or
  // the board and the move help, are shown as due (true: the human is asked).
  bool engine_turn_or_show() {
    if (state_->is_over()) {
      if (!end_told_) {
        fmt::print("\n{}\n{}\nrecord: {}\n{}\n", state_->board_text(),
                   state_->outcome() == Outcome::kDraw      ? std::string("draw")
                   : winner_of(state_->outcome()) == human_ ? std::string("you win")
                                                            : std::string("the engine wins"),
                   record_text(spec_, actions_), kAfterTheEnd);
        end_told_ = true;
      }
    } else if (state_->to_move() != human_) {
      const int a = engine_->choose_action(*state_);
      fmt::print("engine plays {}\n", state_->action_to_string(a));
      apply(a);
      return false;
    } else {
      if (show_) fmt::print("\n{}\n", state_->board_text());
      if (state_->move_help() != shown_help_) {
        shown_help_ = state_->move_help();
        fmt::print("{}\n", shown_help_);
      }
    }
    show_ = true;
    return true;
  }

  // Answers one line: a command or a move. False: quit.
  bool answer(const std::string& line) {
    std::istringstream words(line);
    std::string word, argument;
    words >> word >> argument;
    show_ = false;  // a command's answer is not followed by the board, unless it says so
    if (word.empty()) return true;
    if (word == "quit" || word == "exit") return false;
    if (word == "help") {
      fmt::print("{}\n{}\n", state_->move_help(), state_->is_over() ? kAfterTheEnd : kCommands);
    } else if (word == "board") {
      if (state_->is_over()) fmt::print("\n{}\n", state_->board_text());
      show_ = true;
    } else if (word == "new") {
      new_game_as(argument);
    } else if (word == "save") {
      save(argument);
    } else if (word == "undo") {
      undo();
    } else if (state_->is_over()) {
      fmt::print("the game is over: {}\n", kAfterTheEnd);
    } else if (word == "moves") {
      fmt::print("{}\n", legal_move_list(*state_));
    } else if (word == "hint") {
      hint();
    } else {
      play(line);
    }
    return true;
  }

  void apply(int action) {
    movers_.push_back(state_->to_move());
    state_->apply(action);
    actions_.push_back(action);
  }

  void replay() {
    state_ = new_game(spec_);
    for (int a : actions_) state_->apply(a);
    engine_->reset();
    end_told_ = false;
  }

  // Another game, with the colour named (else the same one).
  void new_game_as(const std::string& colour_name) {
    if (!colour_name.empty()) {
      const auto colour = parse_player(colour_name);
      if (!colour) return (void)fmt::print("new: black or white, not '{}'\n", colour_name);
      human_ = *colour;
    }
    actions_.clear();
    movers_.clear();
    replay();
    shown_help_.clear();
    show_ = true;
    fmt::print("new game: you play {}\n", player_name(human_));
  }

  void save(const std::string& path) {
    if (path.empty()) return (void)fmt::print("save: give a file name (save game.txt)\n");
    try {
      write_file_atomically(path, record_text(spec_, actions_) + "\n");
      fmt::print("saved the record to {} (quax replay --variant {} --size {}{} {})\n", path,
                 variant_info(spec_.variant).name, spec_.size, spec_.swap ? "" : " --no-pie", path);
    } catch (const std::exception& e) {
      fmt::print("cannot save: {}\n", first_line(e.what()));
    }
  }

  // Back to the human's previous turn: the engine's replies and the human's last move.
  void undo() {
    if (std::find(movers_.begin(), movers_.end(), human_) == movers_.end())
      return (void)fmt::print("nothing to undo\n");
    while (movers_.back() != human_) movers_.pop_back(), actions_.pop_back();
    movers_.pop_back();
    actions_.pop_back();
    replay();
    show_ = true;
  }

  void hint() {
    const int a = engine_->choose_action(*state_);
    std::string value;
    // The engine's estimate of the position for you, where its search makes one.
    if (const auto v = engine_->last_value())
      value = fmt::format(" (value {:+.2f} for you: about {:.0f}% to win)", *v, 50 * (1 + *v));
    fmt::print("hint: {}{}\n", state_->action_to_string(a), value);
  }

  void play(const std::string& line) {
    std::string error;
    const int a = state_->parse_action(line, &error);
    if (a < 0) return (void)fmt::print("not a move: {}\n", error);
    if (const std::string why = state_->why_illegal(a); !why.empty()) return (void)fmt::print("illegal: {}\n", why);
    apply(a);
    show_ = true;
  }

  const GameSpec spec_;
  std::unique_ptr<Agent> engine_;
  Player human_;
  std::unique_ptr<GameState> state_;
  std::vector<int> actions_;
  std::vector<Player> movers_;  // who played each action
  bool show_ = true;            // the board is shown before the next prompt
  bool end_told_ = false;       // the result of the game on the board was printed
  std::string shown_help_;      // the move help last printed: printed again when it changes
};

void setup_play(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("play", "Play against the engine in the terminal");
  add_game_options(cmd, &opt->game, {true, "the model's, else quax", "Board size (0: the variant's default)", "the variant's"});
  PlayerOptionsHelp engine;
  engine.model = "Model file (default: the variant's shipped model trained at this size, else nearest to it)";
  engine.player = std::string("Engine: ") + kPlayerSyntax;
  engine.level = "Difficulty of the model, " + play_level_range() + " (default: full)";
  add_player_options(cmd, &opt->engine, engine);
  cmd->add_option("--color", opt->color, "Your colour: black (moves first) or white");
  cmd->add_option("--seed", opt->seed, "Random seed of the engine");
  add_device_option(cmd, &opt->device);
  cmd->callback([opt] {
    const GameSpec spec = opt->game.spec_for_model(opt->engine.model);
    const auto human = parse_player(opt->color);
    if (!human) throw CommandError("--color must be black or white, not '" + opt->color + "'");
    PlayerDescription player;
    auto engine = make_engine(*opt, spec, &player);
    fmt::print("{}: you play {}, the engine ({}) plays {}.\n{}\n", describe(spec), player_name(*human),
               engine->name(), player_name(opponent(*human)), kCommands);
    TerminalGame(spec, std::move(engine), *human).run();
  });
}

REGISTER_COMMAND("play", setup_play);

}  // namespace
}  // namespace quax
