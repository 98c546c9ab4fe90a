// `quax demo`: random games of a variant with the final board printed.
#include <chrono>
#include <cstdio>
#include <memory>

#include "command/command.h"
#include "command/game_spec_option.h"
#include "env/game_state.h"

namespace quax {
namespace {

void setup_demo(CLI::App& app) {
  struct Options {
    GameOptions game;
    int games = 3;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("demo", "Play random games and print the final boards");
  add_game_options(cmd, &opt->game, {true, "quax", "Board size (0: the variant's default)", ""});
  cmd->add_option("--games", opt->games, "Number of games")->check(CLI::Range(1, 1000000));
  cmd->add_option("--seed", opt->seed, "Random seed");
  cmd->callback([opt] {
    const GameSpec spec = opt->game.spec();
    Rng rng(opt->seed);
    for (int g = 0; g < opt->games; ++g) {
      auto state = new_game(spec);
      state->play_random_to_end(rng);
      std::printf("game %d of %s: %d moves, winner %s\n%s\n\n", g + 1, describe(spec).c_str(), state->move_number(),
                  outcome_name(state->outcome()).c_str(), state->board_text().c_str());
    }
  });
}

REGISTER_COMMAND("demo", setup_demo);

}  // namespace
}  // namespace quax
