// quax export: the exported file, loaded with plain torch::jit::load (as a user would),
// computes what the checkpoint's network computes, carries its description, and refuses
// bad sources with a message naming the file.
#include <gtest/gtest.h>
#include <torch/script.h>

#include <filesystem>
#include <fstream>

#include "mcts/selfplay_driver.h"
#include "mcts/simple_evaluators.h"
#include "nets/model_file.h"
#include "train/model_export.h"
#include "nets/net_evaluator.h"
#include "train/learner.h"
#include "train/shard.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

TrainConfig tiny_config() {
  TrainConfig c;
  c.game = GameSpec{Variant::kQuax, 5, true};
  c.net.blocks = 2;
  c.net.filters = 8;
  c.net.pool_every = 2;
  c.net.policy_channels = 4;
  c.net.value_channels = 4;
  c.net.value_hidden = 8;
  c.learn.batch_size = 16;
  c.learn.lr_warmup_steps = 1;
  c.replay.window_min = 50;
  c.replay.window_max = 100000;
  return c;
}

// A checkpoint after a few training steps, so that batch-norm statistics are not the
// initial ones (a module left in training mode would then give other outputs).
struct TrainedRun {
  std::string dir, checkpoint;
  std::unique_ptr<Learner> learner;
  std::unique_ptr<ReplayWindow> window;
};

TrainedRun make_trained_run(const std::string& name) {
  TrainedRun run;
  const TrainConfig c = tiny_config();
  run.dir = (fs::temp_directory_path() / ("quax_export_" + name + std::to_string(::getpid()))).string();
  fs::remove_all(run.dir);
  DriverOptions opt;
  opt.spec = c.game;
  opt.parallel_games = 8;
  opt.games_to_play = 16;
  opt.players[0].search.simulations = 8;
  opt.players[0].record_policy = true;
  opt.players[0].temperature_moves = 100;
  UniformEvaluator uniform;
  GameDriver driver(opt, {&uniform});
  std::vector<GameRecord> games;
  driver.run(16, [&](GameRecord&& g) { games.push_back(std::move(g)); });
  write_shard(new_shard_path(run.dir + "/selfplay", "t", 0), games);
  run.learner = std::make_unique<Learner>(c);
  run.window = std::make_unique<ReplayWindow>(c.game, c.replay);
  run.window->ingest_new(run.dir + "/selfplay");
  Rng rng(3);
  TrainingBatch b;
  for (int i = 0; i < 4; ++i) {
    run.window->sample(16, rng, &b);
    run.learner->train_step(b);
  }
  run.checkpoint = checkpoint_path(run.dir, run.learner->step());
  run.learner->save_checkpoint(run.checkpoint, RunState{});
  return run;
}

std::pair<torch::Tensor, torch::Tensor> forward(torch::jit::Module& m, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  auto out = m.forward({x}).toTuple();
  return {out->elements()[0].toTensor(), out->elements()[1].toTensor()};
}

TEST(Export, PlainTorchLoadGivesTheCheckpointsOutputs) {
  set_torch_threads(1);
  auto run = make_trained_run("roundtrip");
  const std::string out = run.dir + "/model.pt";
  const ExportedModel m = export_model(run.checkpoint, out);
  EXPECT_TRUE(m.from_checkpoint);
  EXPECT_EQ(m.step, 4);
  EXPECT_EQ(m.spec, tiny_config().game);
  EXPECT_FALSE(fs::exists(out + ".tmp"));
  EXPECT_FALSE(fs::exists(out + ".stage"));

  torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
  torch::jit::Module module = torch::jit::load(out, torch::kCPU, extra);
  EXPECT_FALSE(module.is_training());
  const auto desc = nlohmann::json::parse(extra["quax.json"]);
  EXPECT_EQ(desc.at("variant"), "quax");
  EXPECT_EQ(desc.at("size"), 5);
  EXPECT_EQ(desc.at("step"), 4);
  EXPECT_EQ(desc.at("format_version"), 1);
  EXPECT_EQ(desc.at("planes").size(), 8u);
  EXPECT_EQ(desc.at("planes")[0], "own_stones");
  EXPECT_EQ(desc.at("net").at("blocks"), 2);
  const auto& layout = desc.at("action_layout");
  EXPECT_EQ(layout.at("num_actions"), 3 * 25 + 2);
  EXPECT_EQ(layout.at("spatial_planes")[1].at("name"), "link_slash");
  EXPECT_EQ(layout.at("spatial_planes")[1].at("offset"), 25);
  EXPECT_EQ(layout.at("spatial_planes")[1].at("example"), "a1-b2");
  EXPECT_EQ(layout.at("extra_actions")[0].at("name"), "swap");
  EXPECT_EQ(layout.at("extra_actions")[0].at("index"), 75);
  EXPECT_EQ(layout.at("extra_actions")[1].at("name"), "pass");

  // Planes of real positions from the replay window, through the exported module and
  // through the learner's own inference path.
  TrainingBatch batch;
  Rng rng(9);
  run.window->sample(12, rng, &batch);
  const auto planes = torch::from_blob(batch.inputs.data(), {12, 8, 5, 5}, torch::kFloat32).clone();
  auto [policy, value] = forward(module, planes);
  ASSERT_EQ(policy.sizes(), (std::vector<int64_t>{12, 77}));
  ASSERT_EQ(value.sizes(), (std::vector<int64_t>{12}));
  std::vector<float> logits(12 * 77), values(12);
  std::vector<const GameState*> states(12, nullptr);
  NetEvaluator learner_net(run.learner->inference_model(Precision::kFloat32));  // the exported file is float32
  learner_net.evaluate(states, batch.inputs.data(), batch.mask.data(), logits.data(), values.data());
  const auto want_policy = torch::from_blob(logits.data(), {12, 77});
  const auto want_value = torch::from_blob(values.data(), {12});
  EXPECT_LT((policy - want_policy).abs().max().item<float>(), 1e-5f);
  EXPECT_LT((value - want_value).abs().max().item<float>(), 1e-5f);
  // Eval mode: a position's output does not depend on its batch.
  auto [one_policy, one_value] = forward(module, planes.slice(0, 3, 4));
  EXPECT_LT((one_policy[0] - policy[3]).abs().max().item<float>(), 1e-5f);

  // The reference outputs the Python check compares against are the checkpoint's too.
  const auto ref = reference_outputs(run.checkpoint, 6, 5);
  std::vector<float> ref_planes = ref.at("planes").get<std::vector<float>>();
  auto [p2, v2] = forward(module, torch::from_blob(ref_planes.data(), {6, 8, 5, 5}));
  const std::vector<float> ref_policy = ref.at("policy").get<std::vector<float>>();
  const std::vector<float> ref_value = ref.at("value").get<std::vector<float>>();
  EXPECT_LT((p2 - torch::from_blob(const_cast<float*>(ref_policy.data()), {6, 77})).abs().max().item<float>(), 1e-5f);
  EXPECT_LT((v2 - torch::from_blob(const_cast<float*>(ref_value.data()), {6})).abs().max().item<float>(), 1e-5f);

  // Exporting the exported file again changes nothing the network computes.
  const std::string again = run.dir + "/again.pt";
  EXPECT_FALSE(export_model(out, again).from_checkpoint);
  torch::jit::Module module2 = torch::jit::load(again);
  auto [policy2, value2] = forward(module2, planes);
  EXPECT_EQ((policy2 - policy).abs().max().item<float>(), 0.0f);
  fs::remove_all(run.dir);
}

TEST(Export, BadSourcesAreRefusedNamingTheFile) {
  const std::string dir = (fs::temp_directory_path() / ("quax_export_bad" + std::to_string(::getpid()))).string();
  fs::create_directories(dir);
  auto message = [](const std::string& src, const std::string& out) -> std::string {
    try {
      export_model(src, out);
    } catch (const std::runtime_error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(dir + "/none.pt", dir + "/o.pt"), "no such file '" + dir + "/none.pt'");
  {
    std::ofstream f(dir + "/junk.pt");
    f << "not a zip archive";
  }
  EXPECT_EQ(message(dir + "/junk.pt", dir + "/o.pt").rfind("'" + dir + "/junk.pt' is neither a quax checkpoint nor a model file", 0), 0u);
  EXPECT_FALSE(fs::exists(dir + "/o.pt"));
  fs::remove_all(dir);
}

// The layout written into model files comes from each game: as many plane names as spatial
// planes, each example the notation of its plane's first action, and a frame note that says
// "transposed" exactly for the games whose network frame transposes the board for White.
TEST(Export, ActionLayoutDescribesEveryVariant) {
  int count = 0;
  const VariantInfo* infos = all_variants(&count);
  for (int i = 0; i < count; ++i) {
    const GameSpec spec{infos[i].variant, infos[i].default_size, infos[i].swap_by_default};
    SCOPED_TRACE(infos[i].name);
    const auto state = new_game(spec);
    const auto layout = action_layout_json(spec);
    ASSERT_EQ(layout.at("spatial_planes").size(), static_cast<size_t>(state->spatial_planes()));
    for (int p = 0; p < state->spatial_planes(); ++p) {
      const int a = p * spec.size * spec.size;
      EXPECT_EQ(layout.at("spatial_planes")[p].at("offset"), a);
      std::string error;
      EXPECT_EQ(state->parse_action(layout.at("spatial_planes")[p].at("example").get<std::string>(), &error), a)
          << error;
    }
    // The note says "transposed" exactly when the game's own mapping transposes for White.
    std::vector<int> legal;
    while (state->to_move() != Player::kWhite && !state->is_over()) {
      state->legal_actions(&legal);
      state->apply(legal.front());
    }
    ASSERT_FALSE(state->is_over());
    const bool transposes = state->to_net_action(1) == spec.size;  // cell (row 0, col 1) -> (row 1, col 0)
    EXPECT_EQ(layout.at("frame").get<std::string>().find("transposed") != std::string::npos, transposes);
  }
  const auto torax = action_layout_json(GameSpec{Variant::kTorax, 5, false});
  EXPECT_EQ(torax.at("spatial_planes")[0].at("name"), "cell_or_block");
  const auto stymie = action_layout_json(GameSpec{Variant::kStymie, 5, true});
  EXPECT_EQ(stymie.at("spatial_planes")[1].at("name"), "square");
  EXPECT_EQ(stymie.at("spatial_planes")[1].at("example"), "a1+");
  EXPECT_NE(action_layout_json(GameSpec{Variant::kY, 9, true}).at("frame").get<std::string>().find("apex"),
            std::string::npos);
}

}  // namespace
}  // namespace quax
