// Rules files (rules/rules_file.h, docs/VARIANTS.md): every shipped variant's file says exactly
// the rules the engine registers, a game made from a file plays move for move as the shipped
// one, files the engines cannot play are refused in one line naming the field, and rules no
// variant ships (several stones a turn on a quickway or a quadrex board) play by their words.
//
// A program of its own (tests/CMakeLists.txt): it registers variants at run time.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "env/game_registry.h"
#include "env/game_state.h"
#include "env/rng.h"
#include "rules/rules_file.h"

namespace quax {
namespace {

const std::string kSource = QUAX_SOURCE_DIR;

// The shipped variants, read before any test registers one.
std::vector<Variant> shipped_variants() {
  static const std::vector<Variant> shipped = [] {
    std::vector<Variant> out;
    int count = 0;
    const VariantInfo* all = all_variants(&count);
    for (int i = 0; i < count; ++i) out.push_back(all[i].variant);
    return out;
  }();
  return shipped;
}

TEST(RulesFile, EachShippedVariantsFileSaysItsRegisteredRules) {
  ASSERT_EQ(shipped_variants().size(), 13u);
  for (Variant v : shipped_variants()) {
    const VariantInfo& info = variant_info(v);
    SCOPED_TRACE(info.name);
    const Rules from_file = read_rules_file(kSource + "/variants/" + info.name + ".yaml");
    EXPECT_EQ(rules_difference(from_file, info.rules), "");
    EXPECT_TRUE(from_file == info.rules);
    // What models and shards carry reads back as the same rules.
    EXPECT_TRUE(parse_rules(rules_text(info.rules), "text") == info.rules);
  }
}

// Plays `games` random games of `a` and `b` side by side, the same legal action chosen in both,
// and compares what a network and a search see at every ply.
void expect_same_games(const GameSpec& a, const GameSpec& b, int games, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint8_t> mask_a, mask_b;
  std::vector<float> planes_a, planes_b;
  std::vector<int> legal;
  for (int g = 0; g < games; ++g) {
    auto x = new_game(a), y = new_game(b);
    ASSERT_EQ(x->num_actions(), y->num_actions());
    ASSERT_EQ(x->num_planes(), y->num_planes());
    mask_a.resize(x->num_actions());
    mask_b.resize(y->num_actions());
    planes_a.resize(static_cast<size_t>(x->num_planes()) * a.size * a.size);
    planes_b.resize(planes_a.size());
    for (int ply = 0;; ++ply) {
      ASSERT_EQ(x->position_key(), y->position_key()) << "game " << g << " ply " << ply;
      ASSERT_EQ(x->outcome(), y->outcome());
      ASSERT_EQ(x->to_move(), y->to_move());
      x->legal_mask(mask_a.data());
      y->legal_mask(mask_b.data());
      ASSERT_EQ(mask_a, mask_b) << "game " << g << " ply " << ply;
      x->encode(planes_a.data());
      y->encode(planes_b.data());
      ASSERT_EQ(planes_a, planes_b) << "game " << g << " ply " << ply;
      if (x->is_over()) break;
      x->legal_actions(&legal);
      const int action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      x->apply(action);
      y->apply(action);
    }
  }
}

TEST(RulesFile, AGameMadeFromAShippedFileIsTheShippedGame) {
  for (Variant v : shipped_variants()) {
    const VariantInfo& info = variant_info(v);
    SCOPED_TRACE(info.name);
    // The file's rules under another name: a variant of its own, built from the rules alone.
    Rules copy = read_rules_file(kSource + "/variants/" + info.name + ".yaml");
    copy.name = std::string("file-") + info.name;
    const Variant made = register_rules(copy);
    ASSERT_NE(made, v);
    EXPECT_EQ(rules_of(made), rules_of(v));
    const int size = nearest_valid_size(v, 6);
    const bool pie = info.pie_rule_replaced_by == nullptr;
    expect_same_games(GameSpec{v, size, pie}, GameSpec{made, size, pie}, 1000, 11 + static_cast<int>(v));
  }
}

// The message for `yaml`, which must be refused.
std::string refusal(const std::string& yaml) {
  try {
    parse_rules(yaml, "bad.yaml");
  } catch (const RulesFileError& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(RulesFile, BadFilesGetOneLineNamingTheField) {
  const std::string base = "name: bad\nsizes: {default: 9}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {base + "links: automatic\n", "bad.yaml: unknown field 'links' ("},
      {base + "diagonal: link\nfourth_point: forbidden\n", "bad.yaml: fourth_point: forbidden is played with diagonal: always only"},
      {base + "diagonal: always\n", "bad.yaml: fourth_point: with diagonal: always"},
      {base + "diagonal: link\nfourth_point: imposed\n", "bad.yaml: fourth_point: imposed is played with diagonal: none only"},
      {base + "diagonal: sometimes\n", "bad.yaml: diagonal: 'sometimes' is not one of none, link, automatic, always"},
      {base + "diagonal: link\nwrap: cylinder\n", "bad.yaml: wrap: no engine plays a cylinder board"},
      {base + "board: hex-rhombus\nwrap: torus\n", "bad.yaml: wrap: the torus needs board: square"},
      {base + "board: hex-rhombus\ndiagonal: link\n", "bad.yaml: diagonal: hex-rhombus boards have no diagonal"},
      {base + "board: hex-triangle\ngoal: opposite-edges\n", "bad.yaml: goal: a triangle has no opposite edges"},
      {base + "diagonal: link\nstones_per_turn: [1, 2]\npie_rule: off\n", "bad.yaml: stones_per_turn: several stones a turn are played with diagonal: automatic or none only"},
      {base + "diagonal: automatic\nstones_per_turn: [1, 2, 2]\npie_rule: off\n", "bad.yaml: stones_per_turn: [1, 2, 2] repeats its last count; write [1, 2]"},
      {base + "diagonal: automatic\nstones_per_turn: [1, 9]\npie_rule: off\n", "bad.yaml: stones_per_turn: 9 is outside 1..8"},
      {base + "diagonal: automatic\nstones_per_turn: [1, 2]\n", "bad.yaml: pie_rule: on, but turns of [1, 2] stones have no swap"},
      {base + "diagonal: automatic\nstones_per_turn: [1, 5]\none_stone_per_quadrant: true\npie_rule: off\n", "bad.yaml: one_stone_per_quadrant: a turn of more than 4 stones"},
      {base + "diagonal: automatic\none_stone_per_quadrant: true\n", "bad.yaml: one_stone_per_quadrant: needs several stones a turn"},
      {"name: bad\ndiagonal: link\nsizes: {default: 9, max: 40}\n", "bad.yaml: sizes: max 40 is outside 3..26"},
      {"name: bad\ndiagonal: link\nsizes: {default: 2}\n", "bad.yaml: sizes: default 2 is outside min..max (3..26)"},
      {"name: bad\nboard: octagons\nsizes: {default: 13}\n", "bad.yaml: sizes: default 13 is outside min..max (3..12)"},
      {"name: bad\nboard: hex-triangle\ngoal: quadrants\nsizes: {default: 14}\n", "bad.yaml: sizes: default 14 is not of the form 2k+1"},
      {"name: bad\ndiagonal: link\nsizes: {default: 9, step: 2}\n", "bad.yaml: sizes: unknown field 'step' (default, min, max)"},
      {"name: bad\ndiagonal: link\nsizes: {default: nine}\n", "bad.yaml: sizes: default: 'nine' is not a whole number"},
      {"name: bad\ndiagonal: link\n", "bad.yaml: sizes: missing"},
      {"diagonal: link\nsizes: {default: 9}\n", "bad.yaml: name: missing"},
      {"name: Bad\ndiagonal: link\nsizes: {default: 9}\n", "bad.yaml: name: 'Bad' must start with a lower-case letter"},
      {"name: b d\ndiagonal: link\nsizes: {default: 9}\n", "bad.yaml: name: 'b d' may hold only"},
      {base + "pie_rule: maybe\ndiagonal: link\n", "bad.yaml: pie_rule: 'maybe' is neither on nor off"},
      {base + "board: [square]\n", "bad.yaml: board: expected a word, not a list"},
      {"name: bad\nboard: {square\n", "bad.yaml: not YAML: "},
      {"- name: bad\n", "bad.yaml: expected a mapping of fields"},
      // What the file says is quoted printable, on the one line (a shard's rules were fuzzed to
      // a field name holding a line break, and to an escape of a control byte).
      {base + "\"a\\nb\": 1\n", "bad.yaml: unknown field 'a\\x0ab' ("},
      {"name: \"b\\nd\"\ndiagonal: link\nsizes: {default: 9}\n", "bad.yaml: name: 'b\\x0ad' may hold only"},
      {base + "diagonal: \"\\\x01\"\n", "bad.yaml: not YAML: unknown escape character: \\x01"},
  };
  for (const auto& [yaml, expected] : cases) {
    SCOPED_TRACE(yaml);
    const std::string why = refusal(yaml);
    EXPECT_EQ(why.rfind(expected, 0), 0u) << why;
    EXPECT_TRUE(std::all_of(why.begin(), why.end(), [](char c) { return c >= ' ' && c < 0x7f; })) << why;
  }
}

TEST(RulesFile, FilesAndNamesAreTheSameDoor) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "quax_rules_file_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "myquax.yaml").string();
  std::ofstream(path) << "# quax on 7x7 boards without the pie rule\nname: myquax\ndiagonal: link\npie_rule: off\n"
                         "sizes: {default: 7, max: 13}\n";
  const Variant v = variant_from_name_or_file(path);
  EXPECT_EQ(variant_from_name_or_file(path), v) << "the same file twice is one variant";
  EXPECT_EQ(variant_from_name_or_file("MyQuax"), v) << "and its name finds it once registered";
  EXPECT_EQ(rules_of(v), Variant::kQuax) << "quax's rules at other sizes: quax's models play it";
  EXPECT_EQ(describe(default_spec(v)), "myquax 7x7 (no swap)");
  EXPECT_EQ(variant_info(v).min_size, 3) << "min left out: the engine's";
  EXPECT_NE(check_spec(GameSpec{v, 14, false}), "");

  // The same name with other rules is refused, and the first stays.
  std::ofstream(path) << "name: myquax\ndiagonal: automatic\nsizes: {default: 7}\n";
  try {
    variant_from_name_or_file(path);
    ADD_FAILURE() << "accepted";
  } catch (const RulesFileError& e) {
    EXPECT_NE(std::string(e.what()).find("the name 'myquax' is registered with other rules"), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(variant_info(v).rules.diagonal, LinkRule::kChosen);
  // A shipped name is no one's to change.
  std::ofstream(path) << "name: quax\ndiagonal: link\npie_rule: off\nsizes: {default: 11}\n";
  EXPECT_THROW(variant_from_name_or_file(path), RulesFileError);
  EXPECT_TRUE(variant_info(Variant::kQuax).swap_by_default);

  try {
    variant_from_name_or_file("quaxx");
    ADD_FAILURE() << "accepted";
  } catch (const RulesFileError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("unknown variant 'quaxx' (known: quax, link,", 0), 0u) << e.what();
  }
  try {
    variant_from_name_or_file(dir.string() + "/missing.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const RulesFileError& e) {
    EXPECT_NE(std::string(e.what()).find("missing.yaml"), std::string::npos) << e.what();
  }
  EXPECT_THROW(variant_from_name_or_file(dir.string() + "/"), RulesFileError) << "a directory is no file";
  std::filesystem::remove_all(dir);
}

// Turns of 1 stone, then 2, on a quickway board: Black, White, White, Black, Black, ...
TEST(RulesFile, SeveralStonesATurnPlayByTheSchedule) {
  const Variant v = variant_from_name_or_file(kSource + "/examples/variants/twostep.yaml");
  const VariantInfo& info = variant_info(v);
  EXPECT_EQ(info.pie_rule_replaced_by, std::string("the 1-2 start"));
  for (int size : {5, 6, 9}) {
    Rng rng(size);
    std::vector<int> legal;
    for (int g = 0; g < 200; ++g) {
      auto game = new_game(GameSpec{v, size, false});
      int ply = 0;
      while (!game->is_over()) {
        // Ply 0 is Black's; then pairs: plies 1-2 White, 3-4 Black, ...
        const Player expected = ply == 0 ? Player::kBlack : ((ply - 1) / 2) % 2 == 0 ? Player::kWhite : Player::kBlack;
        ASSERT_EQ(game->to_move(), expected) << "size " << size << " ply " << ply;
        game->legal_actions(&legal);
        ASSERT_EQ(static_cast<int>(legal.size()), size * size - ply) << "every empty cell, no quadrant rule";
        game->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        ++ply;
      }
      EXPECT_NE(game->outcome(), Outcome::kDraw);
    }
  }
}

// Quadrex's cascade with turns of 1, 2, 2, ... and one stone per quadrant: the cells the cascade
// fills count against their quadrant, and a turn ends early when no open quadrant has room.
TEST(RulesFile, ACascadeBoardCountsItsFilledCellsPerQuadrant) {
  Rules r;
  r.name = "quadrex-pairs";
  r.diagonal = LinkRule::kNone;
  r.fourth_point = FourthPoint::kImposed;
  r.stones_per_turn = {1, 2};
  r.one_stone_per_quadrant = true;
  r.pie_rule = false;
  r.default_size = 6;
  r.min_size = 4;
  r.max_size = 12;
  const Variant v = register_rules(r);
  Rng rng(5);
  std::vector<int> legal;
  for (int g = 0; g < 3000; ++g) {
    auto game = new_game(GameSpec{v, g % 2 == 0 ? 4 : 6, false});
    while (!game->is_over()) {
      game->legal_actions(&legal);
      ASSERT_FALSE(legal.empty()) << "an ongoing game always has a move";
      game->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    EXPECT_NE(game->outcome(), Outcome::kDraw);
  }
}

}  // namespace
}  // namespace quax
