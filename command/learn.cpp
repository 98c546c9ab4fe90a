// `quax learn --run DIR` (or `--config X` for a new run): the learner alone, training on the
// shards a separate `quax selfplay --run DIR` writes. Resumes from the newest checkpoint
// when there is one.
#include <memory>

#include "command/command.h"
#include "command/keep_shards_option.h"
#include "command/stop_signal.h"
#include "train/learner.h"
#include "train/train_loop.h"

namespace quax {
namespace {

void setup_learn(CLI::App& app) {
  struct Options {
    std::string run_dir;
    std::string config;
    std::vector<std::string> overrides;
    bool quiet = false;
    int keep_shards = 0;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("learn", "Train the network on a run directory's self-play shards");
  cmd->add_option("--run", opt->run_dir, "Run directory");
  cmd->add_option("--config", opt->config, "YAML config, to start a new run (else the run's config.yaml)");
  cmd->add_option("--set", opt->overrides, "Override a key (repeatable)");
  cmd->add_flag("--quiet", opt->quiet, "No progress lines");
  add_keep_shards_option(cmd, &opt->keep_shards);
  cmd->callback([opt] {
    if (opt->run_dir.empty() && opt->config.empty()) throw CommandError("give --run DIR or --config FILE");
    TrainConfig config = opt->config.empty() ? load_run_config(opt->run_dir) : load_config(opt->config);
    for (const auto& o : opt->overrides) apply_override(&config, o);
    if (!opt->run_dir.empty()) config.run.dir = opt->run_dir;
    TrainOptions t;
    t.selfplay = false;
    t.resume = !latest_checkpoint(config.run.dir).empty();  // a learner alone always continues
    t.quiet = opt->quiet;
    t.keep_shards = opt->keep_shards;
    const StopOnSignal stop;
    t.stop_requested = stop.flag();
    run_training(config, t);
  });
}

REGISTER_COMMAND("learn", setup_learn);

}  // namespace
}  // namespace quax
