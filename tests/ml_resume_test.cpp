// Checkpoints: a learner restored from a checkpoint continues bit for bit like the one that
// kept going (same weights, optimizer state and next samples); a checkpoint of another
// variant, size or net is refused with both named; stray files in checkpoints/ are ignored.
#include <gtest/gtest.h>
#include <torch/script.h>
#include <torch/torch.h>

#include <filesystem>
#include <functional>

#include "mcts/simple_evaluators.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "train/learner.h"
#include "train/shard.h"
#include "ml_tiny_config.h"
#include "core/bounded_json.h"

namespace quax {
namespace {

TrainConfig tiny_config() {
  TrainConfig c = tiny_net_config();
  c.learn.batch_size = 16;
  c.learn.lr_warmup_steps = 3;
  c.replay.window_min = 50;
  c.replay.window_max = 100000;
  return c;
}

std::string make_run_with_shards(const TrainConfig& c, const std::string& name) {
  const auto dir = (std::filesystem::temp_directory_path() / ("quax_ml_" + name + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  DriverOptions opt;
  opt.spec = c.game;
  opt.parallel_games = 4;
  opt.games_to_play = 24;
  opt.players[0].search.simulations = 12;
  opt.players[0].record_policy = true;
  opt.players[0].temperature_moves = 100;
  UniformEvaluator uniform;
  GameDriver driver(opt, {&uniform});
  std::vector<GameRecord> games;
  int shard = 0;
  driver.run(24, [&](GameRecord&& g) {
    games.push_back(std::move(g));
    if (games.size() == 8) {
      write_shard(new_shard_path(dir + "/selfplay", "t", shard++), games);
      games.clear();
    }
  });
  return dir;
}

struct Trace {
  std::vector<std::vector<float>> batches;
  std::vector<double> losses;
};

Trace train(Learner& learner, ReplayWindow& window, Rng& rng, int steps) {
  Trace t;
  TrainingBatch b;
  for (int i = 0; i < steps; ++i) {
    window.sample(16, rng, &b);
    t.batches.push_back(b.inputs);
    t.losses.push_back(learner.train_step(b).loss);
  }
  return t;
}

// Once per learn.precision: bf16 resumes exactly too (autocast's copies of the weights are
// made afresh at every step, so nothing of them outlives a step); and with the moving average
// of the weights (learn.ema_decay), which the checkpoint carries.
struct ResumeCase {
  Precision precision;
  double ema_decay;
};
class ResumeIsBitExact : public ::testing::TestWithParam<ResumeCase> {};

TEST_P(ResumeIsBitExact, InEachPrecision) {
  torch::set_num_threads(1);
  TrainConfig c = tiny_config();
  c.learn.precision = GetParam().precision;
  c.learn.ema_decay = GetParam().ema_decay;
  if (c.learn.precision == Precision::kBFloat16 && !cpu_runs_bfloat16()) {
    EXPECT_THROW(Learner refused(c), std::runtime_error);
    return;
  }
  const auto dir = make_run_with_shards(
      c, std::string("resume") + precision_name(GetParam().precision) + (GetParam().ema_decay > 0 ? "ema" : ""));
  // The original: 6 steps, a checkpoint, 6 more.
  Learner a(c);
  const size_t weights_only = a.flat_state().size();
  ReplayWindow wa(c.game, c.replay);
  ASSERT_GT(wa.ingest_new(dir + "/selfplay"), 0);
  Rng ra(99);
  train(a, wa, ra, 6);
  ASSERT_GT(a.flat_state().size(), weights_only) << "momentum buffers missing from the compared state";
  RunState st;
  st.windows = {WindowState{c.game.size, wa.ingested(), wa.total_positions()}};
  ra.get_state(st.rng);
  st.samples_trained = 6 * 16;
  const auto path = checkpoint_path(dir, a.step());
  a.save_checkpoint(path, st);
  EXPECT_EQ(latest_checkpoint(dir), path);
  const Trace rest_a = train(a, wa, ra, 6);

  // The resumed one: fresh objects with another seed, then the checkpoint.
  TrainConfig other_seed = c;
  other_seed.run.seed = 12345;
  Learner b(other_seed);
  EXPECT_NE(b.flat_state(), a.flat_state());
  const RunState back = b.load_checkpoint(path);
  EXPECT_EQ(b.step(), 6);
  ASSERT_EQ(back.windows.size(), 1u);
  EXPECT_EQ(back.windows[0].size, c.game.size);
  EXPECT_EQ(back.windows[0].ingested_shards, st.windows[0].ingested_shards);
  EXPECT_EQ(back.windows[0].total_positions, st.windows[0].total_positions);
  EXPECT_EQ(back.samples_trained, st.samples_trained);
  ReplayWindow wb(c.game, c.replay);
  wb.restore(dir + "/selfplay", back.windows[0].ingested_shards, back.windows[0].total_positions);
  EXPECT_EQ(wb.window_positions(), wa.window_positions());
  Rng rb;
  rb.set_state(back.rng);
  const Trace rest_b = train(b, wb, rb, 6);

  EXPECT_EQ(rest_b.batches, rest_a.batches);  // same next samples
  EXPECT_EQ(rest_b.losses, rest_a.losses);    // same forward results
  EXPECT_EQ(b.step(), a.step());
  EXPECT_EQ(b.flat_state(), a.flat_state());  // same weights, BN statistics, momentum
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Checkpoint, ResumeIsBitExact,
                         ::testing::Values(ResumeCase{Precision::kFloat32, 0}, ResumeCase{Precision::kBFloat16, 0},
                                           ResumeCase{Precision::kFloat32, 0.9}),
                         [](const auto& info) {
                           return std::string(precision_name(info.param.precision)) +
                                  (info.param.ema_decay > 0 ? "_moving_average" : "");
                         });

// The model file exported from a checkpoint describes itself and computes what the
// learner's network computes.
TEST(Checkpoint, ExportedModelMatchesTheLearner) {
  torch::set_num_threads(1);
  const TrainConfig c = tiny_config();
  const auto dir = make_run_with_shards(c, "export");
  Learner a(c);
  ReplayWindow w(c.game, c.replay);
  w.ingest_new(dir + "/selfplay");
  Rng rng(4);
  train(a, w, rng, 5);
  const auto ckpt = checkpoint_path(dir, a.step());
  a.save_checkpoint(ckpt, RunState{});
  EXPECT_EQ(dump_config(checkpoint_config(ckpt)), dump_config(c));
  const auto model_path = dir + "/exported.pt";
  EXPECT_EQ(export_checkpoint_model(ckpt, model_path), 5);
  const auto loaded = load_model_file(model_path);
  EXPECT_EQ(loaded.step, 5);
  EXPECT_EQ(loaded.shape.spec, c.game);
  EXPECT_EQ(loaded.net, c.net);
  EXPECT_EQ(loaded.description.at("num_actions").get<int>(), 3 * 16 + 2);

  TrainingBatch batch;
  w.sample(8, rng, &batch);
  std::vector<const GameState*> states(8, nullptr);
  std::vector<float> l1(8 * batch.actions), v1(8), l2(8 * batch.actions), v2(8);
  NetEvaluator mine(a.inference_model());
  NetEvaluator exported(load_inference_model(model_path, c.game));
  mine.evaluate(states, batch.inputs.data(), batch.mask.data(), l1.data(), v1.data());
  exported.evaluate(states, batch.inputs.data(), batch.mask.data(), l2.data(), v2.data());
  for (size_t i = 0; i < l1.size(); ++i) ASSERT_NEAR(l1[i], l2[i], 1e-5);
  for (size_t i = 0; i < v1.size(); ++i) ASSERT_NEAR(v1[i], v2[i], 1e-5);
  // A run of one size lists that size as the model's trained sizes.
  EXPECT_EQ(loaded.trained_sizes, std::vector<int>{4});
  EXPECT_EQ(loaded.description.at("sizes"), nlohmann::json::array({4}));
  // Another size of its variant plays, with one warning line; another variant is refused with
  // both named.
  ::testing::internal::CaptureStderr();
  EXPECT_NO_THROW(load_inference_model(model_path, GameSpec{Variant::kQuax, 5, true}));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "warning: model '" + model_path + "' was trained on quax 4x4, not 5x5; it plays that size untested\n");
  try {
    load_inference_model(model_path, GameSpec{Variant::kQuickway, 4, true});
    FAIL() << "accepted a quax model for quickway";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("the model is for quax 4x4, not quickway 4x4"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

TEST(Checkpoint, OtherVariantSizeOrNetIsRefusedNamingBoth) {
  const TrainConfig c = tiny_config();
  const auto dir = (std::filesystem::temp_directory_path() / ("quax_ml_refuse" + std::to_string(::getpid()))).string();
  Learner a(c);
  const auto path = checkpoint_path(dir, 0);
  a.save_checkpoint(path, RunState{});
  TrainConfig bigger = c;
  bigger.game.size = 5;
  TrainConfig wider = c;
  wider.net.filters = 16;
  TrainConfig link = c;
  link.game.variant = Variant::kLink;
  for (const auto& other : {bigger, wider, link}) {
    Learner b(other);
    try {
      b.load_checkpoint(path);
      FAIL() << "accepted a checkpoint of another shape";
    } catch (const std::runtime_error& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("is for quax 4x4 with a 1-block 8-filter net"), std::string::npos) << msg;
      EXPECT_NE(msg.find("this run is " + std::string(variant_info(other.game.variant).name)), std::string::npos)
          << msg;
    }
  }
  std::filesystem::remove_all(dir);
}

// A file in checkpoints/ that is not ckpt-<10 digits>.pt (a copy, a temporary of a killed
// write) is neither resumed from nor deleted by pruning.
TEST(Checkpoint, StrayFilesAreNeitherLatestNorPruned) {
  const TrainConfig c = tiny_config();
  const auto dir = (std::filesystem::temp_directory_path() / ("quax_ml_stray" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  Learner a(c);
  for (int64_t step : {10, 20, 30}) a.save_checkpoint(checkpoint_path(dir, step), RunState{});
  const std::vector<std::string> strays = {"ckpt-best.pt", "ckpt-0000000040.pt.tmp99999999", "ckpt-40.pt",
                                           "notes.txt"};
  for (const auto& name : strays) std::filesystem::copy_file(checkpoint_path(dir, 10), dir + "/checkpoints/" + name);
  EXPECT_EQ(latest_checkpoint(dir), checkpoint_path(dir, 30));
  prune_checkpoints(dir, 1, 30);
  EXPECT_FALSE(std::filesystem::exists(checkpoint_path(dir, 10)));
  EXPECT_FALSE(std::filesystem::exists(checkpoint_path(dir, 20)));
  EXPECT_TRUE(std::filesystem::exists(checkpoint_path(dir, 30)));
  for (const auto& name : strays) EXPECT_TRUE(std::filesystem::exists(dir + "/checkpoints/" + name)) << name;
  std::filesystem::remove_all(dir);
}


// Rewrites the meta record of checkpoint `path` with `change` applied (a crafted file).
void rewrite_meta(const std::string& path, const std::function<void(nlohmann::json&)>& change) {
  torch::jit::Module m = torch::jit::load(path);
  nlohmann::json meta = parse_json(m.attr("meta").toStringRef(), "meta");
  change(meta);
  m.setattr("meta", meta.dump());
  m.save(path);
}

// A checkpoint whose meta record is crafted is refused in one line naming the file and the
// field, before the learner changes ("rng": [] once read past the end of the list: SIGSEGV;
// a step of -5 was accepted; one of 2^62 made files that are never rotated; a name saying
// another step than the file holds was resumed from again and again).
TEST(Checkpoint, CraftedMetaRecordsAreRefusedNamingTheField) {
  const TrainConfig c = tiny_config();
  const auto dir = (std::filesystem::temp_directory_path() / ("quax_ml_meta" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  Learner a(c);
  const std::string good = checkpoint_path(dir, 0);
  a.save_checkpoint(good, RunState{});
  struct Case {
    const char* field;
    std::function<void(nlohmann::json&)> change;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"rng", [](nlohmann::json& m) { m["rng"] = nlohmann::json::array(); }, "'rng' is not a list of four numbers"},
      {"rng", [](nlohmann::json& m) { m["rng"] = {"1", "2", "3", "x"}; }, "'rng' is not a list of four numbers"},
      {"rng", [](nlohmann::json& m) { m["rng"] = {"1", "2", "3", "99999999999999999999"}; }, "64-bit"},
      {"step", [](nlohmann::json& m) { m["step"] = -5; }, "'step' is not an integer in [0, 9999999999]"},
      {"step", [](nlohmann::json& m) { m["step"] = int64_t{1} << 62; }, "'step' is not an integer in [0, 9999999999]"},
      {"step", [](nlohmann::json& m) { m["step"] = 7; }, "holds step 7, not the step 0 of its name"},
      {"samples_trained", [](nlohmann::json& m) { m["samples_trained"] = "many"; }, "'samples_trained' is not an integer"},
      {"net", [](nlohmann::json& m) { m["net"] = 5; }, "'net' is not an object"},
      {"ingested_shards", [](nlohmann::json& m) { m["ingested_shards"] = {1, 2}; }, "'ingested_shards' is not a list"},
      {"train_seconds", [](nlohmann::json& m) { m.erase("train_seconds"); }, "'train_seconds' is missing"},
  };
  for (const Case& k : cases) {
    const std::string path = checkpoint_path(dir, 0);
    std::filesystem::copy_file(good, path + ".good", std::filesystem::copy_options::overwrite_existing);
    rewrite_meta(path, k.change);
    Learner b(c);
    const auto before = b.flat_state();
    try {
      b.load_checkpoint(path);
      ADD_FAILURE() << k.field << ": accepted";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(k.says), std::string::npos) << what;
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_EQ(b.flat_state(), before) << k.field << ": the learner changed";
    std::filesystem::rename(path + ".good", path);
  }
  std::filesystem::remove_all(dir);
}

// A checkpoint whose tensors are crafted is refused naming the file, and the learner (model and
// momentum) is as it was: an empty count of optimizer groups once gave "a Tensor with 0 elements
// cannot be converted to Scalar", and a mis-shaped model tensor was found after the tensors before
// it had been copied.
TEST(Checkpoint, CraftedTensorsAreRefusedAndTheLearnerKept) {
  const TrainConfig c = tiny_config();
  const auto dir = (std::filesystem::temp_directory_path() / ("quax_ml_tensors" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  Learner a(c);
  const std::string good = checkpoint_path(dir, 0);
  a.save_checkpoint(good, RunState{});
  struct Case {
    const char* what;
    std::function<void(torch::jit::Module&)> change;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"empty group count",
       [](torch::jit::Module& m) {
         m.attr("optimizer").toModule().attr("param_groups").toModule().setattr("param_groups/size",
                                                                                  torch::empty({0}, torch::kLong));
       },
       "no count of parameter groups"},
      {"fractional group count",
       [](torch::jit::Module& m) {
         m.attr("optimizer").toModule().attr("param_groups").toModule().setattr("param_groups/size",
                                                                                  torch::tensor(1.5));
       },
       "no count of parameter groups"},
      {"last model tensor mis-shaped",
       [](torch::jit::Module& m) {
         auto model = m.attr("model").toModule();
         std::string last;  // the archive's last tensor (written as parameter or buffer)
         for (const auto& a : model.named_attributes(false))
           if (a.value.isTensor()) last = a.name;
         model.setattr(last, torch::zeros({3}));
       },
       "in the saved state, expected"},
  };
  for (const Case& k : cases) {
    const std::string path = checkpoint_path(dir, 0);
    std::filesystem::copy_file(good, path + ".good", std::filesystem::copy_options::overwrite_existing);
    {
      torch::jit::Module m = torch::jit::load(path);
      k.change(m);
      m.save(path);
    }
    Learner b(c);
    const auto before = b.flat_state();
    try {
      b.load_checkpoint(path);
      ADD_FAILURE() << k.what << ": accepted";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(k.says), std::string::npos) << k.what << ": " << what;
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_EQ(b.flat_state(), before) << k.what << ": the learner changed";
    std::filesystem::rename(path + ".good", path);
  }
  std::filesystem::remove_all(dir);
}

// A file named past the run's newest step is not the run's: rotation keeps the run's own newest
// checkpoints (it once counted the foreign file as the newest and deleted them).
TEST(Checkpoint, RotationKeepsTheRunsNewestBesideAForeignName) {
  const TrainConfig c = tiny_config();
  const auto dir = (std::filesystem::temp_directory_path() / ("quax_ml_foreign" + std::to_string(::getpid()))).string();
  std::filesystem::remove_all(dir);
  Learner a(c);
  for (int64_t step : {10, 20, 30}) a.save_checkpoint(checkpoint_path(dir, step), RunState{});
  std::filesystem::copy_file(checkpoint_path(dir, 10), checkpoint_path(dir, 9999999999));
  prune_checkpoints(dir, 2, 30);
  EXPECT_FALSE(std::filesystem::exists(checkpoint_path(dir, 10)));
  EXPECT_TRUE(std::filesystem::exists(checkpoint_path(dir, 20)));
  EXPECT_TRUE(std::filesystem::exists(checkpoint_path(dir, 30)));
  EXPECT_TRUE(std::filesystem::exists(checkpoint_path(dir, 9999999999)));
  // Resuming from it is refused (its name is not its step), naming an older one that reads.
  Learner b(c);
  EXPECT_THROW(b.load_checkpoint(checkpoint_path(dir, 9999999999)), std::runtime_error);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace quax
