#include "env/game_registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "env/game_state.h"
#include "env/move_text.h"

namespace quax {

namespace {

// Built on first use: registrations run in whatever order the linker put their files in.
std::vector<VariantInfo>& registry() {
  static std::vector<VariantInfo> games;
  return games;
}

[[noreturn]] void refuse(const VariantInfo& facts, const std::string& why) {
  std::fprintf(stderr, "game registry: variant %d ('%s'): %s\n", static_cast<int>(facts.variant),
               facts.name ? facts.name : "", why.c_str());
  std::abort();
}

}  // namespace

VariantInfo basic_facts(Variant variant, const char* name, BoardShape shape, int default_size, int min_size,
                        int max_size, GameFactory factory) {
  VariantInfo v;
  v.variant = variant;
  v.name = name;
  v.shape = shape;
  v.default_size = default_size;
  v.min_size = min_size;
  v.max_size = max_size;
  v.new_game = factory;
  return v;
}

GameRegistration::GameRegistration(const VariantInfo& facts) {
  auto& games = registry();
  if (facts.name == nullptr || *facts.name == '\0' || lower_case(facts.name) != facts.name)
    refuse(facts, "the name must be a non-empty lower-case word");
  if (facts.new_game == nullptr) refuse(facts, "no factory");
  if (facts.min_size < 1 || facts.min_size > facts.max_size || facts.size_modulus < 1)
    refuse(facts, "an empty size range");
  for (const VariantInfo& other : games) {
    if (other.variant == facts.variant) refuse(facts, std::string("the value is taken by ") + other.name);
    if (std::string(other.name) == facts.name) refuse(facts, "the name is registered twice");
  }
  // Sorted by value: all_variants() lists them in a fixed order whatever the link order.
  games.insert(std::upper_bound(games.begin(), games.end(), facts,
                                [](const VariantInfo& a, const VariantInfo& b) { return a.variant < b.variant; }),
               facts);
  const std::string why = check_spec(default_spec(facts.variant));
  if (!why.empty()) refuse(facts, "its default game is not playable: " + why);
}

const VariantInfo* all_variants(int* count) {
  *count = static_cast<int>(registry().size());
  return registry().data();
}

bool is_registered(Variant v) {
  for (const VariantInfo& info : registry())
    if (info.variant == v) return true;
  return false;
}

const VariantInfo& variant_info(Variant v) {
  for (const VariantInfo& info : registry())
    if (info.variant == v) return info;
  throw std::logic_error("variant " + std::to_string(static_cast<int>(v)) +
                         " is not registered (is its file under env/variants/ in the build?)");
}

std::optional<Variant> parse_variant(std::string_view name) {
  const std::string n = lower_case(name);
  for (const VariantInfo& info : registry())
    if (n == info.name) return info.variant;
  return std::nullopt;
}

std::string variant_list() {
  std::string out;
  for (const VariantInfo& info : registry()) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

std::unique_ptr<GameState> new_game(const GameSpec& spec) { return variant_info(spec.variant).new_game(spec); }

}  // namespace quax
