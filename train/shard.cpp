#include "train/shard.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

#include "core/atomic_file.h"
#include "core/bounded_file.h"

namespace quax {

namespace fs = std::filesystem;

void write_shard(const std::string& path, const std::vector<GameRecord>& games) {
  std::string bytes;
  try {
    bytes = encode_shard(games);
  } catch (const std::exception& e) {
    throw std::runtime_error("shard '" + path + "': " + e.what());
  }
  write_file_atomically(path, bytes);
}

std::vector<GameRecord> read_shard(const std::string& path, const GameSpec& spec) {
  // Its messages name the path and say "shard".
  const std::string bytes = read_regular_file(path, kShardFileLimit, "shard");
  try {
    return decode_shard(bytes, spec);
  } catch (const std::exception& e) {
    throw std::runtime_error("shard '" + path + "': " + e.what());
  }
}

std::optional<GameSpec> read_shard_spec(const std::string& path) {
  // A FIFO under a shard's name would block the open below.
  if (!regular_file_problem(path, kShardFileLimit, "shard").empty()) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  std::string head(kShardHeadBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(std::max<std::streamsize>(in.gcount(), 0)));
  return decode_shard_spec(head);
}

std::string set_aside_bad_shard(const std::string& path) {
  const fs::path from(path);
  const fs::path to = from.parent_path() / "bad" / from.filename();
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  if (!ec) fs::rename(from, to, ec);
  if (ec)
    throw std::runtime_error("shard '" + path + "' cannot be moved to " + to.parent_path().string() + ": " +
                             ec.message());
  return to.string();
}

std::string new_shard_path(const std::string& dir, const std::string& writer, int64_t counter) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return fmt::format("{}/shard-{:013d}-{}-{:06d}.qxs", dir, ms, writer, counter);
}

bool is_shard_name(const std::string& name) {
  static const std::regex pattern(R"(shard-[0-9]{13}-[A-Za-z0-9]+-[0-9]{6,}\.qxs)");
  return std::regex_match(name, pattern);
}

std::vector<std::string> list_shards(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (is_shard_name(e.path().filename().string()) && e.is_regular_file(ec)) out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

int64_t trainable_positions(const GameRecord& game) {
  int64_t n = 0;
  for (const auto& m : game.moves) n += (m.full_search && !m.policy.empty()) ? 1 : 0;
  return n;
}

}  // namespace quax
