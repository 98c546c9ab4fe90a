// Training configs: defaults, overrides, errors that name the key and line, the shipped
// configs, and the dump parsing back to the same configuration.
#include <gtest/gtest.h>

#include <filesystem>

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

TEST(Config, EmptyTextGivesDefaults) {
  const TrainConfig c = parse_config("", "test.yaml");
  EXPECT_EQ(c.game.variant, Variant::kQuax);
  EXPECT_EQ(c.search.simulations, SearchSettings().simulations);
  EXPECT_EQ(dump_config(c), dump_config(TrainConfig()));
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
  EXPECT_NE(error_of("search:\n  simulations: 0\n").find("test.yaml:2: bad value for 'search.simulations'"),
            std::string::npos);
  EXPECT_NE(error_of("search:\n  c_puct: abc\n").find("'search.c_puct': expected a number"), std::string::npos);
  EXPECT_NE(error_of("game:\n  variant: hexx\n").find("unknown variant 'hexx'"), std::string::npos);
  EXPECT_NE(error_of("net:\n  global_pooling: maybe\n").find("'net.global_pooling'"), std::string::npos);
  EXPECT_NE(error_of("learn:\n  lr_drops: [300, 100]\n").find("'learn.lr_drops'"), std::string::npos);
  EXPECT_NE(error_of("replay:\n  window_min: 10\n  window_max: 5\n").find("'replay.window_min'"), std::string::npos);
  EXPECT_NE(error_of("selfplay:\n  precision: fp16\n").find("expected auto, fp32 or bf16, got 'fp16'"),
            std::string::npos);
  EXPECT_NE(error_of("game: 5\n").find("section 'game' must be a mapping"), std::string::npos);
  EXPECT_NE(error_of("game: [\n").find("YAML syntax error"), std::string::npos);
}

TEST(Config, OverridesUseTheSameChecks) {
  TrainConfig c;
  apply_override(&c, "search.simulations=50");
  EXPECT_EQ(c.search.simulations, 50);
  try {
    apply_override(&c, "search.simulation=50");
    FAIL() << "accepted an unknown key";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("'search.simulation'"), std::string::npos);
  }
  EXPECT_THROW(apply_override(&c, "no_equals_sign"), ConfigError);
}

TEST(Config, ShippedConfigsLoadAndDumpRoundTrips) {
  int count = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::string(QUAX_SOURCE_DIR) + "/configs")) {
    if (e.path().extension() != ".yaml") continue;
    SCOPED_TRACE(e.path().string());
    const TrainConfig c = load_config(e.path().string());
    const TrainConfig again = parse_config(dump_config(c), "dump");
    EXPECT_EQ(dump_config(again), dump_config(c));
    ++count;
  }
  EXPECT_GE(count, 11);  // quickstart + five variants at 7x7 and 9x9
}

}  // namespace
}  // namespace quax
