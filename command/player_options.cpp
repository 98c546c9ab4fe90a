#include "command/player_options.h"

#include "mcts/play_levels.h"
#include "mcts/search_limits.h"

namespace quax {

CLI::Option* add_player_option(CLI::App* cmd, std::string* player, const std::string& help) {
  return cmd->add_option("--player", *player, help);
}

CLI::Option* add_model_option(CLI::App* cmd, std::string* model, const std::string& help) {
  return cmd->add_option("--model", *model, help);
}

CLI::Option* add_sims_option(CLI::App* cmd, int* sims, const std::string& help) {
  return cmd->add_option("--sims", *sims, help)->check(CLI::Range(1, kMaxSimulations));
}

void add_player_options(CLI::App* cmd, PlayerOptions* o, const PlayerOptionsHelp& help) {
  auto declare = [&](const char* name, auto* value, const std::string& text) -> CLI::Option* {
    return text.empty() ? nullptr : cmd->add_option(name, *value, text);
  };
  CLI::Option* player = help.player.empty() ? nullptr : add_player_option(cmd, &o->player, help.player);
  CLI::Option* model = help.model.empty() ? nullptr : add_model_option(cmd, &o->model, help.model);
  CLI::Option* sims = help.sims.empty() ? nullptr : add_sims_option(cmd, &o->sims, help.sims);
  CLI::Option* time = declare("--time", &o->seconds, help.time);
  CLI::Option* level = declare("--level", &o->level, help.level);
  if (model && help.model_required) model->required();
  if (time) time->check(CLI::Range(kMinPlayerSeconds, kMaxPlayerSeconds));
  if (level) level->check(CLI::Range(kMinPlayLevel, kMaxPlayLevel));
  // Two names for one player: one of them would be dropped without a word.
  if (model && player) model->excludes(player);
  if (level) {
    for (CLI::Option* other : {sims, time})
      if (other) level->excludes(other);
  }
  if (sims && time) sims->excludes(time);
  if (help.size_needs_model && model) {
    for (CLI::Option* size : {sims, time})
      if (size) size->needs(model);
  }
}

}  // namespace quax
