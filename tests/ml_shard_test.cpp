// Shards: games written and read back unchanged, in every variant; version-1 and version-2
// files still read; games played under other rules than the run's refused; damaged files refused with one line naming the file and what is wrong; the replay
// window skips and sets aside bad shards and prunes the ones it no longer holds.
#include <gtest/gtest.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>

#include "core/bounded_file.h"
#include "env/game_registry.h"
#include "env/game_state.h"
#include "mcts/simple_evaluators.h"
#include "train/replay_window.h"
#include "train/shard.h"
#include "shard_games.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string temp_dir(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("quax_ml_" + name + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Every field of every game and move (floats bit for bit).
void expect_same_games(const std::vector<GameRecord>& back, const std::vector<GameRecord>& games) {
  ASSERT_EQ(back.size(), games.size());
  for (size_t i = 0; i < games.size(); ++i) {
    const GameRecord &b = back[i], &g = games[i];
    SCOPED_TRACE(fmt::format("game {} of {}", i, describe(g.spec)));
    EXPECT_EQ(b.spec, g.spec);
    EXPECT_EQ(b.game_index, g.game_index);
    EXPECT_EQ(b.seats, g.seats);  // not stored: self-play's are {0, 0}
    EXPECT_EQ(b.outcome, g.outcome);
    EXPECT_EQ(b.truncated, g.truncated);
    EXPECT_EQ(b.resigned, g.resigned);
    EXPECT_EQ(b.resigner, g.resigner);
    EXPECT_EQ(b.resign_disabled, g.resign_disabled);
    EXPECT_EQ(b.would_have_resigned, g.would_have_resigned);
    EXPECT_EQ(b.would_resign_player, g.would_resign_player);
    EXPECT_EQ(b.would_resign_move, g.would_resign_move);
    ASSERT_EQ(b.moves.size(), g.moves.size());
    for (size_t m = 0; m < g.moves.size(); ++m) {
      const MoveRecord &bm = b.moves[m], &gm = g.moves[m];
      EXPECT_EQ(bm.action, gm.action) << "move " << m;
      EXPECT_EQ(bm.mover, gm.mover) << "move " << m;
      EXPECT_EQ(bm.full_search, gm.full_search) << "move " << m;
      EXPECT_TRUE(same_bits(bm.root_value, gm.root_value)) << "move " << m;
      EXPECT_EQ(bm.simulations, gm.simulations) << "move " << m;
      ASSERT_EQ(bm.policy.size(), gm.policy.size()) << "move " << m;
      for (size_t e = 0; e < gm.policy.size(); ++e) {
        EXPECT_EQ(bm.policy[e].first, gm.policy[e].first) << "move " << m;
        EXPECT_TRUE(same_bits(bm.policy[e].second, gm.policy[e].second)) << "move " << m;
      }
    }
  }
}

// The smallest playable spec of each variant, with its own pie rule.
std::vector<GameSpec> small_specs() {
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  std::vector<GameSpec> out;
  for (int v = 0; v < count; ++v) {
    GameSpec spec{all[v].variant, all[v].min_size, all[v].swap_by_default};
    while (!check_spec(spec).empty() && spec.size < all[v].max_size) ++spec.size;
    out.push_back(spec);
  }
  return out;
}

TEST(Shard, RoundTripKeepsEveryFieldOfEveryVariant) {
  const auto dir = temp_dir("shard");
  int resigned = 0, played_out = 0, truncated = 0, fast_moves = 0;
  uint64_t seed = 3;
  for (const GameSpec& spec : small_specs()) {
    const RootRule rule = seed % 4 == 1 ? RootRule::kGumbel : RootRule::kPuct;
    auto games = play_games(spec, 4, seed, rule);
    const auto cut = play_games(spec, 2, seed + 1, rule, 3);
    seed += 2;
    games.insert(games.end(), cut.begin(), cut.end());
    for (const auto& g : games) {
      resigned += g.resigned;
      played_out += g.would_have_resigned;
      truncated += g.truncated;
      for (const auto& m : g.moves) fast_moves += !m.full_search;
    }
    const auto path = new_shard_path(dir, "t", seed);
    write_shard(path, games);
    SCOPED_TRACE(describe(spec));
    expect_same_games(read_shard(path, spec), games);
  }
  // The games covered every kind of record.
  EXPECT_GT(resigned, 0);
  EXPECT_GT(played_out, 0);
  EXPECT_GT(truncated, 0);
  EXPECT_GT(fast_moves, 0);
  fs::remove_all(dir);
}

// The encoding does not depend on the host: the header and one game, byte by byte.
TEST(Shard, EncodingIsLittleEndianByteForByte) {
  const GameSpec spec{Variant::kQuax, 4, true};
  auto state = new_game(spec);
  std::vector<int> legal;
  state->legal_actions(&legal);
  GameRecord g;
  g.spec = spec;
  g.game_index = 0x0102030405060708;
  g.outcome = Outcome::kWhiteWins;
  g.resigned = true;
  g.resigner = Player::kBlack;
  MoveRecord m;
  m.action = legal.at(1);  // 1 (b1)
  m.mover = Player::kBlack;
  m.root_value = -0.5f;  // bits 0xBF000000
  m.simulations = 0x11223344;
  m.policy = {{state->to_net_action(legal.at(1)), 1.0f}};  // 1.0f: bits 0x3F800000
  g.moves = {m};
  const std::string bytes = encode_shard({g});
  const std::string payload = bytes.substr(24);
  const std::string rules = rules_text(variant_info(Variant::kQuax).rules);
  ASSERT_LT(rules.size(), 256u);
  const std::string expected_payload = std::string("\x00\x04\x01\x00", 4) +  // quax, 4, swap, reserved
                                       static_cast<char>(rules.size()) + '\x00' + rules +  // u16 length, text
                                       std::string(
      "\x01\x00\x00\x00"                  // 1 game
      "\x08\x07\x06\x05\x04\x03\x02\x01"  // game_index
      "\x02\x02\x00\xff"                  // white wins, resigned, black resigned, no would-be resigner
      "\xff\xff\xff\xff"                  // would_resign_move -1
      "\x01\x00\x00\x00"                  // 1 move
      "\x01\x00\x00\x01"                  // action 1, black, full search
      "\x00\x00\x00\xbf"                  // -0.5f
      "\x44\x33\x22\x11"                  // simulations
      "\x01\x00\x00\x00"                  // 1 policy entry
      "\x01\x00\x00\x00\x80\x3f",         // action 1, 1.0f
      46);
  EXPECT_EQ(payload, expected_payload);
  EXPECT_EQ(bytes.substr(0, 8), std::string("QXSH\x03\x00\x00\x00", 8));
  EXPECT_EQ(bytes.substr(8, 8), std::string({static_cast<char>(payload.size()), '\x00', '\x00', '\x00', '\x00', '\x00',
                                             '\x00', '\x00'}));
  ASSERT_EQ(m.action, 1);
  expect_same_games(decode_shard(bytes, spec), {g});
}

// tests/data/shards/v1-quax4.qxs was written by the version-1 writer (commit 6187446) from
// self-play games; v1-quax4.txt is the dump of those games as they were in memory.
std::string dump_games(const std::vector<GameRecord>& games) {
  std::string out;
  for (const auto& g : games) {
    out += fmt::format("game {} spec {} {} {} outcome {} truncated {} resigned {} resigner {} resign_disabled {} "
                       "would_have_resigned {} would_resign_player {} would_resign_move {} moves {}\n",
                       g.game_index, static_cast<int>(g.spec.variant), g.spec.size, g.spec.swap ? 1 : 0,
                       static_cast<int>(g.outcome), g.truncated ? 1 : 0, g.resigned ? 1 : 0,
                       static_cast<int>(g.resigner), g.resign_disabled ? 1 : 0, g.would_have_resigned ? 1 : 0,
                       static_cast<int>(g.would_resign_player), g.would_resign_move, g.moves.size());
    for (const auto& m : g.moves) {
      out += fmt::format("  {} {} {} {:.9g} {}", m.action, static_cast<int>(m.mover), m.full_search ? 1 : 0,
                         m.root_value, m.simulations);
      for (const auto& [a, p] : m.policy) out += fmt::format(" {}:{:.9g}", a, p);
      out += "\n";
    }
  }
  return out;
}

const GameSpec kFixtureSpec{Variant::kQuax, 4, true};
std::string fixture(const std::string& name) { return std::string(QUAX_SOURCE_DIR) + "/tests/data/shards/" + name; }

TEST(Shard, VersionOneShardsStillRead) {
  const std::string v1 = read_bytes(fixture("v1-quax4.qxs"));
  ASSERT_EQ(v1.substr(0, 8), std::string("QXSH\x01\x00\x00\x00", 8));
  const auto games = read_shard(fixture("v1-quax4.qxs"), kFixtureSpec);
  EXPECT_EQ(dump_games(games), read_bytes(fixture("v1-quax4.txt")));
  // Written again, they are version 3 and read back the same.
  const auto dir = temp_dir("v1");
  write_shard(dir + "/again.qxs", games);
  EXPECT_EQ(read_bytes(dir + "/again.qxs").substr(4, 4), std::string("\x03\x00\x00\x00", 4));
  expect_same_games(read_shard(dir + "/again.qxs", kFixtureSpec), games);
  fs::remove_all(dir);
}

// read_shard refuses the file with one line naming it and saying `what`.
void expect_refused(const std::string& path, const GameSpec& spec, const std::string& what) {
  try {
    read_shard(path, spec);
    ADD_FAILURE() << "read " << path << " (expected: " << what << ")";
  } catch (const std::runtime_error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'" + path + "'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("shard"), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  }
}

// A version-2 shard of a few games of the fixture's spec.
std::string write_v2(const std::string& dir, const std::string& name) {
  const std::string path = dir + "/" + name;
  write_shard(path, play_games(kFixtureSpec, 3, 5));
  return path;
}

// A version-2 or -3 header for `payload`: its length and checksum.
std::string with_header(uint32_t version, const std::string& payload) {
  std::string out("QXSH");
  const uint64_t fields[] = {version, payload.size(), XXH3_64bits(payload.data(), payload.size())};
  for (int f = 0; f < 3; ++f)
    for (int i = 0; i < (f == 0 ? 4 : 8); ++i) out += static_cast<char>((fields[f] >> (8 * i)) & 0xFF);
  return out + payload;
}

// Version 2 is version 1's payload behind a checksummed header (the fixture's actions are all
// non-negative, so their i16 and u16 bytes agree).
TEST(Shard, VersionTwoShardsStillRead) {
  const std::string v1 = read_bytes(fixture("v1-quax4.qxs"));
  const auto dir = temp_dir("v2");
  write_bytes(dir + "/v2.qxs", with_header(2, v1.substr(8)));
  EXPECT_EQ(dump_games(read_shard(dir + "/v2.qxs", kFixtureSpec)), read_bytes(fixture("v1-quax4.txt")));
  fs::remove_all(dir);
}

// A shard names its variant by a number that holds only within a run; the rules text beside
// it catches games of other rules (a rules file edited between self-play and the learner).
TEST(Shard, GamesOfOtherRulesAreRefused) {
  const auto dir = temp_dir("rules");
  const std::string path = dir + "/rules.qxs";
  write_shard(path, play_games(kFixtureSpec, 2, 4));
  const std::string good = read_bytes(path);
  const std::string rules = rules_text(variant_info(kFixtureSpec.variant).rules);
  const size_t at = 24 + 4 + 2;  // the rules text in the payload
  ASSERT_EQ(good.substr(at, rules.size()), rules);
  const auto with_rules = [&](const std::string& text) {
    return with_header(3, good.substr(24, 4) + static_cast<char>(text.size() & 0xFF) +
                              static_cast<char>(text.size() >> 8) + text + good.substr(at + rules.size()));
  };
  // The same bytes put back read: the patching is sound.
  write_bytes(path, with_rules(rules));
  EXPECT_EQ(read_shard(path, kFixtureSpec).size(), 2u);
  // The same game under another name and sizes (link is quax without the pie rule): read.
  Rules renamed = variant_info(kFixtureSpec.variant).rules;
  renamed.name = "somebody-elses";
  renamed.max_size = 12;
  write_bytes(path, with_rules(rules_text(renamed)));
  EXPECT_EQ(read_shard(path, kFixtureSpec).size(), 2u);
  // Another fourth-point rule: the game of another variant under quax's number.
  Rules changed = variant_info(kFixtureSpec.variant).rules;
  changed.diagonal = LinkRule::kAutomatic;
  write_bytes(path, with_rules(rules_text(changed)));
  expect_refused(path, kFixtureSpec, "played under other rules than quax here (the shard's diagonal: automatic, not link)");
  write_bytes(path, with_rules("board: square\nfrobnicate: 3\n"));
  expect_refused(path, kFixtureSpec, "unknown field");
  write_bytes(path, with_header(3, good.substr(24, 4) + std::string("\xff\xff", 2) + "board"));
  expect_refused(path, kFixtureSpec, "truncated: 65535 bytes of rules need at least 65535 bytes");
  fs::remove_all(dir);
}

TEST(Shard, AFlippedByteFailsTheChecksum) {
  const auto dir = temp_dir("flip");
  const auto path = write_v2(dir, "flip.qxs");
  const std::string good = read_bytes(path);
  ASSERT_GT(good.size(), 100u);
  // A byte of the payload (first, middle, last) or of the stored checksum.
  for (size_t at : {size_t{24}, good.size() / 2, good.size() - 1, size_t{16}}) {
    std::string bad = good;
    bad[at] ^= 0x01;
    write_bytes(path, bad);
    SCOPED_TRACE(at);
    expect_refused(path, kFixtureSpec, "checksum mismatch");
  }
  fs::remove_all(dir);
}

TEST(Shard, TruncatedShardsAreRefused) {
  const auto dir = temp_dir("truncated");
  const auto path = write_v2(dir, "cut.qxs");
  const std::string good = read_bytes(path);
  write_bytes(path, good.substr(0, good.size() - 3));
  expect_refused(path, kFixtureSpec,
                 fmt::format("truncated: {} of {} payload bytes", good.size() - 27, good.size() - 24));
  write_bytes(path, good.substr(0, 20));
  expect_refused(path, kFixtureSpec, "truncated in the header");
  const std::string v1 = read_bytes(fixture("v1-quax4.qxs"));
  write_bytes(path, v1.substr(0, v1.size() - 3));
  expect_refused(path, kFixtureSpec, "game 3, move 16: truncated");
  write_bytes(path, good + "x");
  expect_refused(path, kFixtureSpec, "1 bytes after the");
  write_bytes(path, "not a shard");
  expect_refused(path, kFixtureSpec, "not a shard");
  fs::remove(path);
  expect_refused(path, kFixtureSpec, "cannot open shard");
  fs::remove_all(dir);
}

// A shard name on a FIFO, a directory or a file above kShardFileLimit is refused at once,
// without blocking or reading it (a FIFO with no writer would hang the learner for ever).
TEST(Shard, NonRegularAndOversizedShardsAreRefused) {
  const auto dir = temp_dir("nonregular");
  const std::string fifo = dir + "/fifo.qxs";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(fifo, kFixtureSpec, "is a FIFO");
  EXPECT_FALSE(read_shard_spec(fifo).has_value());
  fs::create_directory(dir + "/dir.qxs");
  expect_refused(dir + "/dir.qxs", kFixtureSpec, "is a directory");
  const auto big = write_v2(dir, "big.qxs");
  fs::resize_file(big, kShardFileLimit + 1);  // sparse: nothing is written
  expect_refused(big, kFixtureSpec, "limit for a shard");
  fs::remove_all(dir);
}

// Little-endian patches of the version-1 fixture (no checksum to get past).
std::string patched_v1(size_t at, uint64_t value, int bytes) {
  std::string v1 = read_bytes(fixture("v1-quax4.qxs"));
  for (int i = 0; i < bytes; ++i) v1[at + i] = static_cast<char>((value >> (8 * i)) & 0xFF);
  return v1;
}
// Offsets in the fixture: 16 bytes of header and spec, then game 0: 20 bytes, its move 0 (a
// fast move, no policy), its move 1 (five policy entries).
constexpr size_t kGames = 12, kMoves0 = 32, kAction0 = 36, kMover0 = 38, kRootValue0 = 40, kEntries0 = 48,
                 kEntries1 = 64, kEntry1Action = 68, kEntry1Probability = 70;

TEST(Shard, OutOfRangeValuesAreRefused) {
  const auto dir = temp_dir("range");
  const auto path = dir + "/bad.qxs";
  const struct {
    size_t at;
    uint64_t value;
    int bytes;
    std::string what;
  } cases[] = {
      {kAction0, 0x8000, 2, "game 0, move 0: action -32768 is not one of the 50 actions of quax 4x4 (swap)"},
      {kAction0, 50, 2, "game 0, move 0: action 50 is not one of the 50 actions"},
      {kMover0, 1, 1, "game 0, move 0: mover 1, but black is to move"},
      {kRootValue0, 0x7fc00000, 4, "root value nan is not finite"},
      {kEntries0, 1, 4, "game 0, move 0: a policy on a move without a full search"},
      {kEntry1Action, 999, 2, "game 0, move 1: policy entry for action 999, not a legal network-frame action"},
      {kEntry1Action + 6, 1, 2, "game 0, move 1: policy entries out of order (1 after 1)"},
      {kEntry1Probability, 0x7f800000, 4, "game 0, move 1: policy probability inf for action 1 is not in [0, 1]"},
      {kEntry1Probability, 0x3f000000, 4, "game 0, move 1: policy probabilities sum to 1.375"},
      {16 + 8, 7, 1, "game 0: outcome 7 is not a finished game's"},
      {16 + 9, 16, 1, "game 0: unknown flags 0x10"},
      {16 + 10, 5, 1, "game 0: resigned, but the resigner is 5"},
  };
  for (const auto& c : cases) {
    write_bytes(path, patched_v1(c.at, c.value, c.bytes));
    SCOPED_TRACE(c.what);
    expect_refused(path, kFixtureSpec, c.what);
  }
  write_bytes(path, patched_v1(8, 99, 1));
  expect_refused(path, kFixtureSpec, "unknown variant 99");
  // Another game's shard: in version 2 too, with a valid checksum.
  write_shard(path, play_games(GameSpec{Variant::kQuax, 5, true}, 1, 1));
  expect_refused(path, kFixtureSpec, "holds games of quax 5x5 (swap), this run is quax 4x4 (swap)");
  // An out-of-range action that the version-2 writer encodes with a valid checksum.
  auto games = play_games(kFixtureSpec, 1, 2);
  games[0].moves[0].action = 60000;
  write_shard(path, games);
  expect_refused(path, kFixtureSpec, "game 0, move 0: action 60000 is not one of the 50 actions");
  // A legal action where another was played: the replay finds the occupied cell. (A game whose
  // second move is no swap, which would move the first stone away.)
  const int swap_action = new_game(kFixtureSpec)->num_actions() - 2;
  uint64_t seed = 2;
  do games = play_games(kFixtureSpec, 1, seed++);
  while (games[0].moves.size() < 3 || games[0].moves[1].action == swap_action);
  games[0].moves[2].action = games[0].moves[1].action;
  write_shard(path, games);
  expect_refused(path, kFixtureSpec, "game 0, move 2: action ");
  fs::remove_all(dir);
}

TEST(Shard, WrongCountsAreRefused) {
  const auto dir = temp_dir("counts");
  const auto path = dir + "/bad.qxs";
  write_bytes(path, patched_v1(kGames, 1000, 4));
  expect_refused(path, kFixtureSpec, "truncated: 1000 games need at least 20000 bytes");
  write_bytes(path, patched_v1(kGames, 3, 4));
  expect_refused(path, kFixtureSpec, "bytes after the last game");
  write_bytes(path, patched_v1(kMoves0, 0xFFFFFFFF, 4));
  expect_refused(path, kFixtureSpec, "game 0: truncated: 4294967295 moves need at least");
  write_bytes(path, patched_v1(kEntries1, 51, 4));
  expect_refused(path, kFixtureSpec, "game 0, move 1: 51 policy entries for 50 actions");
  write_bytes(path, patched_v1(kEntries1, 40, 4));
  expect_refused(path, kFixtureSpec, "game 0, move 1: ");
  fs::remove_all(dir);
}

TEST(Shard, ListingsTakeOnlyShardNames) {
  const auto dir = temp_dir("list");
  const auto path = new_shard_path(dir, "p12t0", 7);
  write_shard(path, {});
  for (const char* stray : {"shard-x.qxs", "notes.txt", "shard-1234567890123-t-000001.qxs.tmp99",
                            "shard-123-t-000001.qxs"})
    write_bytes(dir + "/" + stray, "");
  fs::create_directories(dir + "/shard-1234567890123-t-000002.qxs");  // a directory
  fs::create_directories(dir + "/bad");
  write_bytes(dir + "/bad/shard-1234567890123-t-000003.qxs", "");
  EXPECT_EQ(list_shards(dir), std::vector<std::string>{path});
  EXPECT_TRUE(is_shard_name(fs::path(path).filename().string()));
  EXPECT_FALSE(is_shard_name("shard-x.qxs"));
  fs::remove_all(dir);
}

// The window keeps the newest positions, as many as window_target says (whole games, so up
// to one game more), and a restore from the saved list rebuilds the same window.
TEST(ReplayWindow, KeepsTheNewestGamesWithinTheTarget) {
  const GameSpec spec{Variant::kQuax, 4, true};
  ReplayConfig rc;
  rc.window_min = 60;
  rc.window_max = 1000;
  rc.window_scale = 2.0;
  rc.window_exponent = 0.5;
  ReplayWindow window(spec, rc);
  EXPECT_EQ(window.window_target(100), 60);      // 2 * sqrt(100) = 20, below the minimum
  EXPECT_EQ(window.window_target(10000), 200);   // 2 * sqrt(10000)
  EXPECT_EQ(window.window_target(1000000), 1000);  // above the maximum
  const auto dir = temp_dir("window");
  int64_t total = 0;
  std::vector<GameRecord> all;
  for (int shard = 0; shard < 6; ++shard) {
    auto games = play_games(spec, 5, 100 + shard);
    for (const auto& g : games) total += trainable_positions(g);
    all.insert(all.end(), games.begin(), games.end());
    write_shard(dir + "/shard-" + std::to_string(1000000000000 + shard) + "-t-000000.qxs", games);
    window.ingest_new(dir);
    EXPECT_EQ(window.total_positions(), total);
    const int64_t target = window.window_target(total);
    EXPECT_GE(window.window_positions(), std::min(total, target));
    EXPECT_LT(window.window_positions(), target + trainable_positions(all.front()) + 16 * 16);
  }
  EXPECT_EQ(window.ingest_new(dir), 0);  // nothing new
  EXPECT_EQ(window.ingested().size(), 6u);
  // The window holds a suffix of the games: its positions are those of the newest games.
  int64_t suffix = 0;
  size_t first = all.size();
  while (suffix < window.window_positions()) suffix += trainable_positions(all[--first]);
  EXPECT_EQ(suffix, window.window_positions());

  // Restored from a copy of the run's shard directory (a moved or copied run): the same
  // window, and none of the copied shards is read a second time.
  const std::string moved = dir + "-moved";
  fs::remove_all(moved);
  fs::copy(dir, moved);
  ReplayWindow back(spec, rc);
  back.restore(moved, window.ingested(), window.total_positions());
  EXPECT_EQ(back.window_positions(), window.window_positions());
  EXPECT_EQ(back.ingest_new(moved), 0);
  EXPECT_EQ(back.total_positions(), window.total_positions());
  Rng r1(8), r2(8);
  TrainingBatch b1, b2;
  window.sample(32, r1, &b1);
  back.sample(32, r2, &b2);
  EXPECT_EQ(b1.inputs, b2.inputs);
  EXPECT_EQ(b1.policy, b2.policy);
  EXPECT_EQ(b1.value, b2.value);
  fs::remove_all(dir);
  fs::remove_all(moved);
}

// Between good shards, a damaged one and a truncated one are skipped and set aside; the
// window holds exactly the good ones, and a restore skips a shard damaged since.
TEST(ReplayWindow, SkipsAndSetsAsideBadShards) {
  const auto dir = temp_dir("badwindow");
  ReplayConfig rc;
  rc.window_min = 100000;
  rc.window_max = 100000;
  ReplayWindow window(kFixtureSpec, rc);
  const auto name = [](int i) { return fmt::format("shard-{}-t-000000.qxs", 1000000000000 + i); };
  int64_t good_positions = 0, positions_of_0 = 0;
  for (int i : {0, 3}) {
    const auto games = play_games(kFixtureSpec, 3, 40 + i);
    for (const auto& g : games) good_positions += trainable_positions(g);
    if (i == 0) positions_of_0 = good_positions;
    write_shard(dir + "/" + name(i), games);
  }
  write_bytes(dir + "/" + name(1), patched_v1(kAction0, 0x8000, 2));
  const std::string v2 = read_bytes(dir + "/" + name(3));
  write_bytes(dir + "/" + name(2), v2.substr(0, v2.size() - 1));
  testing::internal::CaptureStderr();
  EXPECT_EQ(window.ingest_new(dir), good_positions);
  const std::string warnings = testing::internal::GetCapturedStderr();
  EXPECT_EQ(window.ingested(), (std::vector<std::string>{name(0), name(3)}));
  EXPECT_EQ(window.window_positions(), good_positions);
  for (int i : {1, 2}) {
    EXPECT_FALSE(fs::exists(dir + "/" + name(i)));
    EXPECT_TRUE(fs::exists(dir + "/bad/" + name(i)));
    EXPECT_NE(warnings.find("warning: shard '" + dir + "/" + name(i) + "': "), std::string::npos) << warnings;
  }
  EXPECT_NE(warnings.find("action -32768"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("truncated"), std::string::npos) << warnings;
  EXPECT_EQ(std::count(warnings.begin(), warnings.end(), '\n'), 2) << warnings;
  EXPECT_EQ(window.ingest_new(dir), 0);

  // Damaged after it was read: a resumed run skips it and trains on the other.
  write_bytes(dir + "/" + name(3), v2.substr(0, v2.size() - 1));
  ReplayWindow back(kFixtureSpec, rc);
  testing::internal::CaptureStderr();
  back.restore(dir, window.ingested(), window.total_positions());
  const std::string restore_warnings = testing::internal::GetCapturedStderr();
  EXPECT_NE(restore_warnings.find(name(3)), std::string::npos) << restore_warnings;
  EXPECT_TRUE(fs::exists(dir + "/bad/" + name(3)));
  EXPECT_EQ(back.window_positions(), positions_of_0);
  EXPECT_EQ(back.total_positions(), good_positions);
  fs::remove_all(dir);
}

// prune_shards deletes exactly the shards before the one of the window's oldest game, keeps
// the newest `keep`, and a restore from the pruned directory rebuilds the same window.
TEST(ReplayWindow, PrunesOnlyShardsOutOfTheWindow) {
  const GameSpec spec{Variant::kQuax, 4, true};
  ReplayConfig rc;
  rc.window_min = 150;
  rc.window_max = 150;
  ReplayWindow window(spec, rc);
  const auto dir = temp_dir("prune");
  std::vector<std::string> names;
  std::vector<size_t> shard_of_game;
  std::vector<GameRecord> all;
  for (int shard = 0; shard < 8; ++shard) {
    const auto games = play_games(spec, 4, 200 + shard);
    for (const auto& g : games) {
      all.push_back(g);
      shard_of_game.push_back(shard);
    }
    names.push_back(fmt::format("shard-{}-t-000000.qxs", 1000000000000 + shard));
    write_shard(dir + "/" + names.back(), games);
  }
  window.ingest_new(dir);
  // The window's oldest game, as in the test above.
  int64_t suffix = 0;
  size_t first = all.size();
  while (suffix < window.window_positions()) suffix += trainable_positions(all[--first]);
  const size_t first_shard = shard_of_game[first];
  ASSERT_GE(first_shard, 2u) << "the window should not reach the oldest shards";

  EXPECT_EQ(window.prune_shards(dir, 0), 0);  // 0 keeps all
  EXPECT_EQ(window.prune_shards(dir, 8), 0);
  EXPECT_EQ(window.prune_shards(dir, 7), 1);  // shard 0
  EXPECT_EQ(window.prune_shards(dir, 1), static_cast<int>(first_shard) - 1);
  for (size_t s = 0; s < names.size(); ++s) EXPECT_EQ(fs::exists(dir + "/" + names[s]), s >= first_shard) << s;
  EXPECT_EQ(window.prune_shards(dir, 1), 0);

  ReplayWindow back(spec, rc);
  testing::internal::CaptureStderr();
  back.restore(dir, window.ingested(), window.total_positions());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(back.window_positions(), window.window_positions());
  Rng r1(8), r2(8);
  TrainingBatch b1, b2;
  window.sample(32, r1, &b1);
  back.sample(32, r2, &b2);
  EXPECT_EQ(b1.inputs, b2.inputs);
  EXPECT_EQ(b1.policy, b2.policy);
  fs::remove_all(dir);
}

// replay.root_value_weight w: the value target is (1 - w) * result + w * root value, for the
// same sampled positions.
TEST(ReplayWindow, ValueTargetMixesTheResultWithTheSearchValue) {
  const GameSpec spec{Variant::kQuax, 4, true};
  const auto dir = temp_dir("value_mix");
  write_shard(dir + "/shard-1000000000000-t-000000.qxs", play_games(spec, 8, 21));
  std::vector<TrainingBatch> batches(3);
  const double weights[3] = {0.0, 1.0, 0.25};
  for (int i = 0; i < 3; ++i) {
    ReplayConfig rc;
    rc.root_value_weight = weights[i];
    ReplayWindow window(spec, rc);
    window.ingest_new(dir);
    Rng rng(5);
    window.sample(64, rng, &batches[i]);
  }
  int searched = 0;
  for (int b = 0; b < 64; ++b) {
    const float result = batches[0].value[b], root = batches[1].value[b];
    EXPECT_TRUE(result == 1.0f || result == -1.0f || result == 0.0f);
    if (root != result) ++searched;
    EXPECT_FLOAT_EQ(batches[2].value[b], 0.75f * result + 0.25f * root);
  }
  EXPECT_GT(searched, 32);  // weight 1 gives the search's values, not the results
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quax
