// Fuzzing self-play shards (train/shard.h), as the learner's replay window reads them: the
// spec from the head (read_shard_spec), then every check of read_shard. Seeds are real
// shards of self-play games and the version-1 file of tests/data; half the mutated version-3
// inputs get their length and checksum put back so that the decoder's checks behind them are
// reached. A shard decoded must encode back to its own bytes. QUAX_FUZZ_SECONDS sets the
// time (default 20 s).
#include <gtest/gtest.h>
#include <unistd.h>
#include <xxhash.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_harness.h"
#include "env/game_registry.h"
#include "mcts/simple_evaluators.h"
#include "train/shard.h"
#include "shard_games.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
  const auto dir = fs::temp_directory_path() / ("quax_fuzz_shard_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> shard_seeds(const std::string& dir) {
  std::vector<std::string> seeds = {read_bytes(std::string(QUAX_TEST_DATA_DIR) + "/shards/v1-quax4.qxs")};
  const std::vector<GameSpec> specs = {GameSpec{Variant::kQuax, 4, true}, GameSpec{Variant::kTorax, 5, false},
                                       GameSpec{Variant::kHex, 5, true}, GameSpec{Variant::kStymie, 4, true}};
  for (size_t i = 0; i < specs.size(); ++i) {
    const std::string path = dir + "/seed.qxs";
    write_shard(path, play_games(specs[i], 3, 11 + i, RootRule::kPuct, i == 1 ? 12 : 0));
    seeds.push_back(read_bytes(path));
  }
  return seeds;
}

// A version-2 or -3 shard's payload length and checksum made to match its payload (any other
// version becomes 3).
void repair_header(std::string* bytes) {
  if (bytes->size() < 24 || bytes->compare(0, 4, "QXSH") != 0) return;
  const uint64_t length = bytes->size() - 24, sum = XXH3_64bits(bytes->data() + 24, length);
  if ((*bytes)[4] != 2) (*bytes)[4] = static_cast<char>(kShardFormatVersion);
  for (int i = 5; i < 8; ++i) (*bytes)[i] = 0;
  for (int i = 0; i < 8; ++i) {
    (*bytes)[8 + i] = static_cast<char>((length >> (8 * i)) & 0xff);
    (*bytes)[16 + i] = static_cast<char>((sum >> (8 * i)) & 0xff);
  }
}

// What the replay window does with a shard file: the spec from its head, then read_shard.
// A shard of no playable spec is still read, as quax 4x4's (read_shard then refuses it).
void read_shard_file(const std::string& bytes, const std::string& path) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const GameSpec spec = read_shard_spec(path).value_or(GameSpec{Variant::kQuax, 4, true});
  const std::vector<GameRecord> games = read_shard(path, spec);
  for (const GameRecord& g : games) trainable_positions(g);
  // A shard as this program writes it: today's version, the rules as rules_text gives them (the
  // reader also takes the same game under another name or sizes, which encodes back canonical).
  const std::string rules = rules_text(variant_info(spec.variant).rules);
  const bool written_today = bytes[4] == static_cast<char>(kShardFormatVersion) &&
                             bytes.size() >= 30 + rules.size() && bytes.compare(30, rules.size(), rules) == 0;
  if (written_today && encode_shard(games) != bytes) throw fuzz::Broken{"a shard decoded does not encode back to its bytes"};
}

fuzz::MutatorOptions shard_mutations() {
  fuzz::MutatorOptions m;
  m.text = false;
  m.repair = repair_header;
  return m;
}

TEST(FuzzShards, SeedsRead) {
  const std::string dir = temp_dir();
  const auto seeds = shard_seeds(dir);
  const fuzz::Report r =
      fuzz::read_each("shards", seeds, [&](const std::string& in) { read_shard_file(in, dir + "/s.qxs"); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every shard written reads";
  fs::remove_all(dir);
}

// Shards that once read but did not mean what their bytes say (a reserved byte set).
TEST(FuzzShards, KeptInputsAreRefusedInOneLine) {
  const std::string dir = temp_dir();
  const auto kept = fuzz::kept_inputs("shards");
  ASSERT_FALSE(kept.empty());
  const fuzz::Report r =
      fuzz::read_each("shards", kept, [&](const std::string& in) { read_shard_file(in, dir + "/s.qxs"); });
  fuzz::expect_all_refused(r, kept.size());
  fs::remove_all(dir);
}

TEST(FuzzShards, MutatedShardsAreReadOrRefusedInOneLine) {
  const std::string dir = temp_dir();
  const fuzz::Budget budget = fuzz::budget_from_env(20);
  fuzz::Mutator mutator(budget.seed, shard_seeds(dir), shard_mutations());
  const fuzz::Report r =
      fuzz::fuzz("shards", mutator, [&](const std::string& in) { read_shard_file(in, dir + "/s.qxs"); }, budget);
  fuzz::expect_read_or_refused(r, "shards");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
