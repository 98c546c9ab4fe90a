// The bytes of a shard (train/shard.h): encoding, and decoding that trusts nothing it reads.
//
// Every integer is little-endian, written and read byte by byte (the same file on any host);
// a float is the little-endian u32 of its IEEE-754 bits.
//
// Version 3 (written):
//   header   "QXSH" u32 version=3 u64 payload_bytes u64 checksum (XXH3-64 of the payload)
//   payload  u8 variant u8 size u8 swap u8 reserved(0)
//            u16 rules_bytes, then the variant's rules as rules_text() writes them (env/rules.h):
//            the variant's value is only a number within one run, the rules are what the games
//            were played under
//            u32 games
//     per game: i64 game_index u8 outcome u8 flags(1 truncated, 2 resigned, 4 resign_disabled,
//               8 would_have_resigned) i8 resigner i8 would_resign_player i32 would_resign_move
//               u32 moves
//       per move: u16 action i8 mover u8 full_search f32 root_value i32 simulations
//                 u32 policy_entries, then entries of (u16 action, f32 probability)
// GameRecord::seats is not stored (self-play's are {0, 0}, what the reader gives).
// Version 2 (read only): version 3 without the rules.
// Version 1 (read only): "QXSH" u32 version=1, then version 2's payload directly (no length,
// no checksum), with each move's action an i16.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mcts/selfplay_driver.h"

namespace quax {

constexpr uint32_t kShardFormatVersion = 3;

// The version-3 bytes of `games`, all of one spec. Throws std::runtime_error (one line, without
// a file name) when the games mix specs or an action or count does not fit its field.
std::string encode_shard(const std::vector<GameRecord>& games);

// Decodes version 1, 2 or 3 and checks everything against the rules of `spec`: the magic and
// version, the payload length and checksum (versions 2 and 3), the spec, the rules the games
// were played under (version 3: the same game as spec's variant here, see same_game_rules, so
// that a rules file changed during a run is caught), every count against the
// bytes left, and each game replayed from the start: outcomes, flags and players are valid
// values, every move is legal and played by the player to move, no move follows the end of the
// game, root values are finite, and a policy (full-search moves only) lists legal
// network-frame actions in increasing order with finite probabilities in [0, 1] summing to 1.
// Throws std::runtime_error with one line "<what is wrong>" (the caller adds the file name),
// e.g. "game 2, move 5: action -32768 is not one of the 50 actions of quax 4x4 (swap)".
// Precondition: check_spec(spec) is empty.
std::vector<GameRecord> decode_shard(const std::string& bytes, const GameSpec& spec);

// The spec a shard's header names, read from its first bytes (kShardHeadBytes are enough for
// either version) without any other check; nullopt when they are no shard header or name no
// playable spec. For routing a shard to the reader of its spec (train/replay_windows.h),
// which then checks everything with decode_shard.
constexpr size_t kShardHeadBytes = 4 + 4 + 8 + 8 + 4;
std::optional<GameSpec> decode_shard_spec(const std::string& head);

}  // namespace quax
