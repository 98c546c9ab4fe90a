#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <cstdlib>
#include <vector>

#include "arena/match.h"
#include "arena/results_log.h"
#include "mcts/baseline_agents.h"

namespace quax {
namespace {

TEST(Schedule, EveryPairPlaysBlackAsOftenAsWhite) {
  for (int games : {1, 2, 5, 8}) {
    for (Schedule kind : {Schedule::kRoundRobin, Schedule::kGauntlet, Schedule::kChain}) {
      const auto schedule = schedule_games(4, games, kind);
      std::map<std::pair<int, int>, int> as_black;
      for (const auto& g : schedule) ++as_black[{g.black, g.white}];
      const int expected_pairs = kind == Schedule::kRoundRobin ? 6 : 3;
      EXPECT_EQ(static_cast<int>(as_black.size()), 2 * expected_pairs);
      for (const auto& [pair, count] : as_black) {
        EXPECT_EQ(count, (games + 1) / 2) << pair.first << " vs " << pair.second;
        EXPECT_EQ(count, (as_black[std::make_pair(pair.second, pair.first)]));
        if (kind == Schedule::kGauntlet) {
          EXPECT_TRUE(pair.first == 0 || pair.second == 0);
        }
        if (kind == Schedule::kChain) {  // neighbours in the list only (0-1, 1-2, 2-3)
          EXPECT_EQ(std::abs(pair.first - pair.second), 1);
        }
      }
    }
  }
}

TEST(Entrants, APlayerListedTwiceBecomesTwoNumberedEntrants) {
  EXPECT_EQ(entrant_names({"uct:300", "uct:300"}), (std::vector<std::string>{"uct:300#1", "uct:300#2"}));
  // Players listed once keep their description; copies are numbered in order of listing.
  EXPECT_EQ(entrant_names({"random", "m.pt", "uct:9", "m.pt", "m.pt"}),
            (std::vector<std::string>{"random", "m.pt#1", "uct:9", "m.pt#2", "m.pt#3"}));
  EXPECT_EQ(entrant_names({"random", "uct:9"}), (std::vector<std::string>{"random", "uct:9"}));
}

TEST(PlayGames, ResultsAreLegalGamesWithTheScheduledColours) {
  const GameSpec spec{Variant::kQuax, 5, true};
  const std::vector<std::string> names = {"a", "b", "c"};
  const auto schedule = schedule_games(3, 4);
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

TEST(PlayGames, AnErrorOnAWorkerThreadReachesTheCallerAndStopsNewGames) {
  // on_result fails at the third game (as a full disk would): the error comes out of
  // play_games on the calling thread (before, it ended the process), games already
  // started are finished and reported, and no game starts after it.
  const GameSpec spec{Variant::kQuax, 5, true};
  const std::vector<std::string> names = {"a", "b"};
  const auto schedule = schedule_games(2, 40);
  const int threads = 2;
  for (int attempt = 0; attempt < 5; ++attempt) {
    int calls = 0;
    try {
      play_games(spec, names, schedule, [](int, uint64_t seed) { return make_random_agent(seed); }, threads,
                 attempt, [&](size_t, const GameResult&) {
                   if (++calls == 3) throw std::runtime_error("disk full");
                 });
      FAIL() << "the error of the third game was lost";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "disk full");
    }
    EXPECT_GE(calls, 3);
    EXPECT_LE(calls, 3 + threads - 1);  // at most the games in flight on the other threads
  }
  // An agent that cannot be made on the second thread: the first caller of the factory
  // waits for a second (so that both threads take part), which throws.
  std::atomic<int> made{0};
  int reported = 0;
  EXPECT_THROW(play_games(spec, names, schedule,
                          [&](int, uint64_t seed) -> std::unique_ptr<Agent> {
                            if (++made == 1) {
                              for (int i = 0; i < 5000 && made < 2; ++i)
                                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                              return make_random_agent(seed);
                            }
                            throw std::runtime_error("no agent");
                          },
                          threads, 1, [&](size_t, const GameResult&) { ++reported; }),
               std::runtime_error);
  EXPECT_GE(made.load(), 2);
  EXPECT_EQ(reported, 0);  // the first thread's game needed a second agent: it failed too
  EXPECT_THROW(play_games(spec, names, schedule, [](int, uint64_t) { return std::unique_ptr<Agent>(); }, threads, 1,
                          [](size_t, const GameResult&) {}),
               std::runtime_error);
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

TEST(ResultsLog, StandingsCountWinsByColourNotJustGames) {
  const GameSpec spec{Variant::kQuax, 5, true};
  // x: black twice (one win, one draw), white once (a win); y: black once (a loss), white
  // twice (no win); z's game against an unlisted player is left out.
  const std::vector<GameResult> results = {
      {"x", "y", Outcome::kBlackWins, 9, spec, ""},
      {"x", "y", Outcome::kDraw, 9, spec, ""},
      {"y", "x", Outcome::kWhiteWins, 9, spec, ""},
      {"z", "x", Outcome::kBlackWins, 9, spec, ""},
  };
  const Standings st = tally({"x", "y"}, results, false);
  EXPECT_EQ(st.games_as_black, (std::vector<int>{2, 1}));
  EXPECT_EQ(st.games_as_white, (std::vector<int>{1, 2}));
  EXPECT_EQ(st.wins_as_black, (std::vector<int>{1, 0}));
  EXPECT_EQ(st.wins_as_white, (std::vector<int>{1, 0}));
  // With include_others, z (added while tallying) gets its black win.
  const Standings all = tally({"x", "y"}, results, true);
  ASSERT_EQ(all.players.size(), 3u);
  EXPECT_EQ(all.wins_as_black, (std::vector<int>{1, 0, 1}));
  EXPECT_EQ(all.wins_as_white, (std::vector<int>{1, 0, 0}));
}

TEST(ResultsLog, StandingsCountRepeatedGamesOnceAsDistinct) {
  const GameSpec spec{Variant::kQuax, 5, false};
  // Pair (x, y): the game "c3 b2 b3" played three times with x as black, once with y as
  // black (the same moves, other colours: another game), and one other game. Pair (x, z):
  // two different games.
  const std::vector<GameResult> results = {
      {"x", "y", Outcome::kBlackWins, 3, spec, "c3 b2 b3"}, {"x", "y", Outcome::kBlackWins, 3, spec, "c3 b2 b3"},
      {"x", "y", Outcome::kBlackWins, 3, spec, "c3 b2 b3"}, {"y", "x", Outcome::kBlackWins, 3, spec, "c3 b2 b3"},
      {"x", "y", Outcome::kWhiteWins, 4, spec, "c3 b2 b3 d4"}, {"z", "x", Outcome::kBlackWins, 3, spec, "a1 b1 c1"},
      {"x", "z", Outcome::kBlackWins, 3, spec, "a1 b1 c1"},
  };
  const Standings st = tally({"x", "y", "z"}, results, false);
  ASSERT_EQ(st.pairs.size(), 2u);
  ASSERT_EQ(st.distinct_games.size(), 2u);
  for (size_t k = 0; k < st.pairs.size(); ++k) {
    const int games = static_cast<int>(st.pairs[k].wins_i + st.pairs[k].wins_j + st.pairs[k].draws);
    if (st.pairs[k].j == 1) {  // x against y
      EXPECT_EQ(games, 5);
      EXPECT_EQ(st.distinct_games[k], 3);
    } else {  // x against z
      EXPECT_EQ(games, 2);
      EXPECT_EQ(st.distinct_games[k], 2);
    }
  }
}

// A game and its image under a symmetry of the board are one sample: quax's mirror image
// (a1 b2 and e1 d2 keep Black's edges), a torax auction's translation (a block on a1 or on
// c4). Games of other lengths or shapes stay apart.
TEST(ResultsLog, GamesAlikeUpToTheBoardsSymmetriesCountOnceAsDistinct) {
  const GameSpec quax{Variant::kQuax, 5, false}, torax{Variant::kTorax, 5, false};
  const std::vector<GameResult> quax_games = {
      {"x", "y", Outcome::kBlackWins, 2, quax, "a1 b2"},
      {"x", "y", Outcome::kBlackWins, 2, quax, "e1 d2"},
      {"x", "y", Outcome::kBlackWins, 2, quax, "a1 c2"},
      {"x", "y", Outcome::kBlackWins, 3, quax, "a1 b2 c3"},
  };
  Standings st = tally({"x", "y"}, quax_games, false);
  ASSERT_EQ(st.distinct_games.size(), 1u);
  EXPECT_EQ(st.distinct_games[0], 3);
  const std::vector<GameResult> torax_games = {
      {"x", "y", Outcome::kBlackWins, 1, torax, "a1"},
      {"x", "y", Outcome::kBlackWins, 1, torax, "c4"},
      {"x", "y", Outcome::kBlackWins, 1, torax, "e5"},
      {"x", "y", Outcome::kBlackWins, 1, torax, "a1b2"},
      {"x", "y", Outcome::kBlackWins, 1, torax, "c4d5"},
      {"x", "y", Outcome::kBlackWins, 1, torax, "a1c1"},
  };
  st = tally({"x", "y"}, torax_games, false);
  ASSERT_EQ(st.distinct_games.size(), 1u);
  EXPECT_EQ(st.distinct_games[0], 3);
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

// A malformed line is named, not echoed: a megabyte of it gives a message of one short line.
TEST(ResultsLog, MalformedLongLineGivesAShortMessage) {
  const std::string path = ::testing::TempDir() + "/arena_long_test.jsonl";
  // The parser reads the whole string before it meets the control byte, and quotes it all.
  { std::ofstream(path) << "[\"" << std::string(1 << 20, 'x') << "\x01\"]\n"; }
  try {
    load_results(path, GameSpec{Variant::kQuax, 5, true});
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_LT(std::string(e.what()).size(), path.size() + 250) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(path + ":1: malformed result line (", 0), 0u) << e.what();
  }
  std::remove(path.c_str());
}

// Results files that are no files: refused at once, neither read without end (a device) nor
// waited on (a FIFO with no writer), for reading and for appending.
TEST(ResultsLog, DevicesAndFifosAreRefused) {
  const GameSpec spec{Variant::kQuax, 5, true};
  auto error_of = [&](const std::function<void()>& f) -> std::string {
    try {
      f();
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error_of([&] { read_results_file("/dev/zero", spec); }),
            "'/dev/zero' is a character device, not a regular results file");
  EXPECT_EQ(error_of([&] { prepare_results_file("/dev/full", spec); }),
            "'/dev/full' is a character device, not a regular results file");
  EXPECT_EQ(error_of([&] { append_results("/dev/null", {GameResult{}}); }),
            "cannot write results file: '/dev/null' is a character device, not a regular results file");
  const std::string fifo = ::testing::TempDir() + "/arena_fifo_test";
  std::remove(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(error_of([&] { read_results_file(fifo, spec); }), "'" + fifo + "' is a FIFO, not a regular results file");
  // Opening a FIFO without a reader for writing fails at once (ENXIO) instead of blocking.
  EXPECT_NE(error_of([&] { append_results(fifo, {GameResult{}}); }).find(fifo), std::string::npos);
  std::remove(fifo.c_str());
}

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
}

const GameSpec kSpec5{Variant::kQuax, 5, true};
const std::string kLine1 =
    R"({"black":"a","white":"b","result":"black","moves":3,"variant":"quax","size":5,"swap":true,"record":"c3 d4 e5"})";
const std::string kLine2 =
    R"({"black":"b","white":"a","result":"white","moves":4,"variant":"quax","size":5,"swap":true,"record":"a1 a2 a3 a4"})";

TEST(ResultsFile, ACutLastLineIsSetAsideAndTheNextGameStartsALine) {
  const std::string path = ::testing::TempDir() + "/arena_cut_test.jsonl";
  const std::string fragment = kLine2.substr(0, 40);
  write_text(path, kLine1 + "\n" + fragment);  // a killed arena: the second line cut, no newline
  const ResultsFileContents before = prepare_results_file(path, kSpec5);
  ASSERT_EQ(before.results.size(), 1u);
  EXPECT_EQ(before.results[0].record, "c3 d4 e5");
  ASSERT_EQ(before.cut_lines.size(), 1u);
  EXPECT_EQ(before.cut_lines[0].rfind(path + ":2: ", 0), 0u) << before.cut_lines[0];
  EXPECT_TRUE(before.malformed.empty());
  EXPECT_EQ(file_text(path), kLine1 + "\n" + fragment + "\n");  // repaired: nothing lost, a newline added

  GameResult r{"a", "b", Outcome::kWhiteWins, 7, kSpec5, "b2"};
  append_results(path, {r});
  const auto after = load_results(path, kSpec5);
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0].record, "c3 d4 e5");
  EXPECT_EQ(after[1].record, "b2");
  EXPECT_EQ(after[1].outcome, Outcome::kWhiteWins);
  // The fragment, now a line in the middle, is still recognised as cut, not malformed.
  const std::string repaired = file_text(path);
  const ResultsFileContents again = prepare_results_file(path, kSpec5);
  EXPECT_EQ(again.results.size(), 2u);
  ASSERT_EQ(again.cut_lines.size(), 1u);
  EXPECT_EQ(again.cut_lines[0].rfind(path + ":2: ", 0), 0u);
  EXPECT_EQ(file_text(path), repaired);  // a whole file is left as it is
  std::remove(path.c_str());
}

TEST(ResultsFile, AWholeLastLineWithoutNewlineIsKept) {
  const std::string path = ::testing::TempDir() + "/arena_nonl_test.jsonl";
  write_text(path, kLine1 + "\n" + kLine2);
  const ResultsFileContents c = prepare_results_file(path, kSpec5);
  EXPECT_EQ(c.results.size(), 2u);
  EXPECT_TRUE(c.cut_lines.empty());
  EXPECT_EQ(file_text(path), kLine1 + "\n" + kLine2 + "\n");
  std::remove(path.c_str());
}

TEST(ResultsFile, AMalformedLineBeforeTheEndIsAnErrorAndTheFileIsLeftAlone) {
  const std::string path = ::testing::TempDir() + "/arena_malformed_test.jsonl";
  for (const std::string& bad : {std::string("hello"), std::string(R"({"black":"a","white":"b"})"),
                                 std::string(R"({"black":"a","white":"b","result":"maybe","variant":"quax","size":5,"swap":true})")}) {
    SCOPED_TRACE(bad);
    const std::string text = kLine1 + "\n" + bad + "\n" + kLine2;  // and a last line without newline
    write_text(path, text);
    const ResultsFileContents c = read_results_file(path, kSpec5);
    ASSERT_EQ(c.malformed.size(), 1u);
    EXPECT_EQ(c.malformed[0].rfind(path + ":2: malformed result line (", 0), 0u) << c.malformed[0];
    EXPECT_EQ(c.malformed[0].find('\n'), std::string::npos);
    try {
      prepare_results_file(path, kSpec5);
      FAIL() << "a malformed line was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()), c.malformed[0]);
    }
    EXPECT_EQ(file_text(path), text);  // not even the newline repair
  }
  std::remove(path.c_str());
}

TEST(ResultsFile, AFileThatCannotBeAppendedToIsAnErrorNamingIt) {
  const std::string dir = ::testing::TempDir() + "/arena_results_dir_test";
  std::filesystem::create_directories(dir);
  for (const std::string& path : {dir, dir + "/missing/r.jsonl"}) {
    try {
      prepare_results_file(path, kSpec5);
      FAIL() << path << " was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("'" + path + "'"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/missing"));
  // A new file is fine (and made, empty).
  const std::string fresh = dir + "/fresh.jsonl";
  std::remove(fresh.c_str());
  const ResultsFileContents c = prepare_results_file(fresh, kSpec5);
  EXPECT_TRUE(c.results.empty() && c.cut_lines.empty() && c.malformed.empty());
  EXPECT_EQ(file_text(fresh), "");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quax
