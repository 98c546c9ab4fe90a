// Fuzzing training configs (train/config.h), as `quax train --config` reads them: mutated
// copies of the shipped configs (which extend configs/base/, copied beside them), with YAML's
// anchors, aliases, merge keys, tags and deep nesting among the edits. A config is read or
// refused with one short line (ConfigError); one read must dump (dump_config) to a text that
// reads back to the same dump. QUAX_FUZZ_SECONDS sets the time (default 20 s).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_harness.h"
#include "train/config.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

// A copy of configs/ (base/ included) in a temporary directory: mutated configs are read as
// files of that directory, so that their `extends` find the tiers.
std::string copy_of_configs() {
  const auto dir = fs::temp_directory_path() / ("quax_fuzz_config_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy(std::string(QUAX_SOURCE_DIR) + "/configs", dir / "configs", fs::copy_options::recursive);
  return (dir / "configs").string();
}

// The shipped configs; with `tiers`, the files of configs/base/ too (parts of a config, which
// need not read alone).
std::vector<std::string> config_seeds(const std::string& configs, bool tiers) {
  std::vector<std::string> names, seeds;
  for (const auto& e : fs::recursive_directory_iterator(configs))
    if (e.path().extension() == ".yaml" && (tiers || e.path().parent_path() == fs::path(configs)))
      names.push_back(e.path().string());
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    std::ifstream in(name, std::ios::binary);
    seeds.emplace_back((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }
  return seeds;
}

// What `quax train` does with a config: parse it (extends included), check it. One read
// dumps to a config that reads back the same.
void read_config(const std::string& text, const std::string& source) {
  const TrainConfig c = parse_config(text, source);
  check_config(c, source);
  const std::string dump = dump_config(c);
  std::string again;
  try {
    again = dump_config(parse_config(dump, source));
  } catch (const std::exception& e) {
    throw fuzz::Broken{std::string("a config read dumps to one that does not read: ") + e.what()};
  }
  if (again != dump) throw fuzz::Broken{"a config read dumps to one that reads back different"};
}

fuzz::MutatorOptions config_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"&a ",        "*a",          "&b ",        "*b",           "<<: ",       "<<: *a\n",   "!!str ",
                  "!!int ",     "!!binary ",   "!!map ",     "!foo ",        "{",          "}",          "[",
                  "]",          "- ",          ": ",         "? ",           "|\n",        ">-\n",       "'",
                  "\"",         "%YAML 1.2\n", "---\n",      "...\n",        "\t",         "#",          "~",
                  "null",       "true",        "yes",        "0x10",         "0o17",       "extends: ",  "base/small.yaml",
                  "\nextends: base/medium.yaml\n", "extends: fuzz.yaml\n", "sizes: [5, 7, 9]\n",
                  "size_weights: [1, 0]\n",        "lr_drops: [10, 5]\n",  "  "};
  m.nesting = {{"[", "]"}, {"{a: ", "}"}, {"- ", ""}};
  return m;
}

TEST(FuzzConfigs, ShippedConfigsRead) {
  const std::string configs = copy_of_configs();
  const auto seeds = config_seeds(configs, false);
  const fuzz::Report r = fuzz::read_each(
      "configs", seeds, [&](const std::string& in) { read_config(in, configs + "/fuzz.yaml"); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, static_cast<int64_t>(seeds.size())) << "every shipped config reads";
  fs::remove_all(fs::path(configs).parent_path());
}

// Inputs that once crashed the reader (an alias of its own mapping), spun in it (aliases of
// aliases), or made it answer with a raw newline or kilobytes of the input.
TEST(FuzzConfigs, KeptInputsAreRefusedInOneLine) {
  const std::string configs = copy_of_configs();
  const auto kept = fuzz::kept_inputs("configs");
  ASSERT_GE(kept.size(), 6u);
  const fuzz::Report r =
      fuzz::read_each("configs", kept, [&](const std::string& in) { read_config(in, configs + "/fuzz.yaml"); });
  fuzz::expect_all_refused(r, kept.size());
  fs::remove_all(fs::path(configs).parent_path());
}

TEST(FuzzConfigs, MutatedConfigsAreReadOrRefusedInOneLine) {
  const std::string configs = copy_of_configs();
  const fuzz::Budget budget = fuzz::budget_from_env(20);
  fuzz::Mutator mutator(budget.seed, config_seeds(configs, true), config_mutations());
  const fuzz::Report r = fuzz::fuzz(
      "configs", mutator, [&](const std::string& in) { read_config(in, configs + "/fuzz.yaml"); }, budget);
  fuzz::expect_read_or_refused(r, "configs");
  fs::remove_all(fs::path(configs).parent_path());
}

}  // namespace
}  // namespace quax
