// `quax gtp`: the text protocol on standard input and output (see gtp_engine.h).

#include <iostream>
#include <memory>

#include "command/command.h"
#include "command/device_option.h"
#include "command/game_spec_option.h"
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
    std::string variant = "quax";
    int size = 0;
    std::string player;  // "": the variant's shipped model (nets/default_model.h)
    std::string model;
    int sims = 0;
    double time = 0;
    int level = 0;
    int threads = 1;
    std::string device = "auto";
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("gtp", "Play through a GTP-style text protocol on stdin/stdout");
  auto* variant =
      cmd->add_option("--variant", opt->variant, "Variant name (" + variant_list() + ") or rules file (docs/VARIANTS.md); default: the model's, else quax");
  cmd->add_option("--size", opt->size, "Board size (0: the variant's default)");
  cmd->add_option("--player", opt->player,
                  std::string("Who answers genmove: ") + kPlayerSyntax +
                      " (default: the variant's shipped model, which follows `variant` and `boardsize`)");
  auto* model = cmd->add_option("--model", opt->model, "Model file (quax export) that answers genmove");
  auto* sims = cmd->add_option("--sims", opt->sims, "With --model: simulations per move (default 200)")
                   ->check(CLI::Range(1, kMaxPlayerSimulations));
  auto* time = cmd->add_option("--time", opt->time, "With --model: seconds per move instead of --sims")
                   ->check(CLI::Range(kMinPlayerSeconds, kMaxPlayerSeconds));
  auto* level = cmd->add_option("--level", opt->level,
                                 "Difficulty of the model, " + play_level_range() +
                                     "; without --model the variant's shipped model (nets/default_model.h)")
                    ->check(CLI::Range(kMinPlayLevel, kMaxPlayLevel));
  level->excludes(sims)->excludes(time)->excludes(cmd->get_option("--player"));
  sims->excludes(time);
  sims->needs(model);
  time->needs(model);
  model->excludes(cmd->get_option("--player"));
  cmd->add_option("--threads", opt->threads, "LibTorch threads of the model's search")->check(CLI::Range(1, 64));
  cmd->add_option("--seed", opt->seed, "Random seed of the player");
  add_device_option(cmd, &opt->device);
  cmd->footer(
      "Protocol: list_commands lists the commands (command/gtp_engine.h describes each). `variant <name>` keeps the "
      "board size where the new variant allows it, else takes the nearest size it allows and says so (`= size 6 "
      "(quikquax needs an even size, not 5)`); `variant <name> <n>` sets both. Without --model or --player the "
      "variant's shipped model plays, and a change of variant or size takes that game's model. time_settings or "
      "time_left set a clock that genmove shares out over the moves left. Lines longer than 64 KB are refused.");
  cmd->callback([opt, variant] {
    const Device device = device_from_option(opt->device);
    std::string swap = "default";
    game_from_model(opt->model, variant->count() > 0, &opt->variant, &opt->size, &swap);
    const GameSpec spec = game_spec_from_options(opt->variant, opt->size, swap);
    if (opt->level > 0 && opt->model.empty() && default_model_path(spec).empty())
      throw CommandError(std::string("--level needs a model, and there is no shipped model of ") + variant_info(spec.variant).name +
                         " (give one with --model)");
    set_torch_threads(opt->threads);
    std::unique_ptr<GtpPlayer> gtp_player;
    std::string error;
    if (opt->model.empty() && opt->player.empty()) {
      // No player named: the shipped model of whatever game the client sets up (quax play's
      // choice), at --level; a variant without one is played by quax play's baseline.
      PlayerSearchSize size;
      size.level = opt->level;
      gtp_player = GtpPlayer::following_shipped(size, opt->seed, device, opt->level > 0 ? "" : "uct:2000");
    } else {
      // --model may carry search keys of its own (model.pt:cpuct=2); --sims, --time and
      // --level set the size of its search.
      PlayerDescription player;
      if (!parse_player_description(opt->model.empty() ? opt->player : opt->model, &player, &error))
        throw CommandError(error);
      PlayerSearchSize size;
      size.sims = opt->sims;
      size.seconds = opt->time;
      size.level = opt->level;
      if (!set_player_search_size(&player, size, &error)) throw CommandError(error);
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
