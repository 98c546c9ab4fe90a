// `quax selfplay --run DIR`: self-play alone on a run directory, picking up the models a
// separate `quax learn --run DIR` publishes.
#include <memory>

#include "command/command.h"
#include "command/stop_signal.h"
#include "train/train_loop.h"

namespace quax {
namespace {

void setup_selfplay(CLI::App& app) {
  struct Options {
    std::string run_dir;
    std::vector<std::string> overrides;
    bool quiet = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("selfplay", "Self-play games into a run directory (learner runs separately)");
  cmd->add_option("--run", opt->run_dir, "Run directory (started by quax train or quax learn)")->required();
  cmd->add_option("--set", opt->overrides, "Override a key, e.g. --set selfplay.threads=2 (repeatable)");
  cmd->add_flag("--quiet", opt->quiet, "No progress lines");
  cmd->callback([opt] {
    TrainConfig config = load_run_config(opt->run_dir);
    for (const auto& o : opt->overrides) apply_override(&config, o);
    config.run.dir = opt->run_dir;
    TrainOptions t;
    t.learn = false;
    t.quiet = opt->quiet;
    const StopOnSignal stop;
    t.stop_requested = stop.flag();
    run_training(config, t);
  });
}

REGISTER_COMMAND("selfplay", setup_selfplay);

}  // namespace
}  // namespace quax
