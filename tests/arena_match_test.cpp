#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include "arena/match.h"
#include "arena/results_log.h"
#include "mcts/baseline_agents.h"

namespace quax {
namespace {

TEST(Schedule, EveryPairPlaysBlackAsOftenAsWhite) {
  for (int games : {1, 2, 5, 8}) {
    for (bool gauntlet : {false, true}) {
      const auto schedule = schedule_games(4, games, gauntlet);
      std::map<std::pair<int, int>, int> as_black;
      for (const auto& g : schedule) ++as_black[{g.black, g.white}];
      const int expected_pairs = gauntlet ? 3 : 6;
      EXPECT_EQ(static_cast<int>(as_black.size()), 2 * expected_pairs);
      for (const auto& [pair, count] : as_black) {
        EXPECT_EQ(count, (games + 1) / 2) << pair.first << " vs " << pair.second;
        EXPECT_EQ(count, (as_black[std::make_pair(pair.second, pair.first)]));
        if (gauntlet) {
          EXPECT_TRUE(pair.first == 0 || pair.second == 0);
        }
      }
    }
  }
}

TEST(PlayGames, ResultsAreLegalGamesWithTheScheduledColours) {
  const GameSpec spec{Variant::kQuax, 5, true};
  const std::vector<std::string> names = {"a", "b", "c"};
  const auto schedule = schedule_games(3, 4, false);
  std::vector<GameResult> results(schedule.size());
  play_games(spec, names, schedule, [](int, uint64_t seed) { return make_random_agent(seed); }, 2, 11,
             [&](size_t g, const GameResult& r) { results[g] = r; });
  for (size_t g = 0; g < schedule.size(); ++g) {
    EXPECT_EQ(results[g].black, names[schedule[g].black]);
    EXPECT_EQ(results[g].white, names[schedule[g].white]);
    EXPECT_TRUE(results[g].outcome == Outcome::kBlackWins || results[g].outcome == Outcome::kWhiteWins);
    // The record replays to the same result.
    auto state = new_game(spec);
    std::string move;
    std::istringstream in(results[g].record);
    while (in >> move) {
      std::string error;
      const int a = state->parse_action(move, &error);
      ASSERT_GE(a, 0) << error;
      ASSERT_TRUE(state->is_legal(a)) << state->why_illegal(a);
      state->apply(a);
    }
    EXPECT_EQ(state->outcome(), results[g].outcome);
    EXPECT_EQ(state->move_number(), results[g].moves);
  }
}

TEST(ResultsLog, AccumulatesAcrossRunsAndKeepsOtherGamesApart) {
  const std::string path = ::testing::TempDir() + "/arena_results_test.jsonl";
  std::remove(path.c_str());
  const GameSpec spec{Variant::kQuax, 5, true}, other{Variant::kQuax, 7, true};
  GameResult r1{"x", "y", Outcome::kBlackWins, 9, spec, "c3 d4"};
  GameResult r2{"y", "x", Outcome::kBlackWins, 11, spec, ""};
  GameResult r3{"x", "y", Outcome::kWhiteWins, 20, other, ""};
  append_results(path, {r1});
  append_results(path, {r2, r3});
  const auto loaded = load_results(path, spec);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_EQ(loaded[0].record, "c3 d4");
  const Standings st = tally({"x", "y"}, loaded, false);
  ASSERT_EQ(st.pairs.size(), 1u);
  EXPECT_EQ(st.pairs[0].wins_i, 1);  // x won as black
  EXPECT_EQ(st.pairs[0].wins_j, 1);  // y won as black
  EXPECT_EQ(st.games_as_black[0], 1);
  EXPECT_EQ(st.games_as_white[0], 1);
  std::remove(path.c_str());
}

TEST(ResultsLog, MalformedLineNamesFileAndLine) {
  const std::string path = ::testing::TempDir() + "/arena_bad_test.jsonl";
  {
    std::ofstream out(path);
    out << R"({"black":"a","white":"b","result":"black","moves":3,"variant":"quax","size":5,"swap":true})" << "\n";
    out << "{not json\n";
  }
  try {
    load_results(path, GameSpec{Variant::kQuax, 5, true});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":2"), std::string::npos) << e.what();
  }
  std::remove(path.c_str());
}

}  // namespace
}  // namespace quax
