// The names of a run directory's models and checkpoints: only the exact shapes are taken,
// listings ignore every other file, and temporaries of killed writes are removed from each of
// the run's directories.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/atomic_file.h"
#include "core/host_name.h"
#include "train/run_files.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::string temp_run(const std::string& name) {
  const auto dir = fs::temp_directory_path() / ("quax_ml_" + name + std::to_string(::getpid()));
  fs::remove_all(dir);
  for (const char* sub : {"models", "checkpoints", "selfplay"}) fs::create_directories(dir / sub);
  return dir.string();
}

void touch(const std::string& path) { std::ofstream(path) << "x"; }

TEST(RunFiles, NamesParseOnlyInTheirExactShape) {
  EXPECT_EQ(parse_model_name("model-0000000010.pt"), 10);
  EXPECT_EQ(parse_model_name("model-1234567890.pt"), 1234567890);
  EXPECT_EQ(fs::path(model_path("r", 10)).filename().string(), "model-0000000010.pt");
  EXPECT_EQ(parse_model_name(fs::path(model_path("r", 42)).filename().string()), 42);
  for (const char* bad : {"model-best.pt", "model-0000000010.pt.tmp123", "model-10.pt", "model-00000000100.pt",
                          "model-000000001x.pt", "xmodel-0000000010.pt", "model-0000000010.pth", "model-+000000010.pt",
                          "ckpt-0000000010.pt", ""})
    EXPECT_EQ(parse_model_name(bad), std::nullopt) << bad;
  EXPECT_EQ(parse_checkpoint_name("ckpt-0000000240.pt"), 240);
  for (const char* bad : {"ckpt-best.pt", "ckpt-0000000240.pt.tmp5", "ckpt-240.pt", "model-0000000240.pt"})
    EXPECT_EQ(parse_checkpoint_name(bad), std::nullopt) << bad;
}

TEST(RunFiles, ListingsIgnoreOtherFiles) {
  const auto run = temp_run("listing");
  for (int64_t step : {30, 0, 10}) touch(model_path(run, step));
  for (const char* stray : {"model-best.pt", "model-0000000040.pt.tmp99999999", "notes.txt", "model-5.pt"})
    touch(run + "/models/" + stray);
  fs::create_directories(run + "/models/model-0000000050.pt");  // a directory
  const auto models = list_models(run);
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models[0].step, 0);
  EXPECT_EQ(models[1].step, 10);
  EXPECT_EQ(models[2].step, 30);
  EXPECT_EQ(models[2].path, model_path(run, 30));

  touch(run + "/checkpoints/ckpt-0000000020.pt");
  touch(run + "/checkpoints/ckpt-best.pt");
  const auto checkpoints = list_checkpoints(run);
  ASSERT_EQ(checkpoints.size(), 1u);
  EXPECT_EQ(checkpoints[0].step, 20);
  EXPECT_TRUE(list_models(run + "/missing").empty());
  fs::remove_all(run);
}

TEST(RunFiles, StaleTemporariesAreRemovedFromEveryDirectoryOfTheRun) {
  const auto run = temp_run("temporaries");
  std::ifstream pid_max_file("/proc/sys/kernel/pid_max");
  long pid_max = 0;
  ASSERT_TRUE(pid_max_file >> pid_max);
  const std::string dead = ".tmp" + std::to_string(pid_max + 1);  // no process has this id
  ASSERT_FALSE(host_name_token().empty());
  const std::string dead_here = dead + "." + host_name_token();
  const std::vector<std::string> stale = {run + "/model.pt" + dead, run + "/models/model-0000000010.pt" + dead_here,
                                          run + "/checkpoints/ckpt-0000000010.pt" + dead,
                                          run + "/selfplay/shard-1234567890123-t-000000.qxs" + dead_here};
  // This process's own temporary (a write in progress), a finished file, and a temporary of
  // another machine sharing the directory (its pid says nothing here) stay.
  const std::vector<std::string> kept = {temporary_path_for(run + "/model.pt"), run + "/models/model-0000000010.pt",
                                         run + "/selfplay/bad/shard-1234567890123-t-000001.qxs" + dead,
                                         run + "/selfplay/shard-1234567890123-t-000002.qxs" + dead + ".otherhost7"};
  EXPECT_EQ(temporary_path_for("x"), "x.tmp" + std::to_string(::getpid()) + "." + host_name_token());
  fs::create_directories(run + "/selfplay/bad");
  for (const auto& f : stale) touch(f);
  for (const auto& f : kept) touch(f);
  EXPECT_EQ(remove_stale_run_temporaries(run), 4);
  for (const auto& f : stale) EXPECT_FALSE(fs::exists(f)) << f;
  for (const auto& f : kept) EXPECT_TRUE(fs::exists(f)) << f;
  EXPECT_EQ(remove_stale_run_temporaries(run + "/missing"), 0);
  fs::remove_all(run);
}

}  // namespace
}  // namespace quax
