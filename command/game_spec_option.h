// The game a command works on, from its --variant / --size / pie-rule options.
#pragma once

#include <string>

#include "env/types.h"

namespace quax {

// `size` 0 means the variant's default; `swap` is "on", "off" or "default" (the variant's
// own pie rule). Throws CommandError with one line for an unknown variant or a size the
// variant does not allow.
GameSpec game_spec_from_options(const std::string& variant, int size, const std::string& swap = "default");

}  // namespace quax
