// Fuzzing model descriptions (the quax.json inside a model file, nets/model_file.h): a real
// model (checkpoints/quax-5.pt) saved again with a mutated description, then loaded as the
// arena and the server load a player's model (load_inference_model: the description, the
// check against the game, a probe of the network). Saving and loading a model takes
// milliseconds, so this runs hundreds of inputs, not hundreds of thousands. QUAX_FUZZ_SECONDS
// sets the time (default 20 s).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_harness.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

const GameSpec kQuax5{Variant::kQuax, 5, true};

std::string temp_dir() {
  const auto dir = fs::temp_directory_path() / ("quax_fuzz_model_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir.string();
}

// The descriptions of the shipped models, as saved (quax-5.pt's first: its network is the one
// the mutated descriptions are saved with).
std::vector<std::string> description_seeds() {
  std::vector<std::string> seeds;
  for (const char* name : {"quax-5.pt", "quax-7.pt", "torax-5.pt", "stymie-5.pt", "quady-9.pt"}) {
    torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
    torch::jit::load(std::string(QUAX_SOURCE_DIR) + "/checkpoints/" + name, torch::kCPU, extra);
    seeds.push_back(extra["quax.json"]);
  }
  return seeds;
}

// `description` saved into the model as its quax.json, then loaded as a player's model for quax 5x5.
void load_with_description(const torch::jit::Module& model, const std::string& description, const std::string& path) {
  torch::jit::ExtraFilesMap extra{{"quax.json", description}};
  model.save(path, extra);
  load_inference_model(path, kQuax5);
}

fuzz::MutatorOptions description_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"{",         "}",         "[",         "]",           "\"size\": ", "\"sizes\": [",
                  "\"net\": ", "\"swap\": ", "null",      "true",        "false",      "\"\"",
                  "\"hex\"",   "\"torax\"", "\\u0000",   "\"blocks\": ", "-0.0",       "1e400"};
  m.nesting = {{"[", "]"}, {"{\"a\":", "}"}};
  return m;
}

TEST(FuzzModelDescriptions, ShippedDescriptionsLoad) {
  const std::string dir = temp_dir();
  const torch::jit::Module model = torch::jit::load(std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-5.pt");
  const std::vector<std::string> seeds = {description_seeds().front()};
  const fuzz::Report r = fuzz::read_each(
      "model-descriptions", seeds, [&](const std::string& in) { load_with_description(model, in, dir + "/m.pt"); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, 1) << "the model loads with its own description";
  fs::remove_all(dir);
}

// Descriptions that once crashed the loader ("size": 0.0) or made it quote kilobytes of the
// description back.
TEST(FuzzModelDescriptions, KeptInputsAreRefusedInOneLine) {
  const std::string dir = temp_dir();
  const torch::jit::Module model = torch::jit::load(std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-5.pt");
  const auto kept = fuzz::kept_inputs("model-descriptions");
  ASSERT_GE(kept.size(), 2u);
  const fuzz::Report r = fuzz::read_each(
      "model-descriptions", kept, [&](const std::string& in) { load_with_description(model, in, dir + "/m.pt"); });
  fuzz::expect_all_refused(r, kept.size());
  fs::remove_all(dir);
}

TEST(FuzzModelDescriptions, MutatedDescriptionsAreReadOrRefusedInOneLine) {
  const std::string dir = temp_dir();
  const torch::jit::Module model = torch::jit::load(std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-5.pt");
  const fuzz::Budget budget = fuzz::budget_from_env(20);
  fuzz::Mutator mutator(budget.seed, description_seeds(), description_mutations());
  fuzz::Limits limits;
  limits.seconds_per_input = 60;  // a model's load and probe, on a loaded CI machine
  const fuzz::Report r = fuzz::fuzz(
      "model-descriptions", mutator,
      [&](const std::string& in) { load_with_description(model, in, dir + "/m.pt"); }, budget, limits);
  fuzz::expect_read_or_refused(r, "model-descriptions");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
