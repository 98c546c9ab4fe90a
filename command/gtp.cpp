// `quax gtp`: the text protocol on standard input and output (see gtp_engine.h).

#include <iostream>
#include <memory>

#include "command/command.h"
#include "command/device_option.h"
#include "command/game_spec_option.h"
#include "command/player_options.h"
#include "command/gtp_engine.h"
#include "command/gtp_player.h"
#include "mcts/play_levels.h"
#include "nets/default_model.h"
#include "nets/players.h"
#include "nets/net_evaluator.h"

namespace quax {
namespace {

void setup_gtp(CLI::App& app) {
  struct Options {
    GameOptions game;
    PlayerOptions who;  // no --player nor --model: the variant's shipped model (nets/default_model.h)
    int threads = 1;
    std::string device = "auto";
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("gtp", "Play through a GTP-style text protocol on stdin/stdout");
  add_game_options(cmd, &opt->game, {true, "the model's, else quax", "Board size (0: the variant's default)", ""});
  PlayerOptionsHelp who;
  who.player = std::string("Who answers genmove: ") + kPlayerSyntax +
               " (default: the variant's shipped model, which follows `variant` and `boardsize`)";
  who.model = "Model file (quax export) that answers genmove";
  who.sims = "With --model: simulations per move (default 200)";
  who.time = "With --model: seconds per move instead of --sims";
  who.level = "Difficulty of the model, " + play_level_range() +
              "; without --model or --player the variant's shipped model (nets/default_model.h)";
  who.size_needs_model = true;
  add_player_options(cmd, &opt->who, who);
  cmd->add_option("--threads", opt->threads, "LibTorch threads of the model's search")->check(CLI::Range(1, 64));
  cmd->add_option("--seed", opt->seed, "Random seed of the player");
  add_device_option(cmd, &opt->device);
  cmd->footer(
      "Protocol: list_commands lists the commands (command/gtp_engine.h describes each). `variant <name>` keeps the "
      "board size where the new variant allows it, else takes the nearest size it allows and says so (`= size 6 "
      "(quikquax needs an even size, not 5)`); `variant <name> <n>` sets both. Without --model or --player the "
      "variant's shipped model plays, and a change of variant or size takes that game's model. time_settings or "
      "time_left set a clock that genmove shares out over the moves left. Lines longer than 64 KB are refused.");
  cmd->callback([opt] {
    const Device device = device_from_option(opt->device);
    const GameSpec spec = opt->game.spec_for_model(opt->who.model);
    if (opt->who.level > 0 && opt->who.model.empty() && default_model_path(spec).empty())
      throw CommandError(std::string("--level needs a model, and there is no shipped model of ") + variant_info(spec.variant).name +
                         " (give one with --model)");
    set_torch_threads(opt->threads);
    std::unique_ptr<GtpPlayer> gtp_player;
    std::string error;
    if (opt->who.model.empty() && opt->who.player.empty()) {
      // No player named: the shipped model of whatever game the client sets up (quax play's
      // choice), at --level; a variant without one is played by quax play's baseline.
      PlayerSearchSize size;
      size.level = opt->who.level;
      gtp_player = GtpPlayer::following_shipped(size, opt->seed, device, opt->who.level > 0 ? "" : "uct:2000");
    } else {
      // --model may carry search keys of its own (model.pt:cpuct=2); --sims, --time and
      // --level set the size of its search.
      PlayerDescription player;
      if (!parse_player_description(opt->who.model.empty() ? opt->who.player : opt->who.model, &player, &error))
        throw CommandError(error);
      if (!set_player_search_size(&player, opt->who.size(), &error)) throw CommandError(error);
      gtp_player = GtpPlayer::make(player, spec, opt->seed, &error, device);
      if (!gtp_player) throw CommandError(error);
    }
    GtpEngine engine(spec, std::move(gtp_player));
    engine.run(std::cin, std::cout);
  });
}

REGISTER_COMMAND("gtp", setup_gtp);

}  // namespace
}  // namespace quax
