// Fuzzing checkpoints' meta records (the JSON a learner checkpoint carries beside its tensors,
// train/learner.h): a tiny learner's checkpoint saved again with a mutated meta record, then
// resumed from as `quax train --resume` does (Learner::load_checkpoint). Each is resumed from or
// refused with one short line naming the file, and a refused one leaves the learner as it was
// ("rng": [] once read past the end of a list; a "net" nested 200,000 deep crashed the parser).
// QUAX_FUZZ_SECONDS sets the time (default 15 s).
#include <gtest/gtest.h>
#include <torch/script.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_harness.h"
#include "ml_tiny_config.h"
#include "train/learner.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

struct CheckpointFuzz {
  TrainConfig config = tiny_net_config();
  std::string dir = (fs::temp_directory_path() / ("quax_fuzz_ckpt_" + std::to_string(::getpid()))).string();
  std::string path = checkpoint_path(dir, 0);  // step 0: the seed's meta names that step
  torch::jit::Module saved;                     // the good checkpoint, meta replaced per input

  CheckpointFuzz() {
    fs::remove_all(dir);
    Learner learner(config);
    RunState state;
    state.windows.push_back(WindowState{config.game.size, {"selfplay/shard-0.bin"}, 1234});
    learner.save_checkpoint(path, state);
    saved = torch::jit::load(path);
  }
  ~CheckpointFuzz() { fs::remove_all(dir); }

  std::string seed_meta() const { return saved.attr("meta").toStringRef(); }

  // `meta` as the checkpoint's meta record, resumed from by a new learner.
  void resume_with(const std::string& meta) {
    torch::jit::Module m = saved.clone();
    m.setattr("meta", meta);
    m.save(path);
    Learner learner(config);
    const auto before = learner.flat_state();
    try {
      learner.load_checkpoint(path);
    } catch (const std::exception& e) {
      if (learner.flat_state() != before) throw fuzz::Broken{"a refused checkpoint changed the learner"};
      if (std::string(e.what()).find(path) == std::string::npos)
        throw fuzz::Broken{std::string("a refusal that does not name the file: ") + e.what()};
      throw;
    }
  }
};

fuzz::MutatorOptions meta_mutations() {
  fuzz::MutatorOptions m;
  m.dictionary = {"{",          "}",        "[",         "]",         "\"step\":", "\"rng\":",
                  "\"net\":",   "\"size_windows\":", "\"ingested_shards\":", "\"sizes\":", "\"variant\":",
                  "null",       "true",     "false",     "\"\"",      "\"x\"",     "1e400",
                  "-0.0",       "-1",       "9999999999", "10000000000", "4611686018427387904", "\\u0000"};
  m.nesting = {{"[", "]"}, {"{\"a\":", "}"}};
  return m;
}

TEST(FuzzCheckpointMeta, TheSeedResumes) {
  CheckpointFuzz f;
  const fuzz::Report r = fuzz::read_each("checkpoint-meta", {f.seed_meta()},
                                         [&](const std::string& in) { f.resume_with(in); });
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.accepted, 1) << "a checkpoint resumes with its own meta record";
}

// Meta records that once crashed the resume (tests/data/fuzz/checkpoint-meta/): an empty "rng",
// a "net" nested 200,000 deep.
TEST(FuzzCheckpointMeta, KeptInputsAreRefusedInOneLine) {
  CheckpointFuzz f;
  const auto kept = fuzz::kept_inputs("checkpoint-meta");
  ASSERT_GE(kept.size(), 2u);
  const fuzz::Report r =
      fuzz::read_each("checkpoint-meta", kept, [&](const std::string& in) { f.resume_with(in); });
  fuzz::expect_all_refused(r, kept.size());
}

TEST(FuzzCheckpointMeta, MutatedMetaRecordsAreResumedOrRefusedInOneLine) {
  CheckpointFuzz f;
  const fuzz::Budget budget = fuzz::budget_from_env(15);
  fuzz::Mutator mutator(budget.seed, {f.seed_meta()}, meta_mutations());
  fuzz::Limits limits;
  limits.seconds_per_input = 60;  // a checkpoint's save and load, on a loaded CI machine
  const fuzz::Report r = fuzz::fuzz(
      "checkpoint-meta", mutator, [&](const std::string& in) { f.resume_with(in); }, budget, limits);
  fuzz::expect_read_or_refused(r, "checkpoint-meta");
}

}  // namespace
}  // namespace quax
