// `quax train --config X [--resume]`: self-play and learning in one process.
#include <memory>

#include "command/command.h"
#include "command/keep_shards_option.h"
#include "command/stop_signal.h"
#include "train/train_loop.h"

namespace quax {
namespace {

// e.g. "quax 9x9 (swap)", or for a run of several sizes "quax 7x7 (swap), quax 9x9 (swap)".
std::string describe_games(const TrainConfig& c) {
  std::string text;
  for (const auto& spec : c.game_specs()) text += (text.empty() ? "" : ", ") + describe(spec);
  return text;
}

void setup_train(CLI::App& app) {
  struct Options {
    std::string config;
    std::string run_dir;
    std::vector<std::string> overrides;
    bool resume = false;
    bool quiet = false;
    int keep_shards = 0;
    bool print_config = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("train", "Train an agent from a YAML config (self-play and learner in one process)");
  cmd->add_option("--config", opt->config, "YAML config (configs/*.yaml)")->required();
  cmd->add_option("--run", opt->run_dir, "Run directory (overrides run.dir)");
  cmd->add_option("--set", opt->overrides, "Override a key, e.g. --set search.simulations=50 (repeatable)");
  cmd->add_flag("--resume", opt->resume, "Continue the run from its newest checkpoint");
  cmd->add_flag("--quiet", opt->quiet, "No progress lines");
  add_keep_shards_option(cmd, &opt->keep_shards);
  cmd->add_flag("--print-config", opt->print_config, "Print the full configuration and exit");
  cmd->callback([opt] {
    TrainConfig config = load_config(opt->config);
    for (const auto& o : opt->overrides) apply_override(&config, o);
    if (!opt->run_dir.empty()) config.run.dir = opt->run_dir;
    if (opt->print_config) {
      std::printf("%s", dump_config(config).c_str());
      return;
    }
    if (opt->resume) {
      // The run's own config decides the shape; the file given must agree with it.
      const TrainConfig saved = load_run_config(config.run.dir);
      if (saved.game_specs() != config.game_specs() || saved.net != config.net)
        throw CommandError("--config " + opt->config + " describes " + describe_games(config) + ", " +
                           describe(config.net) + " but run '" + config.run.dir + "' is " + describe_games(saved) +
                           ", " + describe(saved.net));
    }
    TrainOptions t;
    t.resume = opt->resume;
    t.quiet = opt->quiet;
    t.keep_shards = opt->keep_shards;
    const StopOnSignal stop;
    t.stop_requested = stop.flag();
    run_training(config, t);
  });
}

REGISTER_COMMAND("train", setup_train);

}  // namespace
}  // namespace quax
