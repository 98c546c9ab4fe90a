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

void setup_play(CLI::App& app) {
  struct Options {
    GameOptions game;
    PlayerOptions engine;
    std::string color = "black";
    uint64_t seed = 1;
    std::string device = "auto";
  };
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
    const Device device = device_from_option(opt->device);
    const GameSpec spec = opt->game.spec_for_model(opt->engine.model);
    const auto human = parse_player(opt->color);
    if (!human) throw CommandError("--color must be black or white, not '" + opt->color + "'");
    std::string engine_desc = !opt->engine.model.empty() ? opt->engine.model : opt->engine.player;
    if (engine_desc.empty()) engine_desc = default_model_path(spec);
    if (opt->engine.level > 0 && engine_desc.empty())
      throw CommandError(std::string("--level needs a model, and there is no shipped model of ") + variant_info(spec.variant).name +
                         " (give one with --model)");
    if (engine_desc.empty()) engine_desc = "uct:2000";
    PlayerDescription player;
    std::string error;
    if (!parse_player_description(engine_desc, &player, &error)) throw CommandError(error);
    if (opt->engine.level > 0) {
      if (player.kind == PlayerDescription::Kind::kBaseline)
        throw CommandError("--level plays a model weaker, not the baseline '" + engine_desc + "'");
      PlayerSearchSize size;
      size.level = opt->engine.level;
      if (!set_player_search_size(&player, size, &error)) throw CommandError(error);
    }
    auto engine = make_player(player, spec, opt->seed, &error, device);
    if (!engine) throw CommandError(error);

    Player human_colour = *human;
    fmt::print("{}: you play {}, the engine ({}) plays {}.\n{}\n", describe(spec), player_name(human_colour),
               engine->name(), player_name(opponent(human_colour)), kCommands);
    auto state = new_game(spec);
    std::vector<int> actions;
    std::vector<Player> movers;  // who played each action
    auto replay = [&] {
      state = new_game(spec);
      for (int a : actions) state->apply(a);
      engine->reset();
    };
    bool show = true;
    bool end_told = false;   // the result of the game on the board was printed
    std::string shown_help;  // the move help last printed: printed again when it changes
    // The game goes on after its end: undo takes moves back, new starts another game, save
    // keeps the record; only quit (or the end of the input) ends the program.
    while (true) {
      if (state->is_over()) {
        if (!end_told) {
          fmt::print("\n{}\n{}\nrecord: {}\n{}\n", state->board_text(),
                     state->outcome() == Outcome::kDraw              ? std::string("draw")
                     : winner_of(state->outcome()) == human_colour ? std::string("you win")
                                                                     : std::string("the engine wins"),
                     record_text(spec, actions), kAfterTheEnd);
          end_told = true;
        }
        show = false;
      } else if (state->to_move() != human_colour) {
        const int a = engine->choose_action(*state);
        fmt::print("engine plays {}\n", state->action_to_string(a));
        movers.push_back(state->to_move());
        state->apply(a);
        actions.push_back(a);
        continue;
      } else {
        if (show) fmt::print("\n{}\n", state->board_text());
        if (state->move_help() != shown_help) {
          shown_help = state->move_help();
          fmt::print("{}\n", shown_help);
        }
      }
      show = true;
      fmt::print("{}> ", state->is_over() ? std::string("game over") : player_name(human_colour));
      std::fflush(stdout);
      std::string line;
      if (!std::getline(std::cin, line)) {
        fmt::print("\n");
        return;
      }
      std::istringstream words(line);
      std::string word, argument;
      words >> word >> argument;
      if (word.empty()) { show = false; continue; }
      if (word == "quit" || word == "exit") return;
      if (word == "help") {
        fmt::print("{}\n{}\n", state->move_help(), state->is_over() ? kAfterTheEnd : kCommands);
        show = false;
        continue;
      }
      if (word == "board") {
        if (state->is_over()) fmt::print("\n{}\n", state->board_text());
        continue;
      }
      if (word == "new") {
        // Another game, with the colour named (else the same one).
        if (!argument.empty()) {
          const auto colour = parse_player(argument);
          if (!colour) { fmt::print("new: black or white, not '{}'\n", argument); show = false; continue; }
          human_colour = *colour;
        }
        actions.clear();
        movers.clear();
        replay();
        end_told = false;
        shown_help.clear();
        fmt::print("new game: you play {}\n", player_name(human_colour));
        continue;
      }
      if (word == "save") {
        if (argument.empty()) { fmt::print("save: give a file name (save game.txt)\n"); show = false; continue; }
        try {
          write_file_atomically(argument, record_text(spec, actions) + "\n");
          fmt::print("saved the record to {} (quax replay --variant {} --size {}{} {})\n", argument,
                     variant_info(spec.variant).name, spec.size, spec.swap ? "" : " --no-pie", argument);
        } catch (const std::exception& e) {
          fmt::print("cannot save: {}\n", first_line(e.what()));
        }
        show = false;
        continue;
      }
      if (word == "undo") {
        // Back to the human's previous turn: the engine's replies and the human's last move.
        if (std::find(movers.begin(), movers.end(), human_colour) == movers.end()) {
          fmt::print("nothing to undo\n");
          show = false;
          continue;
        }
        while (movers.back() != human_colour) movers.pop_back(), actions.pop_back();
        movers.pop_back();
        actions.pop_back();
        replay();
        end_told = false;
        continue;
      }
      if (state->is_over()) {
        fmt::print("the game is over: {}\n", kAfterTheEnd);
        show = false;
        continue;
      }
      if (word == "moves") {
        fmt::print("{}\n", legal_move_list(*state));
        show = false;
        continue;
      }
      if (word == "hint") {
        const int a = engine->choose_action(*state);
        std::string value;
        // The engine's estimate of the position for you, where its search makes one.
        if (const auto v = engine->last_value())
          value = fmt::format(" (value {:+.2f} for you: about {:.0f}% to win)", *v, 50 * (1 + *v));
        fmt::print("hint: {}{}\n", state->action_to_string(a), value);
        show = false;
        continue;
      }
      const int a = state->parse_action(line, &error);
      if (a < 0) { fmt::print("not a move: {}\n", error); show = false; continue; }
      if (const std::string why = state->why_illegal(a); !why.empty()) {
        fmt::print("illegal: {}\n", why);
        show = false;
        continue;
      }
      movers.push_back(state->to_move());
      state->apply(a);
      actions.push_back(a);
    }
  });
}

REGISTER_COMMAND("play", setup_play);

}  // namespace
}  // namespace quax
