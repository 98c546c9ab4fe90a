#include "command/game_spec_option.h"

#include "command/command.h"
#include "core/quoted_input.h"

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

}  // namespace quax
