// Shards: files of finished self-play games under <run>/selfplay/, the only link between
// self-play and the learner (so they can run in one process or in two).
//
// A shard is written once, atomically (temporary name, then rename), and never changed.
// Names sort by creation time: shard-<milliseconds since epoch, 13 digits>-<writer>-<n>.qxs.
//
// Binary format, little-endian (the machines we run on), version 1:
//   "QXSH" u32 version u8 variant u8 size u8 swap u8 reserved u32 games
//   per game: i64 game_index u8 outcome u8 flags(1 truncated, 2 resigned, 4 resign_disabled,
//             8 would_have_resigned) i8 resigner i8 would_resign_player i32 would_resign_move
//             u32 moves
//     per move: i16 action i8 mover u8 full_search f32 root_value i32 simulations
//               u32 policy_entries, then entries of (u16 action, f32 probability)
#pragma once

#include <string>
#include <vector>

#include "mcts/selfplay_driver.h"

namespace quax {

constexpr uint32_t kShardFormatVersion = 1;

// Writes `games` (all of one spec) to `path` atomically. Throws std::runtime_error on I/O errors.
void write_shard(const std::string& path, const std::vector<GameRecord>& games);
// Reads a shard; throws std::runtime_error naming the file for a bad magic, version or a
// truncated file.
std::vector<GameRecord> read_shard(const std::string& path);

// A fresh shard file name in `dir` (not created), unique for this writer.
std::string new_shard_path(const std::string& dir, const std::string& writer, int64_t counter);
// The shard files in `dir`, sorted by name (oldest first).
std::vector<std::string> list_shards(const std::string& dir);

// Positions with a policy target (full-search moves): what the learner trains on.
int64_t trainable_positions(const GameRecord& game);

}  // namespace quax
