#include "train/shard.h"

#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "core/atomic_file.h"

namespace quax {

namespace {

class Writer {
 public:
  template <typename T>
  void put(T v) {
    const char* p = reinterpret_cast<const char*>(&v);
    buf.insert(buf.end(), p, p + sizeof(T));
  }
  std::string buf;
};

class Reader {
 public:
  Reader(const std::string& data, const std::string& path) : data_(data), path_(path) {}
  template <typename T>
  T get() {
    if (pos_ + sizeof(T) > data_.size()) throw std::runtime_error("shard '" + path_ + "' is truncated");
    T v;
    std::memcpy(&v, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  bool at_end() const { return pos_ == data_.size(); }

 private:
  const std::string& data_;
  const std::string& path_;
  size_t pos_ = 0;
};

}  // namespace

void write_shard(const std::string& path, const std::vector<GameRecord>& games) {
  Writer w;
  w.buf = "QXSH";
  w.put<uint32_t>(kShardFormatVersion);
  const GameSpec spec = games.empty() ? GameSpec{} : games.front().spec;
  w.put<uint8_t>(static_cast<uint8_t>(spec.variant));
  w.put<uint8_t>(static_cast<uint8_t>(spec.size));
  w.put<uint8_t>(spec.swap ? 1 : 0);
  w.put<uint8_t>(0);
  w.put<uint32_t>(static_cast<uint32_t>(games.size()));
  for (const auto& g : games) {
    if (g.spec != spec) throw std::runtime_error("shard '" + path + "': games of different specs");
    w.put<int64_t>(g.game_index);
    w.put<uint8_t>(static_cast<uint8_t>(g.outcome));
    w.put<uint8_t>(static_cast<uint8_t>((g.truncated ? 1 : 0) | (g.resigned ? 2 : 0) | (g.resign_disabled ? 4 : 0) |
                                        (g.would_have_resigned ? 8 : 0)));
    w.put<int8_t>(static_cast<int8_t>(g.resigner));
    w.put<int8_t>(static_cast<int8_t>(g.would_resign_player));
    w.put<int32_t>(g.would_resign_move);
    w.put<uint32_t>(static_cast<uint32_t>(g.moves.size()));
    for (const auto& m : g.moves) {
      w.put<int16_t>(static_cast<int16_t>(m.action));
      w.put<int8_t>(static_cast<int8_t>(m.mover));
      w.put<uint8_t>(m.full_search ? 1 : 0);
      w.put<float>(m.root_value);
      w.put<int32_t>(m.simulations);
      w.put<uint32_t>(static_cast<uint32_t>(m.policy.size()));
      for (const auto& [a, p] : m.policy) {
        w.put<uint16_t>(static_cast<uint16_t>(a));
        w.put<float>(p);
      }
    }
  }
  write_file_atomically(path, w.buf);
}

std::vector<GameRecord> read_shard(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read shard '" + path + "'");
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < 4 || data.compare(0, 4, "QXSH") != 0) throw std::runtime_error("'" + path + "' is not a shard");
  Reader r(data, path);
  for (int i = 0; i < 4; ++i) r.get<char>();
  const auto version = r.get<uint32_t>();
  if (version != kShardFormatVersion)
    throw std::runtime_error(fmt::format("shard '{}' has format version {}, this program reads {}", path, version,
                                         kShardFormatVersion));
  GameSpec spec;
  spec.variant = static_cast<Variant>(r.get<uint8_t>());
  spec.size = r.get<uint8_t>();
  spec.swap = r.get<uint8_t>() != 0;
  r.get<uint8_t>();
  const auto count = r.get<uint32_t>();
  std::vector<GameRecord> games(count);
  for (auto& g : games) {
    g.spec = spec;
    g.game_index = r.get<int64_t>();
    g.outcome = static_cast<Outcome>(r.get<uint8_t>());
    const auto flags = r.get<uint8_t>();
    g.truncated = flags & 1;
    g.resigned = flags & 2;
    g.resign_disabled = flags & 4;
    g.would_have_resigned = flags & 8;
    g.resigner = static_cast<Player>(r.get<int8_t>());
    g.would_resign_player = static_cast<Player>(r.get<int8_t>());
    g.would_resign_move = r.get<int32_t>();
    g.moves.resize(r.get<uint32_t>());
    for (auto& m : g.moves) {
      m.action = r.get<int16_t>();
      m.mover = static_cast<Player>(r.get<int8_t>());
      m.full_search = r.get<uint8_t>() != 0;
      m.root_value = r.get<float>();
      m.simulations = r.get<int32_t>();
      m.policy.resize(r.get<uint32_t>());
      for (auto& e : m.policy) {
        e.first = r.get<uint16_t>();
        e.second = r.get<float>();
      }
    }
  }
  if (!r.at_end()) throw std::runtime_error("shard '" + path + "' has trailing bytes");
  return games;
}

std::string new_shard_path(const std::string& dir, const std::string& writer, int64_t counter) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  return fmt::format("{}/shard-{:013d}-{}-{:06d}.qxs", dir, ms, writer, counter);
}

std::vector<std::string> list_shards(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const auto name = e.path().filename().string();
    if (name.rfind("shard-", 0) == 0 && e.path().extension() == ".qxs") out.push_back(e.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

int64_t trainable_positions(const GameRecord& game) {
  int64_t n = 0;
  for (const auto& m : game.moves) n += (m.full_search && !m.policy.empty()) ? 1 : 0;
  return n;
}

}  // namespace quax
