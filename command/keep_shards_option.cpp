#include "command/keep_shards_option.h"

namespace quax {

void add_keep_shards_option(CLI::App* cmd, int* keep) {
  cmd->add_option("--keep-shards", *keep,
                  "After each checkpoint, delete the self-play shards that hold no game of the replay window, "
                  "except the newest N (default: keep all)")
      ->check(CLI::Range(1, 1000000000));
}

}  // namespace quax
