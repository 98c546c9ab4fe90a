// The options a command's player comes from (--player, --model, --sims, --time, --level): the
// one place that declares them, with one range each (nets/players.h, mcts/play_levels.h) and
// the rules between them, so that every door takes the same values.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "nets/players.h"

namespace quax {

// What the options hold as given; 0 and "" are "not given".
struct PlayerOptions {
  std::string player;  // --player: a player description (nets/players.h)
  std::string model;   // --model: a model file, perhaps with keys (model.pt:cpuct=2)
  int sims = 0;        // --sims
  double seconds = 0;  // --time
  int level = 0;       // --level

  PlayerSearchSize size() const { return {sims, seconds, level}; }
};

// Each option is declared when its help text is given ("" leaves it out).
struct PlayerOptionsHelp {
  std::string player;
  std::string model;
  std::string sims;
  std::string time;
  std::string level;
  bool model_required = false;
  bool size_needs_model = false;  // --sims and --time size --model's search, so they need it
};

// Declares the options on `cmd`, into *o. Between those declared: --model and --player name
// the same player (one excludes the other); --level, --sims and --time each size its search
// (one excludes the others). A level beside a baseline --player is refused when the player is
// made (set_player_search_size), as a level beside a model's own sims= is.
void add_player_options(CLI::App* cmd, PlayerOptions* o, const PlayerOptionsHelp& help);

// The single options, for commands whose player is not a PlayerOptions (a model to measure, the
// kept models of a run, the balance lab's own player rules): --player into *player, --model
// into *model, --sims into *sims with the one range of every door.
CLI::Option* add_player_option(CLI::App* cmd, std::string* player, const std::string& help);
CLI::Option* add_model_option(CLI::App* cmd, std::string* model, const std::string& help);
CLI::Option* add_sims_option(CLI::App* cmd, int* sims, const std::string& help);

}  // namespace quax
