// The game a command works on, from its --variant / --size / pie-rule options.
#pragma once

#include <string>

#include "env/types.h"

namespace quax {

// `variant` is a variant's name or a rules file (rules/rules_file.h, read and registered);
// `size` 0 means the variant's default; `swap` is "on", "off" or "default" (the variant's
// own pie rule). Throws CommandError with one line for an unknown variant, a rules file
// refused, or a size the variant does not allow.
GameSpec game_spec_from_options(const std::string& variant, int size, const std::string& swap = "default");

// For a command given a model (`model_desc`: a player description, "hex-9.pt" or
// "hex-9.pt:sims=400") but not --variant (`variant_given` false): sets *variant to the model's
// own, *size (when 0) to the size it describes and *swap (when "default") to the pie rule it
// was trained with, so that `quax play --model hex-9.pt` plays the model's own game rather than
// refusing it for quax. Leaves all three as they are when --variant was given or the
// description names no model file; a file whose description parse_model_description
// refuses (or cannot be read) is left to the loading that follows, which names the file and
// what is wrong with it.
void game_from_model(const std::string& model_desc, bool variant_given, std::string* variant, int* size,
                     std::string* swap);

}  // namespace quax
