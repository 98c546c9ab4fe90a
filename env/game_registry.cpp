#include "env/game_registry.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "env/game_state.h"
#include "env/hex_game.h"
#include "env/move_text.h"
#include "env/quikquax_game.h"
#include "env/square_game.h"
#include "env/stymie_game.h"
#include "env/torax_game.h"

namespace quax {

namespace {

constexpr int kMaxVariants = 128;  // the values of an int8_t Variant

// Readers take no lock: the vector's storage is reserved once, so it never moves, and a
// variant registered at run time goes after the others (its value is the largest) and is
// published by `count` only once written. Registrations at start-up keep the vector sorted by
// value whatever order the linker runs them in; they end before main().
struct Registry {
  std::vector<VariantInfo> games;
  std::atomic<int> count{0};
  std::mutex writing;
  std::deque<std::string> strings;  // what names and openings point into: never moves

  Registry() { games.reserve(kMaxVariants); }
  const char* keep(const std::string& s) { return strings.emplace_back(s).c_str(); }
};

// Built on first use: registrations run in whatever order the linker put their files in.
Registry& registry() {
  static Registry r;
  return r;
}

template <class G>
std::unique_ptr<GameState> make_game(const GameSpec& spec) {
  return std::make_unique<G>(spec);
}

decltype(VariantInfo::new_game) game_class(const VariantInfo& f) {
  switch (f.shape) {
    case BoardShape::kSquare:
      return f.turns == TurnRule::kOneAction ? make_game<SquareGame> : make_game<QuikQuaxGame>;
    case BoardShape::kTorus: return make_game<ToraxGame>;
    case BoardShape::kOctagons: return make_game<StymieGame>;
    case BoardShape::kRhombus:
    case BoardShape::kTriangle: return make_game<HexGame>;
  }
  return nullptr;
}

// "the 1-3-4 start" for turns of 1, 3, then 4 stones.
std::string schedule_start(const std::vector<int>& counts) {
  std::string out;
  for (int c : counts) out += (out.empty() ? "" : "-") + std::to_string(c);
  return "the " + out + " start";
}

std::string why_not_registrable(const Registry& reg, int count, Variant value, const Rules& rules) {
  const std::string why = check_rules(rules);
  if (!why.empty()) return why;
  for (int i = 0; i < count; ++i) {
    const VariantInfo& other = reg.games[i];
    if (other.variant == value) return std::string("the value is taken by ") + other.name;
    if (rules.name == other.name) return "the name '" + rules.name + "' is registered with other rules";
  }
  return "";
}

// The facts and game class that `rules` give a variant registered as `value`.
// Precondition: check_rules(rules) is empty.
VariantInfo facts_from_rules(Registry& reg, Variant value, const Rules& rules) {
  VariantInfo v;
  v.rules = rules;
  v.variant = value;
  v.name = reg.keep(rules.name);
  v.default_size = rules.default_size;
  v.min_size = rules.min_size;
  v.max_size = rules.max_size;
  v.swap_by_default = rules.pie_rule;
  const bool several_stones = rules.stones_per_turn != std::vector<int>{1};
  switch (rules.board) {
    case Tiling::kSquare: v.shape = rules.wrap == Wrap::kTorus ? BoardShape::kTorus : BoardShape::kSquare; break;
    case Tiling::kOctagons: v.shape = BoardShape::kOctagons; break;
    case Tiling::kHexRhombus: v.shape = BoardShape::kRhombus; break;
    case Tiling::kHexTriangle: v.shape = BoardShape::kTriangle; break;
  }
  v.links = rules.diagonal;
  v.fill_cascade = rules.fourth_point == FourthPoint::kImposed;
  v.can_draw = rules.fourth_point == FourthPoint::kForbidden;  // crossway: when neither can place
  // Torax's auction (blocks, then end), stymie's piece shapes, several stones a turn.
  v.turns = several_stones || v.shape == BoardShape::kTorus || v.shape == BoardShape::kOctagons
                ? TurnRule::kSeveralActions
                : TurnRule::kOneAction;
  if (v.shape == BoardShape::kTorus) v.pie_rule_replaced_by = reg.keep("the auction");
  if (several_stones) v.pie_rule_replaced_by = reg.keep(schedule_start(rules.stones_per_turn));
  v.split_depth = rules.goal == Goal::kQuadrants ? 1 : rules.goal == Goal::kQuadrantsOfQuadrants ? 2 : 0;
  // Four equal quadrants need an even side; the triangle's split needs 2k+1, twice 4k+1.
  v.even_sizes_only = rules.one_stone_per_quadrant || (v.shape == BoardShape::kRhombus && v.split_depth > 0);
  if (v.shape == BoardShape::kTriangle && v.split_depth > 0) {
    v.size_modulus = v.split_depth == 1 ? 2 : 4;
    v.size_remainder = 1;
  }
  v.new_game = game_class(v);
  return v;
}

}  // namespace

GameRegistration::GameRegistration(Variant value, const Rules& rules) {
  Registry& reg = registry();
  const int count = reg.count.load();
  std::string why = why_not_registrable(reg, count, value, rules);
  if (why.empty()) {
    // Sorted by value: all_variants() lists them in a fixed order whatever the link order.
    const VariantInfo facts = facts_from_rules(reg, value, rules);
    reg.games.insert(std::upper_bound(reg.games.begin(), reg.games.end(), facts,
                                      [](const VariantInfo& a, const VariantInfo& b) { return a.variant < b.variant; }),
                     facts);
    reg.count.store(count + 1);
    why = check_spec(default_spec(value));
    if (!why.empty()) why = "its default game is not playable: " + why;
  }
  if (!why.empty()) {
    std::fprintf(stderr, "game registry: variant %d ('%s'): %s\n", static_cast<int>(value), rules.name.c_str(),
                 why.c_str());
    std::abort();
  }
}

Variant register_rules(const Rules& rules) {
  Registry& reg = registry();
  std::lock_guard<std::mutex> lock(reg.writing);
  const int count = reg.count.load();
  for (int i = 0; i < count; ++i)
    if (reg.games[i].rules == rules) return reg.games[i].variant;
  const int value = count == 0 ? 0 : static_cast<int>(reg.games[count - 1].variant) + 1;
  if (value >= kMaxVariants)
    throw std::invalid_argument("variant '" + rules.name + "': no variant value is left (" +
                                std::to_string(kMaxVariants) + " at most)");
  const std::string why = why_not_registrable(reg, count, static_cast<Variant>(value), rules);
  if (!why.empty()) throw std::invalid_argument("variant '" + rules.name + "': " + why);
  reg.games.push_back(facts_from_rules(reg, static_cast<Variant>(value), rules));
  reg.count.store(count + 1, std::memory_order_release);
  return static_cast<Variant>(value);
}

const VariantInfo* all_variants(int* count) {
  Registry& reg = registry();
  *count = reg.count.load(std::memory_order_acquire);
  return reg.games.data();
}

bool is_registered(Variant v) {
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i)
    if (all[i].variant == v) return true;
  return false;
}

const VariantInfo& variant_info(Variant v) {
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i)
    if (all[i].variant == v) return all[i];
  throw std::logic_error("variant " + std::to_string(static_cast<int>(v)) +
                         " is not registered (is its file under env/variants/ in the build?)");
}

std::optional<Variant> parse_variant(std::string_view name) {
  const std::string n = lower_case(name);
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i)
    if (n == all[i].name) return all[i].variant;
  return std::nullopt;
}

std::string variant_list() {
  std::string out;
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i) out += (out.empty() ? "" : ", ") + std::string(all[i].name);
  return out;
}

std::unique_ptr<GameState> new_game(const GameSpec& spec) { return variant_info(spec.variant).new_game(spec); }

}  // namespace quax
