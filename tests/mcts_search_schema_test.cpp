// The search schema (mcts/search_schema.h): every key reads its own text back, refuses what
// is outside its range with the line every door shows, and play_settings turns off root noise.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "mcts/search_schema.h"

namespace quax {
namespace {

using Kind = SearchField::Kind;

TEST(SearchSchema, KeysAreUniqueAndDocumented) {
  std::set<std::string> keys;
  for (const auto& f : search_fields()) {
    EXPECT_TRUE(keys.insert(f.key).second) << f.key;
    EXPECT_FALSE(std::string(f.doc).empty()) << f.key;
    EXPECT_EQ(find_search_field(f.key), &f);
  }
  EXPECT_EQ(keys.size(), 16u);
  EXPECT_EQ(find_search_field("prior_temperature"), nullptr);  // the levels' own, not a user's
  EXPECT_EQ(find_search_field("sims"), nullptr);
}

TEST(SearchSchema, DefaultsAreTheStructsAndReadBack) {
  const SearchSettings defaults;
  EXPECT_EQ(search_field_text(defaults, *find_search_field("simulations")), "200");
  EXPECT_EQ(search_field_text(defaults, *find_search_field("c_puct")), "1.25");
  EXPECT_EQ(search_field_text(defaults, *find_search_field("rule")), "puct");
  EXPECT_EQ(search_field_text(defaults, *find_search_field("gumbel_noise")), "true");
  for (const auto& f : search_fields()) {
    SearchSettings s;
    EXPECT_EQ(set_search_field(&s, f, search_field_text(defaults, f)), "") << f.key;
    EXPECT_EQ(search_field_text(s, f), search_field_text(defaults, f)) << f.key;
  }
}

TEST(SearchSchema, TextIsReadWholeAndInRange) {
  const SearchField& sims = *find_search_field("simulations");
  SearchSettings s;
  EXPECT_EQ(set_search_field(&s, sims, "400"), "");
  EXPECT_EQ(s.simulations, 400);
  for (const char* junk : {"", " 4", "4 ", "4x", "4.5", "abc", "99999999999999999999999"})
    EXPECT_EQ(set_search_field(&s, sims, junk), "expected an integer") << junk;
  EXPECT_EQ(set_search_field(&s, sims, "0"), "expected an integer in [1, 10000000]");
  EXPECT_EQ(set_search_field(&s, sims, "10000001"), "expected an integer in [1, 10000000]");
  EXPECT_EQ(s.simulations, 400);  // a refused value leaves the settings as they were

  const SearchField& fpu = *find_search_field("fpu_reduction");
  EXPECT_EQ(set_search_field(&s, fpu, "0.05"), "");
  EXPECT_FLOAT_EQ(s.fpu_reduction, 0.05f);
  EXPECT_EQ(set_search_field(&s, fpu, "x"), "expected a number");
  for (const char* out : {"10.5", "-11", "nan", "inf", "1e300"})
    EXPECT_EQ(set_search_field(&s, fpu, out), "expected a number in [-10, 10]") << out;
  EXPECT_FLOAT_EQ(s.fpu_reduction, 0.05f);

  const SearchField& reuse = *find_search_field("reuse_tree");
  EXPECT_EQ(set_search_field(&s, reuse, "false"), "");
  EXPECT_FALSE(s.reuse_tree);
  EXPECT_EQ(set_search_field(&s, reuse, "1"), "expected true or false");

  const SearchField& rule = *find_search_field("rule");
  EXPECT_EQ(set_search_field(&s, rule, "gumbel"), "");
  EXPECT_EQ(s.root_rule, RootRule::kGumbel);
  EXPECT_EQ(set_search_field(&s, rule, "alphabeta"), "expected puct or gumbel, got 'alphabeta'");
  EXPECT_EQ(bad_search_value("rule", "expected puct or gumbel, got 'x'"),
            "bad value for 'rule': expected puct or gumbel, got 'x'");
}

TEST(SearchSchema, PlaySettingsHaveNoRootNoiseAndKeepTheRest) {
  SearchSettings selfplay;
  selfplay.dirichlet_fraction = 0.25f;
  selfplay.gumbel_noise = true;
  selfplay.root_rule = RootRule::kGumbel;
  selfplay.simulations = 77;
  selfplay.fpu_reduction = 0.3f;
  const SearchSettings play = play_settings(selfplay);
  EXPECT_EQ(play.dirichlet_fraction, 0.0f);
  EXPECT_FALSE(play.gumbel_noise);
  EXPECT_EQ(play.root_rule, RootRule::kGumbel);
  EXPECT_EQ(play.simulations, 77);
  EXPECT_FLOAT_EQ(play.fpu_reduction, 0.3f);
}

}  // namespace
}  // namespace quax
