// The network: output shapes, inference copy agreeing with the trainable module, and
// learning a tiny task (overfitting a few positions).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "env/game_state.h"
#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "nets/net_evaluator_internal.h"
#include "test_data.h"

namespace quax {
namespace {

NetConfig tiny_net() {
  NetConfig net;
  net.blocks = 2;
  net.filters = 16;
  net.pool_every = 2;
  net.policy_channels = 8;
  net.value_channels = 8;
  net.value_hidden = 16;
  return net;
}

// Planes of a few random positions of quax 5x5.
torch::Tensor random_positions(const ModelShape& shape, int count, uint64_t seed, std::vector<std::vector<uint8_t>>* masks) {
  Rng rng(seed);
  auto planes = torch::zeros({count, shape.planes, shape.size, shape.size});
  for (int i = 0; i < count; ++i) {
    auto s = new_game(shape.spec);
    const int moves = 1 + static_cast<int>(rng.below(6));
    std::vector<int> legal;
    for (int m = 0; m < moves && !s->is_over(); ++m) {
      s->legal_actions(&legal);
      s->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
    }
    if (s->is_over()) { --i; continue; }
    s->encode(planes[i].data_ptr<float>());
    std::vector<uint8_t> mask(shape.num_actions());
    s->legal_mask(mask.data());
    std::vector<uint8_t> net_mask(shape.num_actions(), 0);
    for (int a = 0; a < shape.num_actions(); ++a)
      if (mask[a]) net_mask[s->to_net_action(a)] = 1;
    masks->push_back(net_mask);
  }
  return planes;
}

TEST(Model, OutputShapesFollowTheActionLayout) {
  for (int size : {3, 5, 7}) {
    const auto shape = model_shape_for(GameSpec{Variant::kQuax, size, true});
    auto model = build_model(tiny_net(), shape, 1);
    auto [logits, value] = run_model(model, torch::zeros({4, shape.planes, size, size}));
    EXPECT_EQ(logits.size(0), 4);
    EXPECT_EQ(logits.size(1), 3 * size * size + 2);
    EXPECT_EQ(value.dim(), 1);
    EXPECT_EQ(value.size(0), 4);
    EXPECT_LE(value.abs().max().item<float>(), 1.0f);
  }
}

TEST(Model, InferenceCopyMatchesEvalModeModel) {
  const auto shape = model_shape_for(GameSpec{Variant::kQuax, 5, true});
  auto model = build_model(tiny_net(), shape, 7);
  std::vector<std::vector<uint8_t>> masks;
  auto x = random_positions(shape, 16, 3, &masks);
  // Move the BN statistics away from their initial values so folding them is tested.
  for (int i = 0; i < 3; ++i) run_model(model, x * (1.0 + i));
  model.eval();
  torch::NoGradGuard no_grad;
  auto [l1, v1] = run_model(model, x);
  auto fast = make_inference_module(model);
  auto [l2, v2] = run_model(fast, x);
  EXPECT_LT((l1 - l2).abs().max().item<float>(), 1e-4);
  EXPECT_LT((v1 - v2).abs().max().item<float>(), 1e-5);
}

// Model files keep the network code they were written with, and a change of that code that
// changes what it computes must bump kModelFormatVersion. A file of format 1 written before the
// pooled max became an adaptive max pool: today's network with its weights gives its outputs,
// from planes in either memory layout (in_convolution_layout).
TEST(Model, ComputesWhatItsFormatOneFilesCompute) {
  const LoadedModel file = load_model_file(testing::test_data_path("models/quax4-format1-amax.pt"));
  ASSERT_EQ(file.description.value("format_version", 0), 1);
  auto built = build_model(file.net, file.shape, 0);
  load_model_state(built, model_state(file.module));
  built.eval();
  auto old_code = file.module;
  old_code.eval();
  std::vector<std::vector<uint8_t>> masks;
  const auto x = random_positions(file.shape, 64, 11, &masks);
  torch::NoGradGuard no_grad;
  const auto [l0, v0] = run_model(old_code, x);
  // The weights matter to the outputs: the values are not all alike.
  EXPECT_GT((v0 - v0.mean()).abs().max().item<float>(), 1e-3);
  for (const auto& planes : {x, in_convolution_layout(x)}) {
    const auto [l1, v1] = run_model(built, planes);
    EXPECT_LT((l1 - l0).abs().max().item<float>(), 1e-5);
    EXPECT_LT((v1 - v0).abs().max().item<float>(), 1e-6);
    const auto [l2, v2] = run_model(old_code, planes);
    EXPECT_LT((l2 - l0).abs().max().item<float>(), 1e-5);
    EXPECT_LT((v2 - v0).abs().max().item<float>(), 1e-6);
  }
  EXPECT_TRUE(in_convolution_layout(x).is_contiguous(at::MemoryFormat::ChannelsLast));
}

// On the torus (torax) the network pads across the seam, so it sees no edge: moving every
// plane of the input around the torus moves the spatial logits (cells and both link planes)
// the same way and leaves the extra logits and the value as they were, in the trainable
// module and in its frozen inference copy. A zero-padded network fails this at every shift.
TEST(Model, OnTheTorusTheNetworkCommutesWithItsTranslations) {
  const int n = 5;
  // How far the spatial logits of `x` moved by (dr, dc) are from those of `x`, moved.
  auto translation_gap = [n](torch::jit::Module& net, const ModelShape& shape, const torch::Tensor& x, int dr, int dc) {
    const int spatial = shape.spatial_planes * n * n;
    const auto planes = [&](const torch::Tensor& logits) {
      return logits.slice(1, 0, spatial).reshape({-1, shape.spatial_planes, n, n});
    };
    const auto expected = torch::roll(planes(run_model(net, x).first), {dr, dc}, {2, 3});
    return (planes(run_model(net, torch::roll(x, {dr, dc}, {2, 3})).first) - expected).abs().max().item<float>();
  };
  torch::NoGradGuard no_grad;
  const auto shape = model_shape_for(GameSpec{Variant::kTorax, n, false});
  auto model = build_model(tiny_net(), shape, 9);
  const auto x = torch::randn({6, shape.planes, n, n});
  for (int i = 0; i < 3; ++i) run_model(model, x * (1.0 + i));  // BN statistics away from 0 and 1
  model.eval();
  auto fast = make_inference_module(model);
  const int spatial = shape.spatial_planes * n * n;
  for (auto* net : {&model, &fast}) {
    const auto [logits, value] = run_model(*net, x);
    for (auto [dr, dc] : {std::pair{1, 0}, std::pair{0, 2}, std::pair{3, 4}}) {
      EXPECT_LT(translation_gap(*net, shape, x, dr, dc), 1e-4) << "shift " << dr << "," << dc;
      const auto [moved_logits, moved_value] = run_model(*net, torch::roll(x, {dr, dc}, {2, 3}));
      EXPECT_LT((moved_logits.slice(1, spatial) - logits.slice(1, spatial)).abs().max().item<float>(), 1e-4);
      EXPECT_LT((moved_value - value).abs().max().item<float>(), 1e-5);
    }
  }
  // A square board keeps its edges: the same check fails for a quax network.
  const auto square = model_shape_for(GameSpec{Variant::kQuax, n, true});
  auto edged = build_model(tiny_net(), square, 9);
  edged.eval();
  EXPECT_GT(translation_gap(edged, square, torch::randn({6, square.planes, n, n}), 1, 0), 1e-3);
}

// bfloat16 inference gives float32 outputs within bfloat16's rounding of float32's: the
// policy (as probabilities) and the value within 0.03, and never the float32 module itself.
TEST(Model, BFloat16InferenceStaysCloseToFloat32) {
  if (!cpu_runs_bfloat16()) GTEST_SKIP() << "this CPU has no AVX-512: LibTorch cannot run bf16 convolutions";
  const auto shape = model_shape_for(GameSpec{Variant::kQuax, 5, true});
  auto model = build_model(tiny_net(), shape, 8);
  std::vector<std::vector<uint8_t>> masks;
  auto x = random_positions(shape, 32, 5, &masks);
  for (int i = 0; i < 3; ++i) run_model(model, x * (1.0 + i));
  model.eval();
  const auto fp32 = make_inference_model(model, shape, 0, Precision::kFloat32);
  const auto bf16 = make_inference_model(model, shape, 0, Precision::kBFloat16);
  EXPECT_EQ(inference_model_precision(*fp32), Precision::kFloat32);
  EXPECT_EQ(inference_model_precision(*bf16), Precision::kBFloat16);
  c10::InferenceMode guard;
  const auto [l1, v1] = run_inference(*fp32, x);
  const auto [l2, v2] = run_inference(*bf16, x);
  ASSERT_EQ(l2.scalar_type(), torch::kFloat32);
  ASSERT_EQ(v2.scalar_type(), torch::kFloat32);
  const float policy_gap = (torch::softmax(l1, 1) - torch::softmax(l2, 1)).abs().max().item<float>();
  const float value_gap = (v1 - v2).abs().max().item<float>();
  EXPECT_LT(policy_gap, 0.03f);
  EXPECT_LT(value_gap, 0.03f);
  // ...but it did round: a bfloat16 path that silently ran in float32 would give zero.
  EXPECT_GT((l1 - l2).abs().max().item<float>(), 0.0f);
  // auto resolves to one of the two, never to itself.
  EXPECT_NE(resolve_precision(Precision::kAuto), Precision::kAuto);
  Precision p;
  EXPECT_TRUE(parse_precision("bf16", &p));
  EXPECT_EQ(p, Precision::kBFloat16);
  EXPECT_FALSE(parse_precision("half", &p));
}

// `auto` on the CPU follows the measured speed of the two formats, not the CPU's flags: an Intel
// Xeon with AVX-512 BF16 and no AMX ran bf16 at 0.54x float32, an AMD EPYC at 1.3x.
TEST(Model, AutoPrecisionPicksTheFormatTheProbeMeasuresFaster) {
  std::vector<bool> probed;
  auto rates = [&](double fp32, double bf16) {
    return [&probed, fp32, bf16](bool bfloat16) {
      probed.push_back(bfloat16);
      return bfloat16 ? bf16 : fp32;
    };
  };
  // Without bfloat16 in hardware nothing is timed: float32.
  EXPECT_EQ(choose_cpu_precision(false, rates(1000, 5000)), Precision::kFloat32);
  EXPECT_TRUE(probed.empty());
  // The two machines measured: the AMD EPYC's 1.3x, the Intel Xeon's 0.54x.
  EXPECT_EQ(choose_cpu_precision(true, rates(1000, 1300)), Precision::kBFloat16);
  EXPECT_EQ(probed, (std::vector<bool>{false, true}));
  EXPECT_EQ(choose_cpu_precision(true, rates(8938, 4807)), Precision::kFloat32);
  // A gain inside the margin keeps float32's exact arithmetic; the margin itself takes bf16.
  EXPECT_EQ(choose_cpu_precision(true, rates(1000, 1050)), Precision::kFloat32);
  EXPECT_EQ(choose_cpu_precision(true, rates(1000, 1000 * kBfloat16NeededSpeedup)), Precision::kBFloat16);
  // The process's choice is made once and kept: every model of a run computes in one format.
  const Precision first = resolve_precision(Precision::kAuto);
  EXPECT_NE(first, Precision::kAuto);
  EXPECT_EQ(resolve_precision(Precision::kAuto), first);
  if (first == Precision::kBFloat16) {
    EXPECT_TRUE(cpu_runs_bfloat16());
  }
}

// The check behind publishing a self-play copy (train/model_publisher.h): a copy that
// computes the trained network passes, bfloat16 included; one that gives the same outputs
// for every position (what self-play saw on the GPU, docs/GPU.md) or another network is
// caught, with the sizes of the differences.
TEST(Model, ACopyThatComputesAnotherNetworkIsCaught) {
  const LoadedModel trained = load_model_file(std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-9.pt");
  const auto reference = make_inference_model(trained.module, trained.shape, trained.step, Precision::kFloat32);
  EXPECT_EQ(compare_model_outputs(*make_inference_model(trained.module, trained.shape, trained.step, Precision::kFloat32),
                                  *reference),
            "");
  if (cpu_runs_bfloat16()) {
    EXPECT_EQ(compare_model_outputs(
                  *make_inference_model(trained.module, trained.shape, trained.step, Precision::kBFloat16), *reference),
              "");
  }
  // Constant outputs: the heads' last layers see nothing of the position.
  auto constant = trained.module.deepcopy();
  {
    torch::NoGradGuard no_grad;
    for (const char* name : {"polout_w", "polx_w", "valout_w"}) constant.attr(name).toTensor().zero_();
  }
  const std::string caught =
      compare_model_outputs(*make_inference_model(constant, trained.shape, trained.step, Precision::kFloat32), *reference);
  EXPECT_NE(caught.find("computes another network"), std::string::npos) << caught;
  EXPECT_EQ(caught.find('\n'), std::string::npos) << caught;
  // Another network of the same shape.
  const auto other = make_inference_model(build_model(trained.net, trained.shape, 5), trained.shape, 0, Precision::kFloat32);
  EXPECT_NE(compare_model_outputs(*other, *reference), "");
}

TEST(Model, OverfitsAFewPositions) {
  torch::set_num_threads(1);
  const auto shape = model_shape_for(GameSpec{Variant::kQuax, 5, true});
  auto model = build_model(tiny_net(), shape, 11);
  std::vector<std::vector<uint8_t>> masks;
  const int count = 8;
  auto x = random_positions(shape, count, 5, &masks);
  // Each position gets one legal target action and a value of +1 or -1.
  auto target = torch::zeros({count, shape.num_actions()});
  auto mask = torch::zeros({count, shape.num_actions()}, torch::kBool);
  auto z = torch::zeros({count});
  std::vector<int> wanted(count);
  Rng rng(9);
  for (int i = 0; i < count; ++i) {
    std::vector<int> legal;
    for (int a = 0; a < shape.num_actions(); ++a)
      if (masks[i][a]) { legal.push_back(a); mask[i][a] = true; }
    wanted[i] = legal[rng.below(static_cast<uint32_t>(legal.size()))];
    target[i][wanted[i]] = 1.0f;
    z[i] = (i % 2) ? 1.0f : -1.0f;
  }
  auto params = model_parameters(model);
  torch::optim::SGD opt(params, torch::optim::SGDOptions(0.05).momentum(0.9));
  auto loss_of = [&] {
    auto [logits, value] = run_model(model, x);
    auto logp = torch::log_softmax(logits.masked_fill(~mask, -1e9), 1);
    return -(target * logp).sum(1).mean() + (value - z).pow(2).mean();
  };
  const float first = loss_of().item<float>();
  for (int step = 0; step < 300; ++step) {
    opt.zero_grad();
    auto loss = loss_of();
    loss.backward();
    opt.step();
  }
  model.eval();
  torch::NoGradGuard no_grad;
  const float last = loss_of().item<float>();
  EXPECT_LT(last, 0.1f * first) << "first " << first << " last " << last;
  auto [logits, value] = run_model(model, x);
  auto best = logits.masked_fill(~mask, -1e9).argmax(1);
  for (int i = 0; i < count; ++i) {
    EXPECT_EQ(best[i].item<int64_t>(), wanted[i]) << "position " << i;
    EXPECT_GT(value[i].item<float>() * z[i].item<float>(), 0.5f) << "position " << i;
  }
}

}  // namespace
}  // namespace quax
