// The auxiliary heads of issue 15 (net.ownership_head, net.soft_policy_head): the soft policy
// target, the replay window's ownership targets, a learner that learns them, checkpoints that
// keep them, inference exactly as without them, and model files (published and exported) that
// keep the ownership head alone (issue 55: `quax analysis`'s includeOwnership reads it).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>

#include "env/ownership.h"
#include "mcts/simple_evaluators.h"
#include "nets/model.h"
#include "train/model_export.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "train/learner.h"
#include "train/learner_internal.h"
#include "train/shard.h"
#include "ml_tiny_config.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

TrainConfig heads_config(bool ownership = true, bool soft = true) {
  TrainConfig c = tiny_net_config(5);
  c.net.ownership_head = ownership;
  c.net.soft_policy_head = soft;
  c.learn.batch_size = 16;
  c.learn.lr_warmup_steps = 1;
  c.replay.window_min = 50;
  c.replay.window_max = 100000;
  return c;
}

// Self-play games of the uniform evaluator, in one shard under <dir>/selfplay; every game ends
// on the board unless `resign_all` marks them resigned.
std::string make_shard(const TrainConfig& c, const std::string& name, int games, bool resign_all = false) {
  const auto dir = (fs::temp_directory_path() / ("quax_aux_" + name + std::to_string(::getpid()))).string();
  fs::remove_all(dir);
  DriverOptions opt;
  opt.spec = c.game;
  opt.parallel_games = 8;
  opt.games_to_play = games;
  opt.players[0].search.simulations = 8;
  opt.players[0].record_policy = true;
  opt.players[0].temperature_moves = 100;
  UniformEvaluator uniform;
  GameDriver driver(opt, {&uniform});
  std::vector<GameRecord> records;
  driver.run(games, [&](GameRecord&& g) {
    if (resign_all) {
      g.resigned = true;
      g.resigner = g.moves.back().mover == Player::kBlack ? Player::kWhite : Player::kBlack;
    }
    records.push_back(std::move(g));
  });
  write_shard(new_shard_path(dir + "/selfplay", "t", 0), records);
  return dir;
}

std::pair<torch::Tensor, torch::Tensor> forward(torch::jit::Module& m, const torch::Tensor& x) {
  torch::NoGradGuard no_grad;
  return run_model(m, x);
}

double entropy(const torch::Tensor& row) {
  const auto p = row.clamp_min(1e-30);
  return -(row * p.log()).sum().item<double>();
}

// --- Soft policy target --------------------------------------------------------------------

TEST(SoftPolicyTarget, SumsToOneIsThePolicyAtOneAndFlatterAtFour) {
  torch::manual_seed(5);
  // Search policies: a few legal actions each (the rest 0), one row with a single action.
  auto policy = torch::rand({6, 20}) * (torch::rand({6, 20}) < 0.4).to(torch::kFloat32);
  policy[5].zero_();
  policy[5][3] = 1.0f;
  policy[0][0] = 0.9f, policy[0][1] = 0.05f;
  policy = policy / policy.sum(1, true);
  const auto same = soft_policy_targets(policy, 1.0);
  const auto soft = soft_policy_targets(policy, 4.0);
  EXPECT_LT((same - policy).abs().max().item<float>(), 1e-6f);
  EXPECT_LT((soft.sum(1) - 1).abs().max().item<float>(), 1e-6f);
  EXPECT_TRUE(((soft > 0) == (policy > 0)).all().item<bool>()) << "actions the search gave nothing stay at 0";
  for (int r = 0; r < 5; ++r) {
    EXPECT_GT(entropy(soft[r]), entropy(policy[r]) + 0.05) << "row " << r;
    EXPECT_EQ(soft[r].argmax().item<int64_t>(), policy[r].argmax().item<int64_t>()) << "order kept";
  }
  EXPECT_FLOAT_EQ(soft[5][3].item<float>(), 1.0f);
  // T = 4 is the fourth root: 0.9 : 0.05 becomes 18^(1/4) : 1.
  EXPECT_NEAR((soft[0][0] / soft[0][1]).item<float>(), std::pow(18.0, 0.25), 1e-4);
}

// --- The network ---------------------------------------------------------------------------

TEST(AuxHeads, ForwardIsTheNetworkWithoutThem) {
  const TrainConfig c = heads_config();
  const ModelShape shape = model_shape_for(c.game);
  auto with = build_model(c.net, shape, 7);
  auto plain = build_model(c.net.without_aux_heads(), shape, 7);
  with.eval();
  plain.eval();
  const auto x = torch::rand({3, shape.planes, 5, 5});
  const auto [p1, v1] = forward(with, x);
  const auto [p0, v0] = forward(plain, x);
  EXPECT_TRUE(torch::equal(p1, p0)) << "the heads' weights come after all others: same start";
  EXPECT_TRUE(torch::equal(v1, v0));
  ASSERT_EQ(with.forward({x}).toTuple()->elements().size(), 2u) << "forward gives (policy, value) only";
  EXPECT_FALSE(plain.find_method("forward_aux").has_value());

  torch::NoGradGuard no_grad;
  const AuxOutputs aux = run_model_aux(with, x);
  EXPECT_TRUE(torch::equal(aux.policy_logits, p1));
  EXPECT_TRUE(torch::equal(aux.value, v1));
  EXPECT_EQ(aux.ownership.sizes(), (std::vector<int64_t>{3, kOwnershipPlanes, 5, 5}));
  EXPECT_EQ(aux.soft_policy_logits.sizes(), p1.sizes());
  // One head alone: the other's output is empty.
  auto own_only = build_model(heads_config(true, false).net, shape, 7);
  EXPECT_EQ(run_model_aux(own_only, x).soft_policy_logits.numel(), 0);

  // Inference (frozen, forward only) and the stripped module: no heads, the same outputs.
  for (auto* source : {&with}) {
    auto stripped = without_aux_heads(*source, c.net, shape);
    EXPECT_FALSE(stripped.find_method("forward_aux").has_value());
    EXPECT_FALSE(stripped.hasattr("own_w"));
    EXPECT_FALSE(stripped.hasattr("spolout_w"));
    EXPECT_EQ(model_state(stripped).size(), model_state(plain).size());
    const auto [ps, vs] = forward(stripped, x);
    EXPECT_TRUE(torch::equal(ps, p1));
    EXPECT_TRUE(torch::equal(vs, v1));
    auto frozen = make_inference_module(*source);
    EXPECT_FALSE(frozen.find_method("forward_aux").has_value());
    const auto [pf, vf] = forward(frozen, x);
    EXPECT_LT((pf - p1).abs().max().item<float>(), 1e-4f);
    EXPECT_LT((vf - v1).abs().max().item<float>(), 1e-4f);
  }
}

// --- Targets in the batch --------------------------------------------------------------------

TEST(ReplayOwnership, SamplesCarryTheGamesFinalBoard) {
  const TrainConfig c = heads_config();
  const auto dir = make_shard(c, "targets", 8);
  ReplayWindow window(c.game, c.replay, /*ownership_targets=*/true);
  ASSERT_GT(window.ingest_new(dir + "/selfplay"), 0);
  TrainingBatch b;
  Rng rng(1);
  window.sample(64, rng, &b);
  const int nn = 25, planes = b.planes;
  ASSERT_EQ(b.ownership.size(), 64u * kOwnershipPlanes * nn);
  ASSERT_EQ(b.ownership_weight.size(), 64u);
  int chain_cells = 0;
  for (int s = 0; s < 64; ++s) {
    EXPECT_EQ(b.ownership_weight[s], 1.0f);
    const float* own = b.ownership.data() + s * kOwnershipPlanes * nn;
    const float* in = b.inputs.data() + static_cast<size_t>(s) * planes * nn;
    // After the opening every stone of the input stays to the end: the targets are in the
    // input's frame and symmetry exactly when they agree with its stone planes.
    bool opening = true;
    for (int i = 0; i < nn; ++i) opening = opening && in[6 * nn + i] == 1.0f;  // swap available
    for (int i = 0; i < nn; ++i) {
      if (!opening && in[i] == 1.0f) {
        EXPECT_EQ(own[i], 1.0f) << "sample " << s << " cell " << i;
      }
      if (!opening && in[nn + i] == 1.0f) {
        EXPECT_EQ(own[i], -1.0f) << "sample " << s << " cell " << i;
      }
      if (own[nn + i] != 0.0f) {
        EXPECT_EQ(own[nn + i], own[i]);
      }
      chain_cells += own[nn + i] != 0.0f;
    }
  }
  EXPECT_GT(chain_cells, 64 * 3) << "every game has a winning chain";

  // Resigned games have no final board: weight 0, planes 0. Without ownership targets the
  // batch has none at all.
  const auto resigned = make_shard(c, "resigned", 4, /*resign_all=*/true);
  ReplayWindow none(c.game, c.replay, true);
  ASSERT_GT(none.ingest_new(resigned + "/selfplay"), 0);
  none.sample(16, rng, &b);
  ASSERT_EQ(b.ownership_weight.size(), 16u);
  for (float w : b.ownership_weight) EXPECT_EQ(w, 0.0f);
  for (float t : b.ownership) EXPECT_EQ(t, 0.0f);
  ReplayWindow off(c.game, c.replay);
  off.ingest_new(dir + "/selfplay");
  off.sample(4, rng, &b);
  EXPECT_TRUE(b.ownership.empty());
  EXPECT_TRUE(b.ownership_weight.empty());
  fs::remove_all(dir);
  fs::remove_all(resigned);
}

// --- Learning ----------------------------------------------------------------------------------

TEST(AuxHeads, TinyNetLearnsTheOwnershipOfAFixedBatch) {
  set_torch_threads(1);
  TrainConfig c = heads_config();
  c.learn.lr = 0.05;
  c.learn.ownership_loss_weight = 2.0;
  const auto dir = make_shard(c, "learn", 8);
  ReplayWindow window(c.game, c.replay, true);
  window.ingest_new(dir + "/selfplay");
  TrainingBatch b;
  Rng rng(2);
  window.sample(16, rng, &b);
  Learner learner(c);
  const StepMetrics first = learner.train_step(b);
  ASSERT_GT(first.aux_loss("ownership_loss"), 0.2) << "an untrained head cannot know the ending";
  ASSERT_GT(first.aux_loss("soft_policy_loss"), 0.0);
  StepMetrics last;
  for (int i = 0; i < 300; ++i) last = learner.train_step(b);
  EXPECT_LT(last.aux_loss("ownership_loss"), 0.3 * first.aux_loss("ownership_loss"));
  EXPECT_LT(last.aux_loss("soft_policy_loss"), first.aux_loss("soft_policy_loss"));
  // What the head predicts is tanh of its output, in the targets' terms (+1 the mover's).
  {
    torch::NoGradGuard no_grad;
    auto module = learner_module(learner).deepcopy();
    module.train(false);
    const auto x = torch::from_blob(b.inputs.data(), {16, b.planes, 5, 5});
    const auto predicted = torch::tanh(run_model_aux(module, x).ownership);
    const auto target = torch::from_blob(b.ownership.data(), {16, kOwnershipPlanes, 5, 5});
    const auto decided = target != 0;
    const double agree = ((predicted * target > 0) & decided).sum().item<double>() / decided.sum().item<double>();
    EXPECT_GT(agree, 0.95);
  }

  // A sample of weight 0 teaches the head nothing: with every weight 0 the loss is 0 and the
  // head's weights do not move (weight decay aside, which is 0 here).
  c.learn.weight_decay = 0;
  c.learn.momentum = 0;
  Learner fresh(c);
  std::fill(b.ownership_weight.begin(), b.ownership_weight.end(), 0.0f);
  auto& module = learner_module(fresh);
  const auto before = module.attr("own_w").toTensor().clone();
  EXPECT_EQ(fresh.train_step(b).aux_losses.at("ownership_loss"), 0.0);
  EXPECT_TRUE(torch::equal(module.attr("own_w").toTensor(), before));

  // A batch without ownership targets is refused by a net with the head.
  ReplayWindow off(c.game, c.replay);
  off.ingest_new(dir + "/selfplay");
  off.sample(4, rng, &b);
  EXPECT_THROW(fresh.train_step(b), std::invalid_argument);
  fs::remove_all(dir);
}

// --- Checkpoints and models ---------------------------------------------------------------------

TEST(AuxHeads, CheckpointKeepsTheHeadsAndOtherNetsAreRefused) {
  set_torch_threads(1);
  const TrainConfig c = heads_config();
  const auto dir = make_shard(c, "ckpt", 8);
  ReplayWindow window(c.game, c.replay, true);
  window.ingest_new(dir + "/selfplay");
  TrainingBatch b;
  Rng rng(3);
  Learner a(c);
  for (int i = 0; i < 3; ++i) {
    window.sample(16, rng, &b);
    a.train_step(b);
  }
  const std::string ckpt = checkpoint_path(dir, a.step());
  a.save_checkpoint(ckpt, RunState{});
  EXPECT_TRUE(checkpoint_config(ckpt).net.ownership_head);
  EXPECT_TRUE(checkpoint_config(ckpt).net.soft_policy_head);

  Learner resumed(c);
  resumed.load_checkpoint(ckpt);
  EXPECT_EQ(resumed.flat_state(), a.flat_state()) << "heads, trunk and momentum restored";
  window.sample(16, rng, &b);
  const StepMetrics ma = a.train_step(b), mr = resumed.train_step(b);
  EXPECT_EQ(ma.aux_loss("ownership_loss"), mr.aux_loss("ownership_loss"));
  EXPECT_EQ(ma.aux_loss("soft_policy_loss"), mr.aux_loss("soft_policy_loss"));
  EXPECT_EQ(ma.loss, mr.loss);

  // Without the heads, or with only one, the checkpoint is another network: one line naming both.
  for (const auto& other : {heads_config(false, false), heads_config(true, false)}) {
    Learner l(other);
    try {
      l.load_checkpoint(ckpt);
      ADD_FAILURE() << "a checkpoint with other heads was accepted";
    } catch (const std::runtime_error& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      EXPECT_NE(what.find("ownership_head, soft_policy_head"), std::string::npos) << what;
    }
  }
  // And a checkpoint without heads is refused by a net with them.
  Learner plain(heads_config(false, false));
  const std::string plain_ckpt = dir + "/plain.pt";
  plain.save_checkpoint(plain_ckpt, RunState{});
  Learner with(c);
  EXPECT_THROW(with.load_checkpoint(plain_ckpt), std::runtime_error);
  fs::remove_all(dir);
}

// A net with the soft policy head alone: its files are those of the net without heads (the
// ownership head, which files keep, is ModelFilesKeepTheOwnershipHead's).
TEST(AuxHeads, PublishedAndExportedModelsAreTodaysFormat) {
  set_torch_threads(1);
  const TrainConfig c = heads_config(false, true);
  const auto dir = make_shard(c, "export", 8);
  ReplayWindow window(c.game, c.replay, true);
  window.ingest_new(dir + "/selfplay");
  TrainingBatch b;
  Rng rng(4);
  Learner learner(c);
  const std::string exported = dir + "/exported.pt", published = dir + "/published.pt";
  for (int i = 0; i < 4; ++i) {  // BN statistics away from their start
    window.sample(16, rng, &b);
    learner.train_step(b);
    learner.publish_model(published);  // each with the weights of its step, checked at the last
  }
  const std::string ckpt = checkpoint_path(dir, learner.step());
  learner.save_checkpoint(ckpt, RunState{});
  export_model(ckpt, exported);

  // The learner's own network (with heads), in eval mode: what forward must still give.
  auto reference = learner_module(learner).deepcopy();
  reference.eval();
  window.sample(12, rng, &b);
  const auto x = torch::from_blob(b.inputs.data(), {12, b.planes, 5, 5}).clone();
  const auto [want_policy, want_value] = forward(reference, x);
  for (const auto& path : {exported, published}) {
    SCOPED_TRACE(path);
    torch::jit::ExtraFilesMap extra{{"quax.json", ""}};
    auto module = torch::jit::load(path, torch::kCPU, extra);
    module.eval();
    EXPECT_FALSE(module.find_method("forward_aux").has_value());
    EXPECT_FALSE(module.hasattr("own_w"));
    EXPECT_FALSE(module.hasattr("spolout_w"));
    const auto out = module.forward({x}).toTuple();
    ASSERT_EQ(out->elements().size(), 2u);
    EXPECT_LT((out->elements()[0].toTensor() - want_policy).abs().max().item<float>(), 1e-5f);
    EXPECT_LT((out->elements()[1].toTensor() - want_value).abs().max().item<float>(), 1e-5f);
    const auto desc = nlohmann::json::parse(extra["quax.json"]);
    EXPECT_EQ(desc.at("format_version"), 1);
    EXPECT_FALSE(desc.at("net").contains("ownership_head"));
    // The program's own loaders take it as any model.
    EXPECT_EQ(load_model_file(path).net, c.net.without_aux_heads());
    EXPECT_NE(load_inference_model(path, c.game, Precision::kFloat32), nullptr);
  }
  fs::remove_all(dir);
}

// A net with an ownership head: its published and exported files keep that head (forward_aux,
// "ownership_head" in the description) and drop the soft policy's; forward is unchanged, and
// evaluate_ownership gives the learner's own owner plane (tanh) in the network frame.
TEST(AuxHeads, ModelFilesKeepTheOwnershipHead) {
  set_torch_threads(1);
  const TrainConfig c = heads_config();
  const auto dir = make_shard(c, "ownfile", 8);
  ReplayWindow window(c.game, c.replay, true);
  window.ingest_new(dir + "/selfplay");
  TrainingBatch b;
  Rng rng(5);
  Learner learner(c);
  for (int i = 0; i < 3; ++i) {
    window.sample(16, rng, &b);
    learner.train_step(b);
  }
  const std::string exported = dir + "/exported.pt", published = dir + "/published.pt";
  learner.publish_model(published);
  const std::string ckpt = checkpoint_path(dir, learner.step());
  learner.save_checkpoint(ckpt, RunState{});
  export_model(ckpt, exported);

  auto reference = learner_module(learner).deepcopy();
  reference.eval();
  // Positions of a random game (the ownership head reads their planes).
  std::vector<std::unique_ptr<GameState>> states;
  Rng moves(9);
  std::vector<int> legal;
  for (auto s = new_game(c.game); !s->is_over() && states.size() < 6;) {
    states.push_back(s->clone());
    s->legal_actions(&legal);
    s->apply(legal[moves.below(static_cast<uint32_t>(legal.size()))]);
  }
  const int64_t n = 5, count = static_cast<int64_t>(states.size());
  auto x = torch::zeros({count, states[0]->num_planes(), n, n});
  std::vector<const GameState*> pointers;
  for (int64_t i = 0; i < count; ++i) {
    states[i]->encode(x[i].data_ptr<float>());
    pointers.push_back(states[i].get());
  }
  torch::Tensor want_owner;
  {
    torch::NoGradGuard no_grad;
    want_owner = torch::tanh(run_model_aux(reference, x).ownership.select(1, 0)).reshape({count, n * n});
  }
  const auto [want_policy, want_value] = forward(reference, x);
  for (const auto& path : {exported, published}) {
    SCOPED_TRACE(path);
    const LoadedModel loaded = load_model_file(path);
    NetConfig kept = c.net;
    kept.soft_policy_head = false;
    EXPECT_EQ(loaded.net, kept);
    EXPECT_EQ(loaded.description.at("net").at("ownership_head"), true);
    EXPECT_TRUE(loaded.module.find_method("forward_aux").has_value());
    EXPECT_TRUE(loaded.module.hasattr("own_w"));
    EXPECT_FALSE(loaded.module.hasattr("spolout_w"));
    auto module = loaded.module;
    const auto out = module.forward({x}).toTuple();
    ASSERT_EQ(out->elements().size(), 2u);
    EXPECT_LT((out->elements()[0].toTensor() - want_policy).abs().max().item<float>(), 1e-5f);
    EXPECT_LT((out->elements()[1].toTensor() - want_value).abs().max().item<float>(), 1e-5f);
    const auto model = load_inference_model(path, c.game, Precision::kFloat32);
    ASSERT_TRUE(inference_model_has_ownership(*model));
    std::vector<float> owner(static_cast<size_t>(count * n * n));
    evaluate_ownership(*model, pointers, owner.data());
    const auto got = torch::from_blob(owner.data(), {count, n * n});
    EXPECT_LT((got - want_owner).abs().max().item<float>(), 1e-5f);
  }
  // A net without the head: its files stay as before, and evaluate_ownership refuses them.
  Learner plain(heads_config(false, true));
  plain.publish_model(dir + "/plain.pt");
  const LoadedModel loaded = load_model_file(dir + "/plain.pt");
  EXPECT_FALSE(loaded.description.at("net").contains("ownership_head"));
  EXPECT_FALSE(loaded.module.find_method("forward_aux").has_value());
  const auto model = load_inference_model(dir + "/plain.pt", c.game, Precision::kFloat32);
  EXPECT_FALSE(inference_model_has_ownership(*model));
  std::vector<float> owner(n * n);
  EXPECT_THROW(evaluate_ownership(*model, {pointers[0]}, owner.data()), std::runtime_error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace quax
