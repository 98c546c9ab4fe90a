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

// Issue 15's auxiliary heads: off unless asked for, printed with their defaults, checked.
TEST(Config, AuxiliaryHeadsAreOffByDefault) {
  const TrainConfig d;
  EXPECT_FALSE(d.net.ownership_head);
  EXPECT_FALSE(d.net.soft_policy_head);
  const std::string dump = dump_config(d);
  for (const char* line : {"  ownership_head: false\n", "  soft_policy_head: false\n", "  ownership_loss_weight: 0.5\n",
                           "  soft_policy_loss_weight: 8\n", "  soft_policy_temperature: 4\n"})
    EXPECT_NE(dump.find(line), std::string::npos) << line;
  const TrainConfig c = parse_config(
      "net: {ownership_head: true, soft_policy_head: true}\nlearn: {soft_policy_temperature: 2, ownership_loss_weight: 1.5}",
      "test.yaml");
  EXPECT_TRUE(c.net.ownership_head && c.net.soft_policy_head && c.net.has_aux_heads());
  EXPECT_FALSE(c.net.without_aux_heads().has_aux_heads());
  EXPECT_EQ(c.learn.soft_policy_temperature, 2.0);
  EXPECT_EQ(c.learn.ownership_loss_weight, 1.5);
  EXPECT_NE(c.net, d.net);
  EXPECT_EQ(parse_config(dump_config(c), "dump").net, c.net);
  EXPECT_EQ(error_of("learn: {soft_policy_temperature: 0}"),
            "test.yaml:1: bad value for 'learn.soft_policy_temperature': expected a number in [0.01, 100]");
  EXPECT_EQ(error_of("net: {ownership_head: 3}"), "test.yaml:1: bad value for 'net.ownership_head': expected true or false");
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

TEST(Config, ShippedConfigsLoadAndDumpRoundTrips) {
  // Every shipped config, named <variant>_<size>[x<size>].yaml after the game it trains
  // (quickstart: quax 5x5).
  const std::set<std::string> expected = {
      "crossway_7x7", "crossway_9x9", "hex_7x7",      "hex_9x9",        "link_7x7",     "link_9x9",
      "quadhex_10x10", "quadhex_8x8", "quadrex_7x7",  "quadrex_9x9",    "quady_15",     "quady_9",
      "quax_7x7",     "quax_9x9",     "quickstart",   "quickway_7x7",   "quickway_9x9", "quikquax_6x6",
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
    EXPECT_TRUE(game == variant + "_" + size + "x" + size || game == variant + "_" + size) << variant << " " << size;
    const TrainConfig again = parse_config(dump_config(c), "dump");
    EXPECT_EQ(dump_config(again), dump_config(c));
  }
  EXPECT_EQ(found, expected);
}

}  // namespace
}  // namespace quax
