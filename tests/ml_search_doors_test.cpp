// Every key of the search schema (mcts/search_schema.h) through every door that takes it
// here: a config file, --set, a model player's description. Each accepts the same good value
// and refuses the same bad one with the same error after its own prefix. (Python's
// quax.Search(**kwargs) is walked in tests/python/test_search.py.) configs/README.md's key
// table is checked in ml_config_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "mcts/search_limits.h"
#include "mcts/search_schema.h"
#include "nets/players.h"
#include "train/config.h"
#include "train/config_print.h"

namespace quax {
namespace {

using Kind = SearchField::Kind;

// A value of `f` outside its range (or no value of its kind at all), and one inside that is
// not the default, as text every door reads alike.
std::string bad_value(const SearchField& f) {
  switch (f.kind) {
    case Kind::kInteger: return fmt::format("{}", static_cast<long long>(f.hi) + 1);
    case Kind::kNumber: return fmt::format("{}", f.hi * 2 + 1);
    case Kind::kBoolean: return "maybe";
    case Kind::kRule: return "alphabeta";
  }
  return {};
}

std::string good_value(const SearchField& f) {
  const std::string def = search_field_text(SearchSettings{}, f);
  switch (f.kind) {
    case Kind::kInteger: return fmt::format("{}", static_cast<long long>(f.hi) == std::stoll(def) ? f.lo : f.hi);
    case Kind::kNumber: return fmt::format("{}", std::stod(def) == f.hi ? f.lo : f.hi);
    case Kind::kBoolean: return def == "true" ? "false" : "true";
    case Kind::kRule: return "gumbel";
  }
  return {};
}

std::string yaml_error(const std::string& key, const std::string& value) {
  try {
    parse_config(fmt::format("search:\n  {}: {}\n", key, value), "test.yaml");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string override_error(const std::string& key, const std::string& value) {
  TrainConfig c;
  try {
    apply_override(&c, "search." + key + "=" + value);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

std::string player_error(const std::string& text) {
  PlayerDescription d;
  std::string error;
  return parse_player_description(text, &d, &error) ? "" : error;
}

TEST(SearchDoors, ABadValueGetsTheSameErrorFromEachDoor) {
  for (const auto& f : search_fields()) {
    SCOPED_TRACE(f.key);
    const std::string value = bad_value(f);
    SearchSettings untouched;
    const std::string error = set_search_field(&untouched, f, value);
    ASSERT_FALSE(error.empty()) << value;
    const std::string expected = f.kind == Kind::kRule ? "expected puct or gumbel, got '" + value + "'"
                                                       : "expected " + search_field_expected(f);
    EXPECT_EQ(error, expected);
    EXPECT_EQ(yaml_error(f.key, value), "test.yaml:2: " + bad_search_value(std::string("search.") + f.key, error));
    EXPECT_EQ(override_error(f.key, value), "override: " + bad_search_value(std::string("search.") + f.key, error));
    const std::string player = fmt::format("m.pt:{}={}", f.key, value);
    EXPECT_EQ(player_error(player), "bad player '" + player + "': " + bad_search_value(f.key, error));
  }
}

TEST(SearchDoors, AGoodValueSetsTheSameSettingThroughEachDoor) {
  for (const auto& f : search_fields()) {
    SCOPED_TRACE(f.key);
    const std::string value = good_value(f);
    ASSERT_NE(value, search_field_text(SearchSettings{}, f));
    const TrainConfig from_file = parse_config(fmt::format("search:\n  {}: {}\n", f.key, value), "test.yaml");
    TrainConfig from_override;
    apply_override(&from_override, fmt::format("search.{}={}", f.key, value));
    PlayerDescription player;
    std::string error;
    ASSERT_TRUE(parse_player_description(fmt::format("m.pt:{}={}", f.key, value), &player, &error)) << error;
    EXPECT_EQ(search_field_text(from_file.search, f), value);
    EXPECT_EQ(search_field_text(from_override.search, f), value);
    EXPECT_EQ(search_field_text(player.search, f), value);
  }
}

TEST(SearchDoors, APlayerStartsFromPlaySettingsAndKeepsItsShortNames) {
  PlayerDescription d;
  std::string error;
  ASSERT_TRUE(parse_player_description("m.pt:simulations=400:fpu_reduction=0.1:rule=gumbel", &d, &error)) << error;
  EXPECT_EQ(d.search.simulations, 400);
  EXPECT_FLOAT_EQ(d.search.fpu_reduction, 0.1f);
  EXPECT_EQ(d.search.root_rule, RootRule::kGumbel);
  EXPECT_FALSE(d.search.gumbel_noise);  // play: no Gumbel sample unless asked for
  EXPECT_EQ(d.search.dirichlet_fraction, 0.0f);
  EXPECT_EQ(d.search.leaves_per_batch, kPlayerLeavesPerBatch);
  ASSERT_TRUE(parse_player_description("m.pt:sims=5000000:leaves=2", &d, &error)) << error;  // sims= keeps 10^7
  EXPECT_EQ(d.search.simulations, 5000000);
  EXPECT_EQ(d.search.leaves_per_batch, 2);
  // simulations= sets the search's size as sims= does: a level excludes it.
  EXPECT_NE(player_error("m.pt:simulations=50:level=3").find("give it without sims=, temp= or time="), std::string::npos);
  // A search key needs a value; an unknown key is named.
  EXPECT_NE(player_error("m.pt:fpu_reduction").find("unknown setting 'fpu_reduction'"), std::string::npos);
  EXPECT_NE(player_error("m.pt:fpu=0.1").find("unknown setting 'fpu=0.1'"), std::string::npos);
  // The network's number format: auto unless precision= says otherwise.
  EXPECT_EQ(d.precision, Precision::kAuto);
  ASSERT_TRUE(parse_player_description("m.pt:sims=400:precision=int8", &d, &error)) << error;
  EXPECT_EQ(d.precision, Precision::kInt8);
  EXPECT_EQ(d.search.simulations, 400);
  EXPECT_NE(player_error("m.pt:precision=fp16").find("precision takes auto, fp32, bf16 or int8"), std::string::npos);
}

// Commands and the server give a model player's size as typed options (--sims, --time,
// --level; the server's sims, seconds, level): the player is the one its text would make.
TEST(SearchDoors, TypedSizeOptionsMakeThePlayerItsTextMakes) {
  struct Case {
    PlayerSearchSize size;
    std::string text;
  };
  std::vector<Case> cases(3);
  cases[0].size.sims = 400, cases[0].text = "m.pt:sims=400";
  cases[1].size.seconds = 2.5, cases[1].text = "m.pt:time=2.5";
  cases[2].size.level = 3, cases[2].text = "m.pt:level=3";
  for (const Case& c : cases) {
    PlayerDescription typed = model_player_description("m.pt"), parsed;
    std::string error;
    ASSERT_TRUE(set_player_search_size(&typed, c.size, &error)) << error;
    ASSERT_TRUE(parse_player_description(c.text, &parsed, &error)) << error;
    EXPECT_EQ(typed.text, c.text);
    EXPECT_EQ(typed.model_path, "m.pt");
    EXPECT_EQ(typed.seconds, parsed.seconds) << c.text;
    EXPECT_EQ(typed.search.prior_temperature, parsed.search.prior_temperature) << c.text;
    for (const auto& f : search_fields())
      EXPECT_EQ(search_field_text(typed.search, f), search_field_text(parsed.search, f)) << c.text << " " << f.key;
  }
  // Nothing given leaves the player as it is; a path may hold ':' when it is not read from text.
  PlayerDescription d = model_player_description("dir:1/m.pt");
  std::string error;
  ASSERT_TRUE(set_player_search_size(&d, PlayerSearchSize{}, &error));
  EXPECT_EQ(d.model_path, "dir:1/m.pt");
  EXPECT_EQ(d.search.simulations, 200);
}

TEST(SearchDoors, TypedSizeOptionsAreCheckedAsTheirKeysAndLeaveThePlayerAsItWas) {
  auto refused = [](PlayerDescription d, PlayerSearchSize size) {
    const PlayerDescription before = d;
    std::string error;
    EXPECT_FALSE(set_player_search_size(&d, size, &error)) << before.text;
    EXPECT_EQ(d.text, before.text);
    EXPECT_EQ(d.search.simulations, before.search.simulations);
    EXPECT_EQ(d.seconds, before.seconds);
    return error;
  };
  const PlayerDescription m = model_player_description("m.pt");
  PlayerSearchSize size;
  size.sims = -1;
  EXPECT_EQ(refused(m, size), "bad player 'm.pt': sims takes 1 to 10000000");
  size = {};
  size.seconds = 1e9;
  EXPECT_EQ(refused(m, size), "bad player 'm.pt': time takes seconds per move, e.g. time=2.5");
  size = {};
  size.level = 11;
  EXPECT_EQ(refused(m, size), "bad player 'm.pt': level takes 1 (novice) to 10 (full strength)");
  size.sims = 50;
  EXPECT_EQ(refused(m, size), "bad player 'm.pt': give one of sims, time and level");
  // A level beside a size the description gave, as in `quax play --player m.pt:sims=50 --level 3`.
  PlayerDescription with_sims;
  std::string error;
  ASSERT_TRUE(parse_player_description("m.pt:sims=50", &with_sims, &error)) << error;
  size = {};
  size.level = 3;
  EXPECT_EQ(refused(with_sims, size),
            "bad player 'm.pt:sims=50': level= sets the search's size; give it without sims=, temp= or time=");
  PlayerDescription baseline;
  ASSERT_TRUE(parse_player_description("uct:100", &baseline, &error));
  EXPECT_NE(refused(baseline, size).find("are a model's"), std::string::npos);
}

// sims= and simulations= (and the typed --sims, and a config's simulation counts) take one
// range wherever a caller on the machine gives them: kMaxSimulations passes, one more is refused.
TEST(SearchDoors, EveryCountOfSimulationsTakesOneRange) {
  const std::string most = std::to_string(kMaxSimulations), over = std::to_string(kMaxSimulations + 1);
  for (const char* key : {"sims", "simulations"}) {
    PlayerDescription d;
    std::string error;
    EXPECT_TRUE(parse_player_description(fmt::format("m.pt:{}={}", key, most), &d, &error)) << key << ": " << error;
    EXPECT_EQ(d.search.simulations, kMaxSimulations) << key;
    EXPECT_FALSE(parse_player_description(fmt::format("m.pt:{}={}", key, over), &d, &error)) << key;
    EXPECT_NE(error.find(most), std::string::npos) << key << ": " << error;
  }
  PlayerDescription m = model_player_description("m.pt");
  std::string error;
  PlayerSearchSize size;
  size.sims = kMaxSimulations + 1;
  EXPECT_FALSE(set_player_search_size(&m, size, &error));
  size.sims = kMaxSimulations;
  EXPECT_TRUE(set_player_search_size(&m, size, &error)) << error;
  for (const char* key : {"search.simulations", "selfplay.fast_simulations", "gating.simulations"}) {
    TrainConfig c;
    EXPECT_NO_THROW(apply_override(&c, fmt::format("{}={}", key, most))) << key;
    EXPECT_THROW(apply_override(&c, fmt::format("{}={}", key, over)), std::runtime_error) << key;
  }
  TrainConfig c;
  EXPECT_NO_THROW(apply_override(&c, fmt::format("selfplay.simulations_schedule=[[0, {}]]", most)));
  EXPECT_THROW(apply_override(&c, fmt::format("selfplay.simulations_schedule=[[0, {}]]", over)), std::runtime_error);
}

TEST(SearchDoors, PrintConfigDescribesTheSearchKeysAndParsesBack) {
  TrainConfig c;
  c.search.simulations = 64;
  const std::string documented = dump_config_documented(c);
  EXPECT_NE(documented.find("\n  simulations: 64  # per move (full searches); an integer in [1, 10000000]\n"),
            std::string::npos)
      << documented;
  EXPECT_NE(documented.find("\n  rule: puct  # puct (Dirichlet noise"), std::string::npos) << documented;
  EXPECT_NE(documented.find("\n  blocks: 4  # residual blocks of the tower; an integer in [0, "), std::string::npos)
      << documented;
  EXPECT_EQ(dump_config(parse_config(documented, "documented")), dump_config(c));
}

}  // namespace
}  // namespace quax
