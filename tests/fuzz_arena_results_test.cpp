// Fuzzing arena results files (arena/results_log.h), as `quax arena`, `quax ladder` and the
// server read them: mutated files of real results, read from a file, tallied and fitted as
// the arena's table is. Every line a read sets aside or calls malformed must be named in one
// short line. QUAX_FUZZ_SECONDS sets the time (default 20 s).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "arena/elo.h"
#include "arena/results_log.h"
#include "env/game_state.h"
#include "env/notation.h"
#include "env/rng.h"
#include "fuzz_harness.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string temp_dir() {
  const auto dir = fs::temp_directory_path() / ("quax_fuzz_results_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Real results files written by append_results: random games of a few specs between a few
// players, one file per spec and one mixing them, with a line cut short at the end.
std::vector<std::string> results_seeds(const std::string& dir) {
  const std::vector<GameSpec> specs = {GameSpec{Variant::kQuax, 5, true}, GameSpec{Variant::kHex, 5, true},
                                       GameSpec{Variant::kTorax, 5, false}};
  const std::vector<std::string> players = {"random", "uct:50", "mcts:20", "model:checkpoints/quax-5.pt"};
  Rng rng(3);
  std::vector<std::string> seeds;
  std::vector<GameResult> all;
  std::vector<int> legal;
  for (const GameSpec& spec : specs) {
    std::vector<GameResult> results;
    for (int game = 0; game < 6; ++game) {
      auto s = new_game(spec);
      std::vector<int> actions;
      while (!s->is_over()) {
        s->legal_actions(&legal);
        actions.push_back(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        s->apply(actions.back());
      }
      GameResult r;
      r.black = players[rng.below(4)];
      r.white = players[rng.below(4)];
      r.outcome = s->outcome();
      r.moves = static_cast<int>(actions.size());
      r.spec = spec;
      r.record = record_text(spec, actions);
      results.push_back(r);
    }
    const std::string path = dir + "/seed.jsonl";
    fs::remove(path);
    append_results(path, results);
    seeds.push_back(read_bytes(path));
    all.insert(all.end(), results.begin(), results.end());
  }
  const std::string path = dir + "/seed.jsonl";
  fs::remove(path);
  append_results(path, all);
  const std::string mixed = read_bytes(path);
  seeds.push_back(mixed);
  seeds.push_back(mixed + mixed.substr(0, mixed.find('\n') / 2));
  fs::remove(path);
  return seeds;
}

void check_line(const std::string& message) {
  if (message.find('\n') != std::string::npos || message.size() > 512)
    throw fuzz::Broken{"a set-aside or malformed line named in '" + message.substr(0, 400) + "'"};
}

// What the arena does with a results file: read it, tally the players and fit
// their ratings. Refuses (std::runtime_error) as load_results does: with the first malformed line.
void read_results(const std::string& bytes, const std::string& path) {
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  // The spec only picks which lines count; one is enough to go through every line.
  for (const GameSpec& spec : {GameSpec{Variant::kQuax, 5, true}}) {
    const ResultsFileContents contents = read_results_file(path, spec);
    for (const std::string& m : contents.malformed) check_line(m);
    for (const std::string& m : contents.cut_lines) check_line(m);
    if (!contents.malformed.empty()) throw std::runtime_error(contents.malformed.front());
    const Standings st = tally({}, contents.results, true);
    if (st.players.empty()) continue;
    const EloFit fit = fit_elo(static_cast<int>(st.players.size()), st.pairs, 0, 0.0, 1.0);
    for (double elo : fit.elo)
      if (!std::isfinite(elo)) throw fuzz::Broken{"a rating that is not finite"};
  }
}

fuzz::MutatorOptions results_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"{",        "}",          "[",         "]",       "\"size\":",   "\"swap\":", "\"variant\":",
                  "\"black\":", "\"result\":", "\"moves\":", "null",    "true",        "false",     "\"\"",
                  "\"draw\"",   "\"white\"",   "\\u0000",   "\\ud800", "\"hex\"",     "1e400",     "-0.0"};
  m.nesting = {{"[", "]"}, {"{\"a\":", "}"}};
  return m;
}

TEST(FuzzResults, SeedsRead) {
  const std::string dir = temp_dir();
  const auto seeds = results_seeds(dir);
  const fuzz::Report r =
      fuzz::read_each("results", seeds, [&](const std::string& in) { read_results(in, dir + "/r.jsonl"); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every real results file reads";
  fs::remove_all(dir);
}

// Inputs that once failed (tests/data/fuzz/results/): a line whose JSON error quoted the
// whole line back (nlohmann's "last read: '...'", unbounded and with raw control bytes).
TEST(FuzzResults, KeptInputsAreRefusedInOneLine) {
  const std::string dir = temp_dir();
  const auto kept = fuzz::kept_inputs("results");
  ASSERT_FALSE(kept.empty());
  const fuzz::Report r =
      fuzz::read_each("results", kept, [&](const std::string& in) { read_results(in, dir + "/r.jsonl"); });
  fuzz::expect_all_refused(r, kept.size());
  fs::remove_all(dir);
}

TEST(FuzzResults, MutatedFilesAreReadOrRefusedInOneLine) {
  const std::string dir = temp_dir();
  const fuzz::Budget budget = fuzz::budget_from_env(20);
  auto seeds = results_seeds(dir);
  for (const std::string& kept : fuzz::kept_inputs("results")) seeds.push_back(kept);
  fuzz::Mutator mutator(budget.seed, seeds, results_mutations());
  const fuzz::Report r = fuzz::fuzz(
      "results", mutator, [&](const std::string& in) { read_results(in, dir + "/r.jsonl"); }, budget);
  fuzz::expect_read_or_refused(r, "results");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
