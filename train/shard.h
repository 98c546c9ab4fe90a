// Shards: files of finished self-play games under <run>/selfplay/, the only link between
// self-play and the learner (so they can run in one process or in two).
//
// A shard is written once, atomically (core/atomic_file.h), and never changed. Names sort by
// creation time: shard-<milliseconds since epoch, 13 digits>-<writer>-<n, 6 digits>.qxs. The
// bytes (version 2 with a checksum; version 1 still read) are described in train/shard_format.h.
// A shard that fails to read is set aside in <dir>/bad/, where no listing sees it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcts/selfplay_driver.h"
#include "train/shard_format.h"

namespace quax {

// Writes `games` (all of one spec) to `path` atomically. Throws std::runtime_error naming the
// file on I/O errors and for games that do not fit the format.
void write_shard(const std::string& path, const std::vector<GameRecord>& games);
// Reads a shard of `spec`'s games with every check of decode_shard. Throws std::runtime_error
// with one line "shard '<path>': <what is wrong>" for a file that fails a check, and one line
// naming the path and "shard" for one that cannot be read, is not a regular file or is larger
// than kShardFileLimit (core/bounded_file.h).
std::vector<GameRecord> read_shard(const std::string& path, const GameSpec& spec);
// The spec named in the header of the shard at `path` (decode_shard_spec); nullopt when the
// file cannot be read or has no valid header. Reads only the first bytes.
std::optional<GameSpec> read_shard_spec(const std::string& path);
// Moves a shard that failed to read into the "bad" directory beside it (created when missing)
// and returns its new path. Throws std::runtime_error naming the file when it cannot be moved.
std::string set_aside_bad_shard(const std::string& path);

// A fresh shard file name in `dir` (not created), unique for this writer (letters and digits).
std::string new_shard_path(const std::string& dir, const std::string& writer, int64_t counter);
// True when `name` (no directory) has the shape new_shard_path gives.
bool is_shard_name(const std::string& name);
// The shard files in `dir` (names of the shape above only; temporaries and other files are
// ignored), sorted by name (oldest first).
std::vector<std::string> list_shards(const std::string& dir);

// Positions with a policy target (full-search moves): what the learner trains on.
int64_t trainable_positions(const GameRecord& game);

}  // namespace quax
