// `quax gtp`: the text protocol on standard input and output (see gtp_engine.h).
#include <iostream>
#include <memory>

#include "command/command.h"
#include "command/gtp_engine.h"
#include "mcts/baseline_agents.h"

namespace quax {
namespace {

void setup_gtp(CLI::App& app) {
  struct Options {
    std::string variant = "quax";
    int size = 0;
    std::string player = "random";
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("gtp", "Play through a GTP-style text protocol on stdin/stdout");
  cmd->add_option("--variant", opt->variant, "Variant name (" + variant_list() + ")");
  cmd->add_option("--size", opt->size, "Board size (0: the variant's default)");
  cmd->add_option("--player", opt->player, "Who answers genmove: random (and what mcts/baseline_agents.h offers)");
  cmd->add_option("--seed", opt->seed, "Random seed of the player");
  cmd->callback([opt] {
    const auto variant = parse_variant(opt->variant);
    if (!variant) throw CommandError("unknown variant '" + opt->variant + "' (known: " + variant_list() + ")");
    GameSpec spec = default_spec(*variant);
    if (opt->size) spec.size = opt->size;
    if (auto err = check_spec(spec); !err.empty()) throw CommandError(err);
    std::string error;
    auto agent = make_baseline_agent(opt->player, opt->seed, &error);
    if (!agent) throw CommandError(error);
    GtpEngine engine(spec, std::move(agent));
    engine.run(std::cin, std::cout);
  });
}

REGISTER_COMMAND("gtp", setup_gtp);

}  // namespace
}  // namespace quax
