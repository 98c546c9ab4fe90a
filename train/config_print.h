// What `quax train --print-config` prints: the configuration as dump_config writes it, with a
// comment after each key that has a description of its own. Defined in train/config.cpp,
// beside the schema it walks.
#pragma once

#include <string>

#include "train/config.h"

namespace quax {

// dump_config with "  # <description>" after each key that has one (the search keys: their
// schema's line and range, mcts/search_schema.h); parses back to the same configuration.
std::string dump_config_documented(const TrainConfig& config);

}  // namespace quax
