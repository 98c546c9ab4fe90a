// Fuzzing the balance lab's partial files (balance.partial.json, which `quax balance` resumes
// from): mutated partial files of real runs (tests/data/balance/) read as the command reads them
// (the bounded JSON parser), assembled into a report, written as text and as a compare table.
// Each is read or refused with one short line; nothing crashes (a partial file nested 100,000
// deep once did, and one of a few thousand levels grew memory with the square of its depth).
// QUAX_FUZZ_SECONDS sets the time (default 15 s).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "arena/balance_report.h"
#include "core/bounded_json.h"
#include "fuzz_harness.h"

namespace quax {
namespace {

std::vector<std::string> partial_seeds() {
  std::vector<std::string> names, seeds;
  for (const auto& e : std::filesystem::directory_iterator(std::string(QUAX_TEST_DATA_DIR) + "/balance"))
    names.push_back(e.path().string());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    std::ifstream in(name, std::ios::binary);
    seeds.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return seeds;
}

// What `quax balance` and `quax balance compare` do with a partial file.
void read_partial(const std::string& text) {
  const nlohmann::json partial = parse_json(text, "balance.partial.json");
  if (!partial.is_object()) throw std::runtime_error("not a JSON object");
  const nlohmann::json report = assemble_balance(partial);
  const std::string out = balance_text(report);
  if (out.empty()) throw fuzz::Broken{"an empty text report"};
  compare_markdown({{"a", report}, {"b", report}}, {"a/openings.svg", "b/openings.svg"});
}

fuzz::MutatorOptions partial_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"{",          "}",          "[",        "]",          "\"parts\":", "\"openings\":", "\"skill\":",
                  "\"games\":", "\"value\":", "\"low\":", "\"histogram\":", "\"seconds\":", "\"model_warnings\":",
                  "null",       "true",       "false",    "\"\"",       "\"x\"",      "1e400",         "-0.0",
                  "-1",         "2147483648", "\\u0000"};
  m.nesting = {{"[", "]"}, {"{\"a\":", "}"}};
  return m;
}

TEST(FuzzBalance, SeedsRead) {
  const auto seeds = partial_seeds();
  ASSERT_GE(seeds.size(), 3u);
  const fuzz::Report r = fuzz::read_each("balance", seeds, read_partial);
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every partial file a run wrote reads";
}

// Inputs that once failed (tests/data/fuzz/balance/): nesting 100,000 deep.
TEST(FuzzBalance, KeptInputsAreRefusedInOneLine) {
  const auto kept = fuzz::kept_inputs("balance");
  ASSERT_FALSE(kept.empty());
  const fuzz::Report r = fuzz::read_each("balance", kept, read_partial);
  fuzz::expect_all_refused(r, kept.size());
}

TEST(FuzzBalance, MutatedPartialFilesAreReadOrRefusedInOneLine) {
  const fuzz::Budget budget = fuzz::budget_from_env(15);
  fuzz::Mutator mutator(budget.seed, partial_seeds(), partial_mutations());
  const fuzz::Report r = fuzz::fuzz("balance", mutator, read_partial, budget);
  fuzz::expect_read_or_refused(r, "balance");
}

}  // namespace
}  // namespace quax
