#include "env/types.h"

#include <algorithm>
#include <cctype>

namespace quax {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

const VariantInfo kVariants[] = {
    {Variant::kQuax, "quax", 11, 3, 26, false, true},
    {Variant::kLink, "link", 8, 3, 26, false, false},
    {Variant::kQuickway, "quickway", 11, 3, 26, false, true},
    {Variant::kCrossway, "crossway", 19, 3, 26, false, true},
    {Variant::kQuadrex, "quadrex", 19, 3, 26, false, true},
    // Quadrants need an even size; the 1-3-4 start replaces the pie rule.
    {Variant::kQuikQuax, "quikquax", 14, 4, 26, true, false},
    // The auction replaces the pie rule.
    {Variant::kTorax, "torax", 9, 3, 26, false, false},
    {Variant::kStymie, "stymie", 8, 3, 12, false, true},
    // Hexagonal boards. Sizes stop at 26 (one letter a column): quady's server range 5..31
    // loses 27..31. quady2: sides 4k+1 (docs/RULES.md), so the sub-triangles split again.
    {Variant::kHex, "hex", 11, 3, 26, false, true},
    {Variant::kQuadhex, "quadhex", 10, 6, 26, true, true},
    {Variant::kY, "y", 15, 3, 26, false, true},
    {Variant::kQuady, "quady", 15, 5, 25, false, true, 2, 1},
    {Variant::kQuady2, "quady2", 17, 5, 25, false, true, 4, 1},
};

}  // namespace

std::string player_name(Player p) {
  switch (p) {
    case Player::kBlack: return "black";
    case Player::kWhite: return "white";
    default: return "none";
  }
}

std::optional<Player> parse_player(std::string_view text) {
  const std::string t = lower(text);
  if (t == "black" || t == "b" || t == "v" || t == "vert" || t == "x") return Player::kBlack;
  if (t == "white" || t == "w" || t == "h" || t == "horz" || t == "o" || t == "red" || t == "r")
    return Player::kWhite;
  return std::nullopt;
}

std::string outcome_name(Outcome o) {
  switch (o) {
    case Outcome::kBlackWins: return "black";
    case Outcome::kWhiteWins: return "white";
    case Outcome::kDraw: return "draw";
    default: return "none";
  }
}

const VariantInfo* all_variants(int* count) {
  *count = static_cast<int>(sizeof(kVariants) / sizeof(kVariants[0]));
  return kVariants;
}

const VariantInfo& variant_info(Variant v) {
  for (const auto& info : kVariants)
    if (info.variant == v) return info;
  return kVariants[0];
}

std::optional<Variant> parse_variant(std::string_view name) {
  const std::string n = lower(name);
  for (const auto& info : kVariants)
    if (n == info.name) return info.variant;
  return std::nullopt;
}

Variant rules_of(Variant v) { return v == Variant::kLink ? Variant::kQuax : v; }

std::string variant_list() {
  std::string out;
  for (const auto& info : kVariants) {
    if (!out.empty()) out += ", ";
    out += info.name;
  }
  return out;
}

GameSpec default_spec(Variant v) {
  const auto& info = variant_info(v);
  return GameSpec{v, info.default_size, info.swap_by_default};
}

std::string check_spec(const GameSpec& spec) {
  const auto& info = variant_info(spec.variant);
  if (spec.size < info.min_size || spec.size > info.max_size)
    return "size " + std::to_string(spec.size) + " is out of range for " + info.name + " (" +
           std::to_string(info.min_size) + ".." + std::to_string(info.max_size) + ")";
  if (info.even_sizes_only && spec.size % 2 != 0)
    return std::string(info.name) + " needs an even size, not " + std::to_string(spec.size);
  // Their openings replace the pie rule: these engines have no swap action to offer.
  if (spec.swap && (spec.variant == Variant::kQuikQuax || spec.variant == Variant::kTorax))
    return std::string(info.name) + " has no pie rule (" +
           (spec.variant == Variant::kTorax ? "the auction" : "the 1-3-4 start") + " replaces it): set swap off";
  if (spec.size % info.size_modulus != info.size_remainder)
    return std::string(info.name) + " needs a size of the form " + std::to_string(info.size_modulus) + "k+" +
           std::to_string(info.size_remainder) + ", not " + std::to_string(spec.size);
  return "";
}

int nearest_valid_size(Variant v, int size) {
  const auto& info = variant_info(v);
  // The pie rule plays no part in the size rules: check sizes without it.
  auto playable = [&](int n) { return check_spec(GameSpec{v, n, false}).empty(); };
  const int from = std::clamp(size, info.min_size, info.max_size);
  for (int step = 0; step <= info.max_size - info.min_size; ++step) {
    if (from + step <= info.max_size && playable(from + step)) return from + step;
    if (from - step >= info.min_size && playable(from - step)) return from - step;
  }
  return info.default_size;
}

std::string describe(const GameSpec& spec) {
  const bool triangle = spec.variant == Variant::kY || spec.variant == Variant::kQuady || spec.variant == Variant::kQuady2;
  const std::string board = triangle ? "side " + std::to_string(spec.size)
                                     : std::to_string(spec.size) + "x" + std::to_string(spec.size);
  return std::string(variant_info(spec.variant).name) + " " + board + (spec.swap ? " (swap)" : " (no swap)");
}

}  // namespace quax
