#include "env/types.h"
#include "env/move_text.h"

#include <algorithm>

namespace quax {

std::string player_name(Player p) {
  switch (p) {
    case Player::kBlack: return "black";
    case Player::kWhite: return "white";
    default: return "none";
  }
}

std::optional<Player> parse_player(std::string_view text) {
  const std::string t = lower_case(text);
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

Variant rules_of(Variant v) {
  const Rules& mine = variant_info(v).rules;
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i)
    if (same_game_rules(all[i].rules, mine)) return all[i].variant;
  return v;
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
  if (spec.swap && info.pie_rule_replaced_by)
    return std::string(info.name) + " has no pie rule (" + info.pie_rule_replaced_by + " replaces it): set swap off";
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

std::string size_text(Variant v, int size) {
  if (variant_info(v).shape == BoardShape::kTriangle) return "side " + std::to_string(size);
  return std::to_string(size) + "x" + std::to_string(size);
}

std::string describe(const GameSpec& spec) {
  return std::string(variant_info(spec.variant).name) + " " + size_text(spec.variant, spec.size) +
         (spec.swap ? " (swap)" : " (no swap)");
}

}  // namespace quax
