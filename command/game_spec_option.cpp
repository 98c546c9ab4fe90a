#include "command/game_spec_option.h"

#include <stdexcept>

#include "command/command.h"
#include "core/quoted_input.h"
#include "nets/model_file.h"
#include "nets/players.h"

namespace quax {

GameSpec game_spec_from_options(const std::string& variant_name, int size, const std::string& swap) {
  const auto variant = parse_variant(variant_name);
  if (!variant) throw CommandError("unknown variant " + quoted_input(variant_name) + " (known: " + variant_list() + ")");
  GameSpec spec = default_spec(*variant);
  if (size) spec.size = size;
  if (swap != "default") spec.swap = swap == "on";
  if (auto err = check_spec(spec); !err.empty()) throw CommandError(err);
  return spec;
}

void game_from_model(const std::string& model_desc, bool variant_given, std::string* variant, int* size,
                     std::string* swap) {
  if (variant_given || model_desc.empty()) return;
  PlayerDescription player;
  std::string error;
  if (!parse_player_description(model_desc, &player, &error) || player.kind != PlayerDescription::Kind::kModel) return;
  nlohmann::json description;
  try {
    description = read_model_description(player.model_path);
  } catch (const std::runtime_error&) {
    return;
  }
  const auto name = description.find("variant");
  if (name == description.end() || !name->is_string() || !parse_variant(name->get<std::string>())) return;
  *variant = name->get<std::string>();
  const auto trained = description.find("size");
  if (*size == 0 && trained != description.end() && trained->is_number_integer()) *size = trained->get<int>();
  const auto pie = description.find("swap");
  if (*swap == "default" && pie != description.end() && pie->is_boolean()) *swap = pie->get<bool>() ? "on" : "off";
}

}  // namespace quax
