// A model file's card: what the file says about itself, in lines for people to read (`quax
// card`, and `quax export` after writing a model), above all the pie rule it was trained
// with, which decides whether figures of games with or without it mean anything.
#pragma once

#include <string>
#include <vector>

#include "env/types.h"
#include "nets/model_file.h"

namespace quax {

// "pie rule: on (...)", "pie rule: off (...)" for a model trained on `trained` (its variant,
// first size and pie rule), the parenthesis saying what playing under the other setting
// means; "pie rule: off (<variant> has none ...)" for a variant without a pie rule.
std::string pie_rule_line(const GameSpec& trained);

// The card of the model loaded from `path`, one "key: value" line each: model (the path),
// game (variant, trained sizes), pie rule (pie_rule_line), net, step, and exported from
// where the description names the source of a `quax export`.
std::vector<std::string> model_card(const std::string& path, const LoadedModel& model);

}  // namespace quax
