// The registry of games (env/game_registry.h): every shipped variant is registered (none was
// left out by the linker), the facts each variant registers agree with how its game plays,
// and a variant registered from this file alone (`tinyhex`) is a whole game everywhere the
// registry reaches: names, sizes, new_game(), records, layouts.
//
// A program of its own (tests/CMakeLists.txt): the env tests loop over all_variants(), which
// here holds tinyhex too.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "env/board_layout.h"
#include "env/game_registry.h"
#include "env/game_state.h"
#include "env/hex_game.h"
#include "env/notation.h"
#include "env/rng.h"

namespace quax {
namespace {

// --- The example variant: everything a new variant needs, in one place ----------------------
// Hex on rhombi of side 3 to 6 without the pie rule; a value no shipped variant has.
constexpr Variant kTinyHex = static_cast<Variant>(100);

Rules tinyhex_rules() {
  Rules r;
  r.name = "tinyhex";
  r.board = Tiling::kHexRhombus;
  r.pie_rule = false;
  r.default_size = 4;
  r.min_size = 3;
  r.max_size = 6;
  return r;
}

const GameRegistration tinyhex_registered(kTinyHex, tinyhex_rules());

// --- Every shipped variant is registered, under its name, in the order of its value ---------

TEST(GameRegistry, EveryShippedVariantIsRegistered) {
  const std::vector<std::pair<Variant, std::string>> shipped = {
      {Variant::kQuax, "quax"},         {Variant::kLink, "link"},       {Variant::kQuickway, "quickway"},
      {Variant::kCrossway, "crossway"}, {Variant::kQuadrex, "quadrex"}, {Variant::kQuikQuax, "quikquax"},
      {Variant::kTorax, "torax"},       {Variant::kStymie, "stymie"},   {Variant::kHex, "hex"},
      {Variant::kQuadhex, "quadhex"},   {Variant::kY, "y"},             {Variant::kQuady, "quady"},
      {Variant::kQuady2, "quady2"}};
  for (const auto& [variant, name] : shipped) {
    const VariantInfo& info = variant_info(variant);  // throws when the file was left out
    EXPECT_EQ(info.variant, variant);
    EXPECT_EQ(info.name, name);
    EXPECT_EQ(parse_variant(name), variant) << name;
  }
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  ASSERT_EQ(count, static_cast<int>(shipped.size()) + 1);  // and tinyhex
  for (int i = 0; i + 1 < count; ++i) EXPECT_LT(all[i].variant, all[i + 1].variant);
  EXPECT_EQ(variant_list(),
            "quax, link, quickway, crossway, quadrex, quikquax, torax, stymie, hex, quadhex, y, quady, quady2, tinyhex");
}

TEST(GameRegistry, AnUnregisteredValueIsAnError) {
  EXPECT_FALSE(is_registered(static_cast<Variant>(99)));
  EXPECT_TRUE(is_registered(kTinyHex));
  EXPECT_THROW(variant_info(static_cast<Variant>(99)), std::logic_error);
  EXPECT_THROW(new_game(GameSpec{static_cast<Variant>(99), 5, false}), std::logic_error);
  EXPECT_EQ(parse_variant("nosuchgame"), std::nullopt);
}

// --- The registered facts agree with the games ------------------------------------------------

struct Observed {
  bool links = false;         // some game ended with links on the board
  bool draw = false;          // some game was drawn
  bool same_mover = false;    // some ply left the same player to move
  bool alternation = false;   // some ply passed the turn
};

Observed play_random_games(const GameSpec& spec, int games, uint64_t seed) {
  Observed seen;
  Rng rng(seed);
  std::vector<int> legal;
  for (int g = 0; g < games; ++g) {
    auto state = new_game(spec);
    while (!state->is_over()) {
      const Player mover = state->to_move();
      state->legal_actions(&legal);
      if (legal.empty()) {
        ADD_FAILURE() << "no legal action in an unfinished game of " << describe(spec);
        return seen;
      }
      state->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      if (state->is_over()) break;
      (state->to_move() == mover ? seen.same_mover : seen.alternation) = true;
    }
    seen.draw |= state->outcome() == Outcome::kDraw;
    seen.links |= !state->links_of(Player::kBlack).empty() || !state->links_of(Player::kWhite).empty();
  }
  return seen;
}

TEST(GameRegistry, FactsAgreeWithPlay) {
  int count = 0;
  const VariantInfo* all = all_variants(&count);
  for (int i = 0; i < count; ++i) {
    const VariantInfo& info = all[i];
    SCOPED_TRACE(info.name);
    GameSpec spec = default_spec(info.variant);
    spec.size = nearest_valid_size(info.variant, 6);  // small boards: quick games
    ASSERT_EQ(check_spec(spec), "");
    EXPECT_EQ(new_game(spec)->spec(), spec);
    // Crossway's draws need a full board without a checkerboard: too rare to wait for at
    // random; the other direction (no draws where the facts rule them out) is checked.
    const Observed seen = play_random_games(spec, 30, 7 + i);
    if (!info.can_draw) {
      EXPECT_FALSE(seen.draw);
    }
    EXPECT_EQ(seen.links, info.links == LinkRule::kChosen || info.links == LinkRule::kAutomatic);
    EXPECT_EQ(seen.same_mover, info.turns == TurnRule::kSeveralActions);
    EXPECT_TRUE(seen.alternation);
    // The pie rule: refused exactly where an opening replaces it.
    EXPECT_EQ(check_spec(GameSpec{info.variant, spec.size, true}).empty(), info.pie_rule_replaced_by == nullptr);
    // The shape the registry names is the one drawn.
    const BoardLayout layout = board_layout(spec);
    ASSERT_FALSE(layout.items.empty());
    const size_t corners = layout.items[0].polygon.size();
    switch (info.shape) {
      case BoardShape::kSquare: EXPECT_EQ(corners, 4u); break;
      case BoardShape::kTorus: EXPECT_TRUE(layout.wrap); break;
      case BoardShape::kOctagons: EXPECT_EQ(corners, 8u); break;
      case BoardShape::kRhombus:
      case BoardShape::kTriangle: EXPECT_EQ(corners, 6u); break;
    }
    EXPECT_EQ(describe(spec).find("side") != std::string::npos, info.shape == BoardShape::kTriangle);
    // Link is quax under its first name, tinyhex is hex on small boards: models are shared.
    const Variant same_game =
        info.variant == Variant::kLink ? Variant::kQuax : info.variant == kTinyHex ? Variant::kHex : info.variant;
    EXPECT_EQ(rules_of(info.variant), same_game);
  }
}

// --- The example variant is a game like any other ----------------------------------------------

TEST(GameRegistry, AVariantFromOneFileIsAWholeGame) {
  EXPECT_EQ(parse_variant("TinyHex"), kTinyHex);
  EXPECT_EQ(describe(default_spec(kTinyHex)), "tinyhex 4x4 (no swap)");
  EXPECT_EQ(check_spec(GameSpec{kTinyHex, 7, false}), "size 7 is out of range for tinyhex (3..6)");
  EXPECT_EQ(nearest_valid_size(kTinyHex, 11), 6);
  const GameSpec spec{kTinyHex, 3, false};
  std::string error;
  ParsedRecord record;
  // Black's column b joins the south and north rows; White's column a reaches no east.
  ASSERT_TRUE(parse_record("b1 a1 b2 a2 b3", &record, &error)) << error;
  std::vector<int> actions;
  const auto end = replay_record(spec, record, &error, &actions);
  ASSERT_NE(end, nullptr) << error;
  EXPECT_EQ(end->outcome(), Outcome::kBlackWins);
  EXPECT_EQ(end->move_number(), 5);
  EXPECT_EQ(record_text(spec, actions), "b1 a1 b2 a2 b3");
  // Random games to the end on every size, each one won (hex cannot be drawn).
  for (int n = 3; n <= 6; ++n) {
    Rng rng(n);
    auto state = new_game(GameSpec{kTinyHex, n, false});
    EXPECT_NE(state->play_random_to_end(rng), Outcome::kDraw);
  }
}

}  // namespace
}  // namespace quax
