// Training configs: defaults, overrides, errors that name the key and line, the shipped
// configs, and the dump parsing back to the same configuration.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "train/config.h"

namespace quax {
namespace {

std::string error_of(const std::string& yaml) {
  try {
    parse_config(yaml, "test.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(Config, UnsetKeysKeepTheirDefaults) {
  const TrainConfig c = parse_config("game: {variant: quax}", "test.yaml");
  EXPECT_EQ(c.game, (GameSpec{Variant::kQuax, 5, true}));
  EXPECT_EQ(c.search.simulations, SearchSettings().simulations);
  EXPECT_EQ(dump_config(c), dump_config(TrainConfig()));
}

TEST(Config, AConfigWithoutSettingsIsAnError) {
  // Before, these ran every default: an unlimited run on the default board.
  const std::string want = "test.yaml: the config is empty (no sections; configs/quickstart.yaml is an example)";
  EXPECT_EQ(error_of(""), want);
  EXPECT_EQ(error_of("\n\n"), want);
  EXPECT_EQ(error_of("# only a comment\n  # and another\n"), want);
  EXPECT_EQ(error_of("---\n"), want);
  EXPECT_EQ(error_of("~\n"), want);
}

TEST(Config, AKeyGivenTwiceIsNamedWithBothLines) {
  EXPECT_EQ(error_of("game:\n  variant: quax\n  size: 5\n  size: 7\n"),
            "test.yaml:4: duplicate key 'game.size' (first at line 3)");
  EXPECT_EQ(error_of("game:\n  size: 5\nnet:\n  blocks: 1\ngame:\n  swap: false\n"),
            "test.yaml:5: duplicate key 'game' (first at line 1)");
  EXPECT_EQ(error_of("game: {size: 5, swap: true, size: 7}\n"),
            "test.yaml:1: duplicate key 'game.size' (first at line 1)");
  // The same key in two sections is no duplicate.
  EXPECT_EQ(error_of("search:\n  simulations: 8\nselfplay:\n  fast_simulations: 8\n"), "");
  EXPECT_EQ(error_of("? [a, b]\n: 1\n"), "test.yaml:1: a key must be a plain word, not a list or a mapping");
}

TEST(Config, AFileThatIsNoConfigIsNamed) {
  const std::string dir = ::testing::TempDir() + "/config_dir_test";
  std::filesystem::create_directories(dir);
  auto load_error = [](const std::string& path) -> std::string {
    try {
      load_config(path);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(load_error(dir), "config file '" + dir + "' is a directory");
  EXPECT_EQ(load_error(dir + "/missing.yaml"), "cannot read config file '" + dir + "/missing.yaml'");
  const std::string empty = dir + "/empty.yaml";
  { std::ofstream(empty) << "# nothing here\n"; }
  EXPECT_EQ(load_error(empty), empty + ": the config is empty (no sections; configs/quickstart.yaml is an example)");
  std::filesystem::remove_all(dir);
}

TEST(Config, ValuesOverrideDefaults) {
  const TrainConfig c = parse_config(
      "game: {variant: crossway, size: 9, swap: false}\nsearch:\n  rule: gumbel\n  simulations: 32\n"
      "learn:\n  lr_drops: [100, 200]\n",
      "test.yaml");
  EXPECT_EQ(c.game, (GameSpec{Variant::kCrossway, 9, false}));
  EXPECT_EQ(c.search.root_rule, RootRule::kGumbel);
  EXPECT_EQ(c.search.simulations, 32);
  EXPECT_EQ(c.learn.lr_drops, (std::vector<int64_t>{100, 200}));
  EXPECT_EQ(parse_config("selfplay: {precision: bf16}", "t").selfplay.precision, Precision::kBFloat16);
  EXPECT_EQ(parse_config("selfplay: {precision: fp32}", "t").selfplay.precision, Precision::kFloat32);
  EXPECT_EQ(TrainConfig().selfplay.precision, Precision::kAuto);
}

TEST(Config, UnknownKeyIsNamedWithFileAndLine) {
  EXPECT_EQ(error_of("game:\n  variant: quax\n  sizee: 5\n"), "test.yaml:3: unknown key 'game.sizee'");
  EXPECT_EQ(error_of("nett:\n  blocks: 2\n"), "test.yaml:1: unknown key 'nett'");
}

TEST(Config, BadValuesAreNamed) {
  EXPECT_EQ(error_of("search:\n  simulations: 0\n"),
            "test.yaml:2: bad value for 'search.simulations': expected an integer in [1, 1000000]");
  EXPECT_EQ(error_of("search:\n  c_puct: abc\n"), "test.yaml:2: bad value for 'search.c_puct': expected a number");
  EXPECT_EQ(error_of("game:\n  variant: hexx\n"),
            "test.yaml:2: bad value for 'game.variant': unknown variant 'hexx' (known: " + variant_list() + ")");
  EXPECT_EQ(error_of("net:\n  global_pooling: maybe\n"),
            "test.yaml:2: bad value for 'net.global_pooling': expected true or false");
  EXPECT_EQ(error_of("learn:\n  lr_drops: [300, 100]\n"),
            "test.yaml:2: bad value for 'learn.lr_drops': expected a list of increasing positive steps");
  EXPECT_EQ(error_of("replay:\n  window_min: 10\n  window_max: 5\n"),
            "test.yaml: bad value for 'replay.window_min': 10 is above replay.window_max (5)");
  EXPECT_EQ(error_of("selfplay:\n  precision: fp16\n"),
            "test.yaml:2: bad value for 'selfplay.precision': expected auto, fp32 or bf16, got 'fp16'");
  EXPECT_EQ(error_of("game: 5\n"), "test.yaml:1: section 'game' must be a mapping of keys");
  EXPECT_EQ(error_of("game: [\n"), "test.yaml:2: YAML syntax error: end of sequence flow not found");
}

TEST(Config, OverridesUseTheSameChecks) {
  TrainConfig c;
  apply_override(&c, "search.simulations=50");
  EXPECT_EQ(c.search.simulations, 50);
  try {
    apply_override(&c, "search.simulation=50");
    FAIL() << "accepted an unknown key";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(), "override: unknown key 'search.simulation'");
  }
  EXPECT_THROW(apply_override(&c, "no_equals_sign"), ConfigError);
}

// game.sizes: one network for several board sizes, with weights.
TEST(Config, SizesAndWeights) {
  const TrainConfig c = parse_config("game: {variant: quax, sizes: [7, 9, 11], size_weights: [1, 1, 2]}", "test.yaml");
  EXPECT_EQ(c.sizes, (std::vector<int>{7, 9, 11}));
  EXPECT_EQ(c.game, (GameSpec{Variant::kQuax, 7, true}));  // the first size is the primary one
  EXPECT_EQ(c.game_specs(), (std::vector<GameSpec>{{Variant::kQuax, 7, true}, {Variant::kQuax, 9, true},
                                                   {Variant::kQuax, 11, true}}));
  EXPECT_EQ(c.game_weights(), (std::vector<double>{1, 1, 2}));
  const std::string dump = dump_config(c);
  EXPECT_NE(dump.find("game:\n  variant: quax\n  sizes: [7, 9, 11]\n  size_weights: [1, 1, 2]\n  swap: true\n"),
            std::string::npos)
      << dump;
  EXPECT_EQ(dump_config(parse_config(dump, "dump")), dump);
  // Weights default to equal ones.
  const TrainConfig equal = parse_config("game: {sizes: [5, 6]}", "test.yaml");
  EXPECT_EQ(equal.game_weights(), (std::vector<double>{1, 1}));
  EXPECT_NE(dump_config(equal).find("  sizes: [5, 6]\n  size_weights: [1, 1]\n"), std::string::npos);
  // A run of one size has one spec and dumps as before the list existed: no new keys.
  const TrainConfig one = parse_config("game: {size: 9}", "test.yaml");
  EXPECT_EQ(one.game_specs(), (std::vector<GameSpec>{{Variant::kQuax, 9, true}}));
  EXPECT_EQ(one.game_weights(), (std::vector<double>{1}));
  EXPECT_EQ(dump_config(one).find("sizes"), std::string::npos);
  EXPECT_EQ(dump_config(one).find("size_weights"), std::string::npos);
  EXPECT_NE(dump_config(one).find("  size: 9\n"), std::string::npos);
}

TEST(Config, BadSizesAreNamed) {
  EXPECT_EQ(error_of("game:\n  size: 7\n  sizes: [7, 9]\n"),
            "test.yaml:3: 'game.size' and 'game.sizes' exclude each other: give one board size or a list of sizes");
  EXPECT_EQ(error_of("game:\n  sizes: [9, 7]\n  size: 7\n"),
            "test.yaml:2: 'game.size' and 'game.sizes' exclude each other: give one board size or a list of sizes");
  const std::string list = "expected a list of distinct board sizes in [3, 26], e.g. [7, 9, 11]";
  EXPECT_EQ(error_of("game:\n  sizes: [7, 7]\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  sizes: [7, 30]\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  sizes: []\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  sizes: 7\n"), "test.yaml:2: bad value for 'game.sizes': " + list);
  EXPECT_EQ(error_of("game:\n  variant: quikquax\n  swap: false\n  sizes: [6, 7]\n"),
            "test.yaml: bad value for 'game.sizes': quikquax needs an even size, not 7");
  EXPECT_EQ(error_of("game:\n  sizes: [7, 9]\n  size_weights: [1, 0]\n"),
            "test.yaml:3: bad value for 'game.size_weights': expected a list of positive numbers, one per size, e.g. "
            "[1, 1, 2]");
  EXPECT_EQ(error_of("game:\n  sizes: [7, 9]\n  size_weights: [1, 2, 3]\n"),
            "test.yaml: bad value for 'game.size_weights': 3 weights for 2 sizes");
  EXPECT_EQ(error_of("game:\n  size: 7\n  size_weights: [1]\n"),
            "test.yaml: bad value for 'game.size_weights': it needs game.sizes (one weight per size)");
}

TEST(Config, OverridesReplaceTheSizes) {
  TrainConfig c = parse_config("game: {sizes: [7, 9], size_weights: [1, 3]}", "test.yaml");
  apply_override(&c, "game.size=11");
  EXPECT_TRUE(c.sizes.empty());
  EXPECT_TRUE(c.size_weights.empty());
  EXPECT_EQ(c.game_specs(), (std::vector<GameSpec>{{Variant::kQuax, 11, true}}));
  EXPECT_NO_THROW(check_config(c, "test"));
  apply_override(&c, "game.sizes=[5, 7]");
  EXPECT_EQ(c.sizes, (std::vector<int>{5, 7}));
  EXPECT_EQ(c.game.size, 5);
  EXPECT_NO_THROW(check_config(c, "test"));
}

TEST(Config, ShippedConfigsLoadAndDumpRoundTrips) {
  // Every shipped config, named <variant>_<size>[x<size>].yaml after the game it trains
  // (quickstart: quax 5x5), or <variant>_mixed.yaml for several sizes.
  const std::set<std::string> expected = {
      "crossway_7x7", "crossway_9x9", "hex_7x7",      "hex_9x9",        "link_7x7",     "link_9x9",
      "quadhex_10x10", "quadhex_8x8", "quadrex_7x7",  "quadrex_9x9",    "quady_15",     "quady_9",
      "quax_7x7",     "quax_9x9",     "quax_mixed",   "quickstart",     "quickway_7x7", "quickway_9x9", "quikquax_6x6",
      "stymie_5x5",   "torax_5x5",    "y_13",         "y_9"};
  std::set<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(std::string(QUAX_SOURCE_DIR) + "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    const std::string name = e.path().stem().string();
    SCOPED_TRACE(name);
    found.insert(name);
    const TrainConfig c = load_config(e.path().string());
    const std::string game = name == "quickstart" ? "quax_5x5" : name;
    const std::string size = std::to_string(c.game.size);
    const std::string variant = variant_info(c.game.variant).name;
    // <variant>_mixed: a run of several sizes.
    if (c.sizes.size() > 1)
      EXPECT_EQ(game, variant + "_mixed");
    else
      EXPECT_TRUE(game == variant + "_" + size + "x" + size || game == variant + "_" + size) << variant << " " << size;
    const TrainConfig again = parse_config(dump_config(c), "dump");
    EXPECT_EQ(dump_config(again), dump_config(c));
  }
  EXPECT_EQ(found, expected);
}

}  // namespace
}  // namespace quax
