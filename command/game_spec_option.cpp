#include "command/game_spec_option.h"

#include <stdexcept>

#include "command/command.h"
#include "core/quoted_input.h"
#include "nets/model_file.h"
#include "nets/players.h"
#include "rules/rules_file.h"

namespace quax {

GameSpec game_spec_from_options(const std::string& variant_name, int size, const std::string& swap) {
  Variant variant;
  try {
    variant = variant_from_name_or_file(variant_name);
  } catch (const RulesFileError& e) {
    throw CommandError(e.what());
  }
  GameSpec spec = default_spec(variant);
  if (size) spec.size = size;
  if (swap != "default") spec.swap = swap == "on";
  if (auto err = check_spec(spec); !err.empty()) throw CommandError(err);
  return spec;
}

GameSpec GameOptions::spec() const { return game_spec_from_options(variant, size, swap); }

GameSpec GameOptions::spec_for_model(const std::string& model_desc) {
  game_from_model(model_desc, variant_given(), &variant, &size, &swap);
  return spec();
}

void add_game_options(CLI::App* cmd, GameOptions* o, const GameOptionsHelp& help) {
  if (help.variant)
    o->variant_option = cmd->add_option("--variant", o->variant,
                                        "Variant name (" + variant_list() + ") or rules file (docs/VARIANTS.md); default: " +
                                            help.variant_default);
  cmd->add_option("--size", o->size, help.size);
  if (!help.swap.empty())
    cmd->add_option("--swap", o->swap, "Pie rule: on, off or default (" + help.swap + ")")
        ->check(CLI::IsMember({"on", "off", "default"}));
}

void game_from_model(const std::string& model_desc, bool variant_given, std::string* variant, int* size,
                     std::string* swap) {
  if (variant_given || model_desc.empty()) return;
  PlayerDescription player;
  std::string error;
  if (!parse_player_description(model_desc, &player, &error) || player.kind != PlayerDescription::Kind::kModel) return;
  // Only a description that the loader would accept is followed: a refused one is left to
  // the loading, whose error names the model file and the field.
  ModelDescription description;
  try {
    description = parse_model_description(read_model_description(player.model_path));
  } catch (const std::exception&) {
    return;
  }
  *variant = variant_info(description.shape.spec.variant).name;
  if (*size == 0) *size = description.shape.size;
  if (*swap == "default") *swap = description.shape.spec.swap ? "on" : "off";
}

}  // namespace quax
