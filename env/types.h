// Basic vocabulary shared by every layer: players, outcomes, variants, game settings.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "env/rules.h"

namespace quax {

enum class Player : int8_t { kBlack = 0, kWhite = 1, kNone = -1 };

inline Player opponent(Player p) {
  return p == Player::kBlack ? Player::kWhite : (p == Player::kWhite ? Player::kBlack : Player::kNone);
}
inline int index_of(Player p) { return static_cast<int>(p); }

// "black" / "white" / "none".
std::string player_name(Player p);
// Accepts the aliases of docs/RULES.md section 1 (b, v, vert, x / w, h, horz, o, red, r), any case.
std::optional<Player> parse_player(std::string_view text);

enum class Outcome : int8_t { kOngoing, kBlackWins, kWhiteWins, kDraw };

inline Outcome win_for(Player p) { return p == Player::kBlack ? Outcome::kBlackWins : Outcome::kWhiteWins; }
// The winner of a finished game, or kNone for a draw or an ongoing game.
inline Player winner_of(Outcome o) {
  return o == Outcome::kBlackWins ? Player::kBlack : (o == Outcome::kWhiteWins ? Player::kWhite : Player::kNone);
}
// "black" / "white" / "draw" / "none" (the words of the `winner` protocol command).
std::string outcome_name(Outcome o);

// The variants shipped with the engine, by name, for code that means one of them. The values
// are registry keys (env/game_registry.h): a variant registers its facts and its factory in its
// own file under env/variants/, and a new one may take any unused value without a name here.
enum class Variant : int8_t {
  kQuax,
  kLink,
  kQuickway,
  kCrossway,
  kQuadrex,
  kQuikQuax,  // multi-action turns (env/quikquax_game.h)
  kTorax,     // env/torax_game.h
  kStymie,    // env/stymie_game.h
  // Hexagonal boards (env/hex_game.h); quady2 is quady with the split applied twice.
  kHex,
  kQuadhex,
  kY,
  kQuady,
  kQuady2,
};

// What fixes a game: the variant, the board size and whether the pie rule is on.
struct GameSpec {
  Variant variant = Variant::kQuax;
  int size = 11;
  bool swap = true;

  bool operator==(const GameSpec& o) const {
    return variant == o.variant && size == o.size && swap == o.swap;
  }
  bool operator!=(const GameSpec& o) const { return !(*this == o); }
};

class GameState;

// What a turn is: one action, or several actions by the same player (quikquax's 1-3-4 stones,
// torax's auction, stymie's piece shapes), so that to_move() may stay the same after a ply.
enum class TurnRule : int8_t { kOneAction, kSeveralActions };

// The facts of one variant, derived from its rules when it registers (env/game_registry.h):
// what the engines, checks and layouts read. `rules` is what the variant was made from.
struct VariantInfo {
  Rules rules;
  Variant variant = Variant::kQuax;
  const char* name = "";
  int default_size = 0;
  int min_size = 0;
  int max_size = 0;
  bool even_sizes_only = false;
  bool swap_by_default = false;  // the pie rule of docs/RULES.md
  // Sizes must leave this remainder modulo size_modulus (quady: odd, quady2: 4k+1).
  int size_modulus = 1;
  int size_remainder = 0;
  BoardShape shape = BoardShape::kSquare;
  LinkRule links = LinkRule::kNone;
  TurnRule turns = TurnRule::kOneAction;
  // The opening that replaces the pie rule, for a variant that has none ("the auction"); null
  // when the pie rule may be on.
  const char* pie_rule_replaced_by = nullptr;
  bool can_draw = false;  // a game may end without a winner (crossway)
  // A placement may fill further cells (quadrex's cascade), so one move can shorten a
  // connection by more than one stone.
  bool fill_cascade = false;
  // Quadrant splitting of the hexagonal boards: 0 none, 1 quadrants, 2 quadrants of quadrants.
  int split_depth = 0;
  // A new game at the start. Precondition: check_spec(spec) is empty and spec.variant is this.
  std::unique_ptr<GameState> (*new_game)(const GameSpec& spec) = nullptr;
};

// Every registered variant, in the order of their Variant values.
const VariantInfo* all_variants(int* count);
// The facts of a registered variant. Throws std::logic_error naming the value when `v` is not
// registered (its file was left out of the build).
const VariantInfo& variant_info(Variant v);
// Lower-case name lookup; nullopt for an unknown name.
std::optional<Variant> parse_variant(std::string_view name);
// "quax, link, ..." for error messages.
std::string variant_list();
// The first registered variant (by value) whose rules play the same game as `v`'s
// (same_game_rules): link is quax under its first name, so a model of one plays the other, and
// so is a rules file that changes only quax's sizes or pie rule. Most variants are their own.
Variant rules_of(Variant v);

// The variant's default size and swap setting.
GameSpec default_spec(Variant v);
// Empty when the spec is playable, else one line saying what is wrong.
std::string check_spec(const GameSpec& spec);
// The playable size of `v` closest to `size` (the larger one of a tie): `size` itself when it
// is playable. For a client that switches variants keeping its board where it can.
int nearest_valid_size(Variant v, int size);
// A board of `v` of this size as messages name it: "11x11", or "side 15" for a triangle.
std::string size_text(Variant v, int size);
// e.g. "quax 11x11 (swap)", "y side 15 (swap)".
std::string describe(const GameSpec& spec);

}  // namespace quax
