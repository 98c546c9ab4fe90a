// The client side of the text protocol (arena/gtp_process.h, arena/gtp_agent.h) against small
// shell programs that misbehave in each way a real program can: the games against a real one
// (`quax gtp` as the outside program) are in tests/cli/bench_strength.sh.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "arena/gtp_agent.h"
#include "arena/gtp_process.h"
#include "arena/match.h"
#include "env/game_state.h"
#include "mcts/baseline_agents.h"

namespace quax {
namespace {

// The message of the GtpProcessError that `f` throws; fails the test when it throws none.
template <typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const GtpProcessError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no GtpProcessError";
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Answers every command with "= <the command>", the second line "more" for `two`.
const char kEcho[] = R"(while read -r l; do if [ "$l" = two ]; then printf '= two\nmore\n\n'; else printf '= %s\n\n' "$l"; fi; done)";

TEST(GtpProcess, AnswersAreTheTextAfterTheEqualsSign) {
  GtpProcess p("echo", kEcho);
  EXPECT_EQ(p.ask("name", 10), "name");
  EXPECT_EQ(p.ask("two", 10), "two\nmore");
  EXPECT_EQ(p.ask("genmove black", 10), "genmove black");
}

TEST(GtpProcess, EveryFailureIsOneLineNamingTheProgramAndTheCommand) {
  {
    GtpProcess p("quits", "exit 3");
    const auto e = error_of([&] { p.ask("name", 10); });
    EXPECT_TRUE(has(e, "quits: exited with status 3")) << e;
    EXPECT_TRUE(has(e, "'name'")) << e;
  }
  {
    GtpProcess p("missing", "/nonexistent/engine --flag");
    const auto e = error_of([&] { p.ask("name", 10); });
    EXPECT_TRUE(has(e, "exited with status 127")) << e;  // the shell's "not found"
  }
  {
    GtpProcess p("refuses", "while read -r l; do printf '? unknown command\\n\\n'; done");
    const auto e = error_of([&] { p.ask("frobnicate", 10); });
    EXPECT_TRUE(has(e, "'frobnicate' refused: 'unknown command'")) << e;
    // A refusal leaves the program in step: the next command is answered.
    EXPECT_TRUE(has(error_of([&] { p.ask("name", 10); }), "'name' refused")) << e;
  }
  {
    GtpProcess p("silent", "read -r a; read -r b");  // never answers; quits at the second line
    const auto start = std::chrono::steady_clock::now();
    const auto e = error_of([&] { p.ask("name", 0.3); });
    EXPECT_TRUE(has(e, "silent: no answer to 'name' within 0.3 s")) << e;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 3);
  }
  {
    GtpProcess p("endless", "yes");  // lines without end and no blank one
    const auto e = error_of([&] { p.ask("name", 30); });
    EXPECT_TRUE(has(e, "longer than 1048576 bytes")) << e;
  }
  {
    GtpProcess p("not gtp", "while read -r l; do printf 'hello\\n\\n'; done");
    EXPECT_TRUE(has(error_of([&] { p.ask("name", 10); }), "answer to 'name' is not GTP: 'hello'"));
  }
  {
    GtpProcess p("twice", "while read -r l; do printf '= a\\n\\n= b\\n\\n'; done");
    EXPECT_EQ(p.ask("name", 10), "a");
    EXPECT_TRUE(has(error_of([&] { p.ask("version", 10); }), "wrote '= b' before 'version': more answers than commands"));
  }
}

// A program that keeps a log of the commands it got in $1 and answers genmove from a fixed
// list of moves; "play" and the rest are accepted.
std::string scripted_engine(const std::string& moves) {
  return "sh -c 'set -- " + moves +
         R"(; while read -r l; do case "$l" in genmove*) printf "= %s\n\n" "$1"; shift;; *) printf "=\n\n";; esac; done')";
}

const GameSpec kHex3{Variant::kHex, 3, false};

TEST(GtpAgent, ItsMovesAndResignationDecideTheGame) {
  // Two programs: Black opens b1 (the opening) and plays b2 b3, column b from row 1 to row 3,
  // which wins hex 3x3 for Black; White plays a1 a2. Each program hears the other's moves.
  GtpOpponent black, white;
  black.name = "black program";
  black.command = scripted_engine("b2 b3");
  white.name = "white program";
  white.command = scripted_engine("a1 a2");
  GtpAgent b(kHex3, black), w(kHex3, white);
  GameResult r = play_game(kHex3, b, w, {new_game(kHex3)->parse_action("b1", nullptr)});
  EXPECT_EQ(r.record, "b1 a1 b2 a2 b3");
  EXPECT_EQ(r.outcome, Outcome::kBlackWins);
  EXPECT_EQ(r.chosen[0], 2);  // the opening is not chosen
  EXPECT_EQ(r.chosen[1], 2);
  EXPECT_FALSE(r.resigned);
  // "resign" ends the game as a loss of the side that says it.
  auto random = make_random_agent(3);
  white.command = scripted_engine("resign");
  GtpAgent resigner(kHex3, white);
  r = play_game(kHex3, *random, resigner);
  EXPECT_TRUE(r.resigned);
  EXPECT_EQ(r.outcome, Outcome::kBlackWins);
  EXPECT_EQ(r.moves, 1);
}

TEST(GtpAgent, AnIllegalOrUnreadableMoveIsAnErrorNamingIt) {
  GtpOpponent o;
  o.name = "cheat";
  auto random = make_random_agent(5);
  o.command = scripted_engine("b1 b1 b1");  // b1 is the opening: taken
  GtpAgent taken(kHex3, o);
  const int b1 = new_game(kHex3)->parse_action("b1", nullptr);
  auto e = error_of([&] { play_game(kHex3, *random, taken, {b1}); });
  EXPECT_TRUE(has(e, "cheat: answered 'genmove white' with the illegal move 'b1'")) << e;
  o.command = scripted_engine("z9");
  GtpAgent off_board(kHex3, o);
  e = error_of([&] { play_game(kHex3, off_board, *random); });
  EXPECT_TRUE(has(e, "answered 'genmove black' with 'z9'")) << e;
}

TEST(GtpAgent, RefusesThePieRuleAndABadSetup) {
  GtpOpponent o;
  o.command = kEcho;
  EXPECT_THROW(GtpAgent(GameSpec{Variant::kHex, 3, true}, o), std::invalid_argument);
  // It answers name and version (asked first), and refuses the rest.
  o.command = R"(while read -r l; do case "$l" in name|version) printf '= x\n\n';; *) printf '? unknown command\n\n';; esac; done)";
  o.setup = split_gtp_setup(" boardsize 3 ;; param x 1;");
  EXPECT_EQ(o.setup, (std::vector<std::string>{"boardsize 3", "param x 1"}));
  EXPECT_TRUE(has(error_of([&] { GtpAgent(kHex3, o); }), "'boardsize 3' refused"));
}

TEST(GtpAgent, AnotherDriverThatDoesNotTellTheMovesIsRefused) {
  GtpOpponent o;
  o.name = "scripted";
  o.command = scripted_engine("a1");
  GtpAgent program(kHex3, o);
  auto state = new_game(kHex3);
  state->apply(state->parse_action("b2", nullptr));
  const auto e = error_of([&] { program.choose_action(*state); });
  EXPECT_TRUE(has(e, "told 0 moves of a game at move 1")) << e;
}

}  // namespace
}  // namespace quax
