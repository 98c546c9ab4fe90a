// Reading a file a user or a peer names, without trusting it: the one reader behind every file a
// command or the server opens. A FIFO, a device or a directory given where a file is expected
// would block for ever or grow without end (`--results /dev/zero`), so only regular files are
// read, and never more than a limit stated by the caller.
#pragma once

#include <cstdint>
#include <string>

namespace quax {

// Size limits of the files the program reads, one per kind, named in the errors.
inline constexpr std::uintmax_t kMiB = 1024 * 1024;
inline constexpr std::uintmax_t kConfigFileLimit = 1 * kMiB;       // a YAML config or one it extends
inline constexpr std::uintmax_t kRecordFileLimit = 16 * kMiB;      // a game record, a text position
inline constexpr std::uintmax_t kResultsFileLimit = 256 * kMiB;    // an arena results file
inline constexpr std::uintmax_t kBookFileLimit = 256 * kMiB;       // a solved-positions file
inline constexpr std::uintmax_t kMetricsFileLimit = 64 * kMiB;     // a run's metrics.jsonl, ladder.json
inline constexpr std::uintmax_t kModelFileLimit = 1024 * kMiB;     // a model file or learner checkpoint
inline constexpr std::uintmax_t kShardFileLimit = 512 * kMiB;      // a self-play shard
inline constexpr std::uintmax_t kWebFileLimit = 16 * kMiB;         // a file of the page (`quax serve --web`)

// The whole of the regular file at `path`, at most `max_bytes` of it. Throws std::runtime_error
// with one line naming the path and `what` (e.g. "results file") when it is missing or
// unreadable, is not a regular file (a FIFO, a device, a directory: refused without blocking),
// or holds more than max_bytes (the limit is named).
std::string read_regular_file(const std::string& path, std::uintmax_t max_bytes, const std::string& what);

// The same checks without reading: "" when `path` is a regular file of at most max_bytes, else
// the one-line reason ("'x' is a FIFO, not a regular file"). For code that hands a path on.
std::string regular_file_problem(const std::string& path, std::uintmax_t max_bytes, const std::string& what);

// "16 MB" / "512 KB" / "12 bytes": how the limits are written in messages.
std::string size_text(std::uintmax_t bytes);

}  // namespace quax
