// `quax train --config X [--resume]`: self-play and learning in one process; with
// --distributed under mpirun, the learner on rank 0 and self-play on the other ranks.
#include <memory>

#include "command/command.h"
#include "command/keep_shards_option.h"
#include "command/stop_signal.h"
#include "distributed/distributed_training.h"
#include "train/config_print.h"
#include "train/train_loop.h"

namespace quax {
namespace {

// e.g. "quax 9x9 (swap)", or for a run of several sizes "quax 7x7 (swap), quax 9x9 (swap)".
std::string describe_games(const TrainConfig& c) {
  std::string text;
  for (const auto& spec : c.game_specs()) text += (text.empty() ? "" : ", ") + describe(spec);
  return text;
}

// --resume: the run's own config decides the shape; the file given must agree with it.
void check_resumable(const TrainConfig& config, const std::string& config_file) {
  const TrainConfig saved = load_run_config(config.run.dir);
  if (saved.game_specs() != config.game_specs() || saved.net != config.net)
    throw CommandError("--config " + config_file + " describes " + describe_games(config) + ", " +
                       describe(config.net) + " but run '" + config.run.dir + "' is " + describe_games(saved) + ", " +
                       describe(saved.net));
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
    bool distributed = false;
    DistributedOptions distributed_options;
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
  cmd->add_flag("--distributed", opt->distributed,
                "Under mpirun: rank 0 learns, the other ranks play (mpirun -np K quax train ... --distributed)");
  cmd->add_option("--peer-timeout", opt->distributed_options.peer_timeout_s,
                  "With --distributed: seconds of silence after which an actor is left out, or the learner given up")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--learner-plays", opt->distributed_options.learner_plays,
                "With --distributed: rank 0 also runs self-play threads");
  cmd->add_option("--actor-dir", opt->distributed_options.actor_dir,
                  "With --distributed: where actors keep models and shards before sending them (default: the "
                  "temporary directory)");
  cmd->callback([opt] {
    auto run_config = [opt] {
      TrainConfig config = load_config(opt->config);
      for (const auto& o : opt->overrides) apply_override(&config, o);
      if (!opt->run_dir.empty()) config.run.dir = opt->run_dir;
      if (opt->resume && !opt->print_config) check_resumable(config, opt->config);
      return config;
    };
    if (opt->print_config) {
      std::printf("%s", dump_config_documented(run_config()).c_str());
      return;
    }
    TrainOptions t;
    t.resume = opt->resume;
    t.quiet = opt->quiet;
    t.keep_shards = opt->keep_shards;
    const StopOnSignal stop;
    t.stop_requested = stop.flag();
    if (opt->distributed)
      run_distributed_training(run_config, t, opt->distributed_options);
    else
      run_training(run_config(), t);
  });
}

REGISTER_COMMAND("train", setup_train);

}  // namespace
}  // namespace quax
