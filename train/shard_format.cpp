#include "train/shard_format.h"

#include <fmt/format.h>
#include <xxhash.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "env/game_registry.h"
#include "env/game_state.h"
#include "rules/rules_file.h"

namespace quax {

namespace {

constexpr char kMagic[4] = {'Q', 'X', 'S', 'H'};
constexpr size_t kV2HeaderBytes = 4 + 4 + 8 + 8;  // versions 2 and 3
constexpr uint32_t kFirstVersionWithRules = 3;
// The smallest encodings, for checking counts against the bytes left.
constexpr size_t kGameBytes = 8 + 1 + 1 + 1 + 1 + 4 + 4;
constexpr size_t kMoveBytes = 2 + 1 + 1 + 4 + 4 + 4;
constexpr size_t kPolicyEntryBytes = 2 + 4;

enum Flag : uint8_t { kTruncated = 1, kResigned = 2, kResignDisabled = 4, kWouldHaveResigned = 8 };
constexpr uint8_t kAllFlags = kTruncated | kResigned | kResignDisabled | kWouldHaveResigned;

uint64_t checksum(const char* data, size_t size) { return XXH3_64bits(data, size); }

class ByteWriter {
 public:
  void unsigned_le(uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
  }
  void u8(uint8_t v) { unsigned_le(v, 1); }
  void u16(uint16_t v) { unsigned_le(v, 2); }
  void u32(uint32_t v) { unsigned_le(v, 4); }
  void u64(uint64_t v) { unsigned_le(v, 8); }
  void i8(int8_t v) { u8(static_cast<uint8_t>(v)); }
  void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
  void i64(int64_t v) { u64(static_cast<uint64_t>(v)); }
  void f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u32(bits);
  }
  void text(const std::string& s) { out += s; }
  std::string out;
};

// Range checks of the writer: a value that does not fit its field is a bug upstream, not a
// shard to write.
uint32_t count_field(size_t n, const char* what) {
  if (n > std::numeric_limits<uint32_t>::max()) throw std::runtime_error(fmt::format("too many {}: {}", what, n));
  return static_cast<uint32_t>(n);
}
uint16_t action_field(int a) {
  if (a < 0 || a > std::numeric_limits<uint16_t>::max())
    throw std::runtime_error(fmt::format("action {} does not fit a shard's 16 bits", a));
  return static_cast<uint16_t>(a);
}

std::string encode_payload(const std::vector<GameRecord>& games) {
  ByteWriter w;
  const GameSpec spec = games.empty() ? GameSpec{} : games.front().spec;
  w.u8(static_cast<uint8_t>(spec.variant));
  w.u8(static_cast<uint8_t>(spec.size));
  w.u8(spec.swap ? 1 : 0);
  w.u8(0);
  const std::string rules = rules_text(variant_info(spec.variant).rules);
  if (rules.size() > std::numeric_limits<uint16_t>::max()) throw std::runtime_error("rules too long for a shard");
  w.u16(static_cast<uint16_t>(rules.size()));
  w.text(rules);
  w.u32(count_field(games.size(), "games"));
  for (const auto& g : games) {
    if (g.spec != spec) throw std::runtime_error("games of different specs in one shard");
    w.i64(g.game_index);
    w.u8(static_cast<uint8_t>(g.outcome));
    w.u8(static_cast<uint8_t>((g.truncated ? kTruncated : 0) | (g.resigned ? kResigned : 0) |
                              (g.resign_disabled ? kResignDisabled : 0) |
                              (g.would_have_resigned ? kWouldHaveResigned : 0)));
    w.i8(static_cast<int8_t>(g.resigner));
    w.i8(static_cast<int8_t>(g.would_resign_player));
    w.i32(g.would_resign_move);
    w.u32(count_field(g.moves.size(), "moves"));
    for (const auto& m : g.moves) {
      w.u16(action_field(m.action));
      w.i8(static_cast<int8_t>(m.mover));
      w.u8(m.full_search ? 1 : 0);
      w.f32(m.root_value);
      w.i32(m.simulations);
      w.u32(count_field(m.policy.size(), "policy entries"));
      for (const auto& [a, p] : m.policy) {
        w.u16(action_field(a));
        w.f32(p);
      }
    }
  }
  return std::move(w.out);
}

// Precondition: pos + n <= bytes.size().
uint64_t read_le(const std::string& bytes, size_t pos, int n) {
  uint64_t v = 0;
  for (int i = 0; i < n; ++i) v |= static_cast<uint64_t>(static_cast<uint8_t>(bytes[pos + i])) << (8 * i);
  return v;
}

bool is_player(int v) { return v == static_cast<int>(Player::kBlack) || v == static_cast<int>(Player::kWhite); }

// Decodes the payload of either version and checks it (see decode_shard). Errors carry the
// game and move being read.
class PayloadDecoder {
 public:
  PayloadDecoder(const std::string& bytes, size_t begin, uint32_t version, const GameSpec& spec)
      : bytes_(bytes), pos_(begin), version_(version), spec_(spec) {}

  std::vector<GameRecord> decode() {
    read_spec();
    if (version_ >= kFirstVersionWithRules) read_rules();
    state_ = new_game(spec_);
    actions_ = state_->num_actions();
    net_mask_.resize(static_cast<size_t>(actions_));
    const uint32_t count = u32();
    check_count(count, kGameBytes, "games");
    std::vector<GameRecord> games(count);
    for (game_ = 0; game_ < static_cast<int64_t>(count); ++game_) read_game(&games[game_]);
    game_ = -1;
    if (pos_ != bytes_.size()) fail(fmt::format("{} bytes after the last game", bytes_.size() - pos_));
    return games;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    std::string where;
    if (game_ >= 0) where = fmt::format("game {}", game_);
    if (game_ >= 0 && move_ >= 0) where += fmt::format(", move {}", move_);
    throw std::runtime_error(where.empty() ? what : where + ": " + what);
  }

  uint64_t unsigned_le(int n) {
    if (bytes_.size() - pos_ < static_cast<size_t>(n)) fail("truncated");
    const uint64_t v = read_le(bytes_, pos_, n);
    pos_ += n;
    return v;
  }
  uint8_t u8() { return static_cast<uint8_t>(unsigned_le(1)); }
  uint16_t u16() { return static_cast<uint16_t>(unsigned_le(2)); }
  uint32_t u32() { return static_cast<uint32_t>(unsigned_le(4)); }
  int8_t i8() { return static_cast<int8_t>(u8()); }
  int16_t i16() { return static_cast<int16_t>(u16()); }
  int32_t i32() { return static_cast<int32_t>(u32()); }
  int64_t i64() { return static_cast<int64_t>(unsigned_le(8)); }
  float f32() {
    const uint32_t bits = u32();
    float v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }

  // A count of items of at least `item_bytes` each must fit in the bytes left.
  void check_count(uint64_t count, size_t item_bytes, const char* what) const {
    const uint64_t left = bytes_.size() - pos_;
    if (count > left / item_bytes)
      fail(fmt::format("truncated: {} {} need at least {} bytes, {} are left", count, what, count * item_bytes, left));
  }

  void read_spec() {
    const uint8_t variant = u8(), size = u8(), swap = u8(), reserved = u8();
    // Writers put 0 there: anything else is damage (or a format this program does not know).
    if (reserved != 0) fail(fmt::format("reserved byte {} is not 0", reserved));
    if (!is_registered(static_cast<Variant>(variant))) fail(fmt::format("unknown variant {}", variant));
    if (swap > 1) fail(fmt::format("swap flag {} is neither 0 nor 1", swap));
    const GameSpec found{static_cast<Variant>(variant), size, swap == 1};
    const std::string unplayable = check_spec(found);
    if (!unplayable.empty()) fail("holds games of no playable spec: " + unplayable);
    if (found != spec_) fail(fmt::format("holds games of {}, this run is {}", describe(found), describe(spec_)));
  }

  // The games must have been played under the same game as spec_'s variant here (names, sizes
  // and the default pie rule aside): a rules file edited during a run changes what its
  // variant's number means.
  void read_rules() {
    const uint16_t length = u16();
    check_count(length, 1, "bytes of rules");
    const std::string text = bytes_.substr(pos_, length);
    pos_ += length;
    const Rules& here = variant_info(spec_.variant).rules;
    Rules written;
    try {
      written = parse_rules(text, "rules");
    } catch (const RulesFileError& e) {
      fail(std::string("its ") + e.what());
    }
    if (!same_game_rules(written, here)) {
      written.name = here.name;  // so that the difference names a rule, not the name
      fail(fmt::format("played under other rules than {} here (the shard's {})", here.name,
                       rules_difference(written, here)));
    }
  }

  void read_game(GameRecord* g) {
    g->spec = spec_;
    g->game_index = i64();
    const uint8_t outcome = u8(), flags = u8();
    const int8_t resigner = i8(), would_resign_player = i8();
    g->would_resign_move = i32();
    const uint32_t moves = u32();
    if (outcome != static_cast<uint8_t>(Outcome::kBlackWins) && outcome != static_cast<uint8_t>(Outcome::kWhiteWins) &&
        outcome != static_cast<uint8_t>(Outcome::kDraw))
      fail(fmt::format("outcome {} is not a finished game's", outcome));
    g->outcome = static_cast<Outcome>(outcome);
    if (flags & ~kAllFlags) fail(fmt::format("unknown flags {:#x}", flags));
    g->truncated = flags & kTruncated;
    g->resigned = flags & kResigned;
    g->resign_disabled = flags & kResignDisabled;
    g->would_have_resigned = flags & kWouldHaveResigned;
    g->resigner = static_cast<Player>(resigner);
    g->would_resign_player = static_cast<Player>(would_resign_player);
    check_count(moves, kMoveBytes, "moves");
    check_result_fields(*g, moves, resigner, would_resign_player);

    state_ = new_game(spec_);
    g->moves.resize(moves);
    for (move_ = 0; move_ < static_cast<int64_t>(moves); ++move_) read_move(&g->moves[move_]);
    move_ = -1;
  }

  void check_result_fields(const GameRecord& g, uint32_t moves, int resigner, int would_resign_player) const {
    if (g.truncated && g.resigned) fail("both truncated and resigned");
    if (g.truncated && g.outcome != Outcome::kDraw) fail("truncated but not a draw");
    if (g.resigned) {
      if (!is_player(resigner)) fail(fmt::format("resigned, but the resigner is {}", resigner));
      if (g.outcome != win_for(opponent(g.resigner))) fail("the resigner's opponent is not the winner");
    } else if (g.resigner != Player::kNone) {
      fail(fmt::format("a resigner ({}) but no resignation", resigner));
    }
    if (g.would_have_resigned) {
      if (!g.resign_disabled) fail("would have resigned, but resignation was not disabled");
      if (!is_player(would_resign_player))
        fail(fmt::format("would have resigned, but the player is {}", would_resign_player));
      if (g.would_resign_move < 0 || static_cast<uint32_t>(g.would_resign_move) > moves)
        fail(fmt::format("would have resigned at move {} of {}", g.would_resign_move, moves));
    } else if (g.would_resign_player != Player::kNone || g.would_resign_move != -1) {
      fail("a would-be resignation without the flag");
    }
  }

  void read_move(MoveRecord* m) {
    const int action = version_ == 1 ? i16() : u16();
    const int8_t mover = i8();
    const uint8_t full_search = u8();
    m->root_value = f32();
    m->simulations = i32();
    const uint32_t entries = u32();
    if (action < 0 || action >= actions_)
      fail(fmt::format("action {} is not one of the {} actions of {}", action, actions_, describe(spec_)));
    m->action = action;
    if (state_->is_over()) fail("a move after the end of the game");
    if (mover != static_cast<int8_t>(state_->to_move()))
      fail(fmt::format("mover {}, but {} is to move", mover, player_name(state_->to_move())));
    m->mover = static_cast<Player>(mover);
    if (full_search > 1) fail(fmt::format("full-search flag {} is neither 0 nor 1", full_search));
    m->full_search = full_search == 1;
    if (!std::isfinite(m->root_value)) fail(fmt::format("root value {} is not finite", m->root_value));
    if (m->simulations < 0) fail(fmt::format("{} simulations", m->simulations));
    if (entries > 0 && !m->full_search) fail("a policy on a move without a full search");
    if (entries > static_cast<uint32_t>(actions_))
      fail(fmt::format("{} policy entries for {} actions", entries, actions_));
    check_count(entries, kPolicyEntryBytes, "policy entries");
    read_policy(entries, &m->policy);
    const std::string why = state_->why_illegal(action);
    if (!why.empty()) fail(fmt::format("action {} is illegal: {}", action, why));
    state_->apply(action);
  }

  void read_policy(uint32_t entries, std::vector<std::pair<int, float>>* policy) {
    if (entries > 0) state_->net_legal_mask(net_mask_.data());
    policy->resize(entries);
    double sum = 0;
    int previous = -1;
    for (auto& [a, p] : *policy) {
      a = u16();
      p = f32();
      if (a >= actions_ || !net_mask_[a])
        fail(fmt::format("policy entry for action {}, not a legal network-frame action here", a));
      if (a <= previous) fail(fmt::format("policy entries out of order ({} after {})", a, previous));
      if (!(p >= 0.0f && p <= 1.0f)) fail(fmt::format("policy probability {} for action {} is not in [0, 1]", p, a));
      previous = a;
      sum += p;
    }
    if (entries > 0 && std::abs(sum - 1.0) > 1e-3) fail(fmt::format("policy probabilities sum to {}", sum));
  }

  const std::string& bytes_;
  size_t pos_;
  uint32_t version_;
  GameSpec spec_;
  std::unique_ptr<GameState> state_;
  int actions_ = 0;
  std::vector<uint8_t> net_mask_;
  int64_t game_ = -1, move_ = -1;
};

}  // namespace

std::string encode_shard(const std::vector<GameRecord>& games) {
  const std::string payload = encode_payload(games);
  ByteWriter header;
  header.out.assign(kMagic, sizeof kMagic);
  header.u32(kShardFormatVersion);
  header.u64(payload.size());
  header.u64(checksum(payload.data(), payload.size()));
  return header.out + payload;
}

std::vector<GameRecord> decode_shard(const std::string& bytes, const GameSpec& spec) {
  if (bytes.size() < 8 || bytes.compare(0, 4, kMagic, 4) != 0) throw std::runtime_error("not a shard (no QXSH magic)");
  const auto version = static_cast<uint32_t>(read_le(bytes, 4, 4));
  if (version == 1) return PayloadDecoder(bytes, 8, version, spec).decode();
  if (version < 1 || version > kShardFormatVersion)
    throw std::runtime_error(
        fmt::format("format version {}, this program reads 1 to {}", version, kShardFormatVersion));
  if (bytes.size() < kV2HeaderBytes) throw std::runtime_error("truncated in the header");
  const uint64_t payload_bytes = read_le(bytes, 8, 8);
  const uint64_t expected = read_le(bytes, 16, 8);
  const uint64_t present = bytes.size() - kV2HeaderBytes;
  if (present < payload_bytes)
    throw std::runtime_error(fmt::format("truncated: {} of {} payload bytes", present, payload_bytes));
  if (present > payload_bytes)
    throw std::runtime_error(fmt::format("{} bytes after the {}-byte payload", present - payload_bytes, payload_bytes));
  if (checksum(bytes.data() + kV2HeaderBytes, payload_bytes) != expected)
    throw std::runtime_error("checksum mismatch: the payload is damaged");
  return PayloadDecoder(bytes, kV2HeaderBytes, version, spec).decode();
}

std::optional<GameSpec> decode_shard_spec(const std::string& head) {
  if (head.size() < 8 || head.compare(0, 4, kMagic, 4) != 0) return std::nullopt;
  const auto version = static_cast<uint32_t>(read_le(head, 4, 4));
  const size_t at = version == 1 ? 8 : (version <= kShardFormatVersion ? kV2HeaderBytes : head.size());
  if (head.size() < at + 3) return std::nullopt;
  const auto variant = static_cast<uint8_t>(head[at]), size = static_cast<uint8_t>(head[at + 1]),
             swap = static_cast<uint8_t>(head[at + 2]);
  if (!is_registered(static_cast<Variant>(variant)) || swap > 1) return std::nullopt;
  const GameSpec spec{static_cast<Variant>(variant), size, swap == 1};
  if (!check_spec(spec).empty()) return std::nullopt;
  return spec;
}

}  // namespace quax
