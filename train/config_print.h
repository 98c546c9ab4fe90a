// What `quax train --print-config` prints and configs/README.md's key table: the schema's
// descriptions of the keys. Defined in train/config.cpp, beside the schema they walk.
#pragma once

#include <string>

#include "train/config.h"

namespace quax {

// dump_config with "  # <description>[; <what a value must be>]" after each key (the search
// keys' from their schema, mcts/search_schema.h); parses back to the same configuration.
std::string dump_config_documented(const TrainConfig& config);

// configs/README.md's key table, one row per key in the schema's order:
// "| `section.key` | `<default>` | <description> |" (the default "-" for game.sizes and
// game.size_weights, which a run of one size leaves out). A test checks the file holds it.
std::string config_key_table();

}  // namespace quax
