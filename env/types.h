// Basic vocabulary shared by every layer: players, outcomes, variants, game settings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

struct VariantInfo {
  Variant variant;
  const char* name;
  int default_size;
  int min_size;
  int max_size;
  bool even_sizes_only;
  bool swap_by_default;  // the pie rule of docs/RULES.md
  // Sizes must leave this remainder modulo size_modulus (quady: odd, quady2: 4k+1).
  int size_modulus = 1;
  int size_remainder = 0;
};

// Every variant the engine implements, in a fixed order.
const VariantInfo* all_variants(int* count);
const VariantInfo& variant_info(Variant v);
// Lower-case name lookup; nullopt for an unknown name.
std::optional<Variant> parse_variant(std::string_view name);
// "quax, link, ..." for error messages.
std::string variant_list();
// The variant whose rules `v` plays by: link is quax under its first name (docs/RULES.md: the
// same moves, connections and goal; only the default size and pie rule differ), so a model of
// one plays the other. Every other variant is its own.
Variant rules_of(Variant v);

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

// The variant's default size and swap setting.
GameSpec default_spec(Variant v);
// Empty when the spec is playable, else one line saying what is wrong.
std::string check_spec(const GameSpec& spec);
// The playable size of `v` closest to `size` (the larger one of a tie): `size` itself when it
// is playable. For a client that switches variants keeping its board where it can.
int nearest_valid_size(Variant v, int size);
// e.g. "quax 11x11 (swap)".
std::string describe(const GameSpec& spec);

}  // namespace quax
