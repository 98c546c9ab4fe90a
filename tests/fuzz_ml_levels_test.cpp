// Fuzzing level tables (the "levels" of a model's description, nets/model_levels.h, written by
// `quax levels`): the tables of the shipped models, mutated, read as a model's loader reads them
// and printed as `quax card` prints them. Each is read or refused with one short line, and a
// table read is one check_level_table accepts.
// QUAX_FUZZ_SECONDS sets the time (default 10 s).
#include <gtest/gtest.h>
#include <torch/script.h>

#include <string>
#include <vector>

#include "core/bounded_json.h"
#include "fuzz_harness.h"
#include "nets/model_levels.h"

namespace quax {
namespace {

// The level tables of the shipped models that carry one (all of them since `quax levels`).
std::vector<std::string> level_seeds() {
  std::vector<std::string> seeds;
  for (const char* name : {"quax-11.pt", "hex-11.pt", "crossway-19.pt", "quady-15.pt", "stymie-8.pt"}) {
    torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
    torch::jit::load(std::string(QUAX_SOURCE_DIR) + "/checkpoints/" + name, torch::kCPU, extra);
    const nlohmann::json description = parse_json(extra["quax.json"], name);
    if (description.contains("levels")) seeds.push_back(description.at("levels").dump());
  }
  return seeds;
}

void read_levels(const std::string& text) {
  const ModelLevels levels = model_levels_from_json(parse_json(text, "levels"));
  if (!check_level_table(levels.table).empty()) throw fuzz::Broken{"a table read that check_level_table refuses"};
  const auto lines = model_levels_lines(levels, Variant::kQuax);
  if (lines.size() < levels.table.size()) throw fuzz::Broken{"the card's lines miss a level"};
}

fuzz::MutatorOptions level_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"{",      "}",      "[",           "]",           "\"sims\":", "\"temperature\":", "\"elo\":",
                  "\"table\":", "\"size\":", "\"games\":", "null", "true", "false", "\"\"", "1e-39", "1e-300",
                  "-1",     "-0.0",   "1e400",       "2147483648",  "\\u0000"};
  m.nesting = {{"[", "]"}, {"{\"a\":", "}"}};
  return m;
}

TEST(FuzzLevelTables, ShippedTablesRead) {
  const auto seeds = level_seeds();
  ASSERT_GE(seeds.size(), 3u);
  const fuzz::Report r = fuzz::read_each("levels", seeds, read_levels);
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every shipped table reads";
}

TEST(FuzzLevelTables, MutatedTablesAreReadOrRefusedInOneLine) {
  const fuzz::Budget budget = fuzz::budget_from_env(10);
  fuzz::Mutator mutator(budget.seed, level_seeds(), level_mutations());
  const fuzz::Report r = fuzz::fuzz("levels", mutator, read_levels, budget);
  fuzz::expect_read_or_refused(r, "levels");
}

}  // namespace
}  // namespace quax
