// The --keep-shards option of the commands that run the learner (train, learn).
#pragma once

#include <CLI/CLI.hpp>

namespace quax {

// Adds `--keep-shards N` to `cmd`, stored in *keep (TrainOptions::keep_shards; left at 0,
// keep every shard, when the option is not given).
void add_keep_shards_option(CLI::App* cmd, int* keep);

}  // namespace quax
