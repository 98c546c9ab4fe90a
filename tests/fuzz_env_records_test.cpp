// Fuzzing game records (env/notation.h), as `quax replay`, `quax solve --position` and the
// server read them: mutated records of real games, parsed and replayed in every variant. A
// record is accepted or refused with one short line; one accepted is written back by
// record_text and must replay to the same moves. QUAX_FUZZ_SECONDS sets the time (default 20 s).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "env/game_state.h"
#include "env/notation.h"
#include "env/rng.h"
#include "fuzz_harness.h"
#include "test_data.h"

namespace quax {
namespace {

// Each variant on a small board (quick games, every kind of move), and quax on its default one.
std::vector<GameSpec> record_specs() {
  int count = 0;
  const VariantInfo* variants = all_variants(&count);
  std::vector<GameSpec> specs;
  for (int i = 0; i < count; ++i) {
    int size = variants[i].min_size + 2;
    while (!check_spec(GameSpec{variants[i].variant, size, variants[i].swap_by_default}).empty()) ++size;
    specs.push_back(GameSpec{variants[i].variant, size, variants[i].swap_by_default});
  }
  specs.push_back(default_spec(Variant::kQuax));
  return specs;
}

// Real records: random games of every spec (played out, stopped midway, resigned) and the
// sample quax games of the rule page.
std::vector<std::string> record_seeds(const std::vector<GameSpec>& specs) {
  std::vector<std::string> seeds;
  Rng rng(7);
  std::vector<int> legal;
  for (const GameSpec& spec : specs) {
    for (int game = 0; game < 3; ++game) {
      auto s = new_game(spec);
      std::vector<int> actions;
      const int stop = game == 1 ? 6 : 1 << 20;
      while (!s->is_over() && static_cast<int>(actions.size()) < stop) {
        s->legal_actions(&legal);
        actions.push_back(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
        s->apply(actions.back());
      }
      std::string text = record_text(spec, actions);
      if (game == 1) text += ", " + player_name(s->to_move()) + " resigns";
      seeds.push_back(text);
    }
  }
  for (const std::string& line : testing::read_test_data("quax-sample-games-overview.txt")) seeds.push_back(line);
  return seeds;
}

// What the commands do with a record: parse it, replay it in the game asked for. Throws
// std::runtime_error with the one-line error when it is refused in every spec; Broken when a
// replayed record does not read back the same.
void read_record(const std::string& text, const std::vector<GameSpec>& specs) {
  ParsedRecord record;
  std::string error;
  if (!parse_record(text, &record, &error)) throw std::runtime_error(error);
  bool replayed = false;
  for (const GameSpec& spec : specs) {
    std::vector<int> actions;
    auto state = replay_record(spec, record, &error, &actions);
    if (!state) {
      if (error.empty()) throw fuzz::Broken{"refused in " + describe(spec) + " without an error"};
      if (error.find('\n') != std::string::npos || error.size() > 512)
        throw fuzz::Broken{"refused in " + describe(spec) + " with the message '" + error.substr(0, 300) + "'"};
      continue;
    }
    replayed = true;
    state->board_text();
    ParsedRecord again;
    std::vector<int> again_actions;
    const std::string written = record_text(spec, actions);
    if (!written.empty() &&
        (!parse_record(written, &again, &error) || !replay_record(spec, again, &error, &again_actions) ||
         again_actions != actions))
      throw fuzz::Broken{"in " + describe(spec) + ", record_text gives '" + written.substr(0, 200) +
                         "', which does not replay to the same moves"};
  }
  if (!replayed) throw std::runtime_error(error);
}

fuzz::MutatorOptions record_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"swap", "pass", "resigns", "Black resigns", "White resigns", " resigns resigns", "-", "/", "\\",
                  "a1", "z26", "aa1", "a0", "a99999999999", "@", "\xc3\xa9", ",", ", ", "\t", "\r\n"};
  return m;
}

TEST(FuzzRecords, SeedsReplay) {
  const auto specs = record_specs();
  const auto seeds = record_seeds(specs);
  const fuzz::Report r =
      fuzz::read_each("records", seeds, [&](const std::string& in) { read_record(in, specs); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every real record replays";
}

// Records whose errors once quoted a hostile token twice or whole (kilobytes in one line).
TEST(FuzzRecords, KeptInputsAreRefusedInOneLine) {
  const auto specs = record_specs();
  const auto kept = fuzz::kept_inputs("records");
  ASSERT_FALSE(kept.empty());
  const fuzz::Report r = fuzz::read_each("records", kept, [&](const std::string& in) { read_record(in, specs); });
  fuzz::expect_all_refused(r, kept.size());
}

TEST(FuzzRecords, MutatedRecordsAreReadOrRefusedInOneLine) {
  const auto specs = record_specs();
  const fuzz::Budget budget = fuzz::budget_from_env(20);
  fuzz::Mutator mutator(budget.seed, record_seeds(specs), record_mutations());
  const fuzz::Report r =
      fuzz::fuzz("records", mutator, [&](const std::string& in) { read_record(in, specs); }, budget);
  // The mutations reach both sides of the reader.
  fuzz::expect_read_or_refused(r, "records");
}

}  // namespace
}  // namespace quax
