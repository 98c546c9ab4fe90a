#include "nets/net_evaluator.h"

#include <fmt/format.h>
#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <vector>

#include "env/rng.h"

#include "nets/device_torch.h"
#include "nets/host_staging.h"
#include "nets/int8_network.h"
#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator_internal.h"

namespace quax {

namespace {

constexpr int kCalibrationPositions = 64;
constexpr uint64_t kProbeSeed = 0x9B0BE5;

std::shared_ptr<InferenceModel> build_inference_model(const torch::jit::Module& trainable, const ModelShape& shape,
                                                      int64_t step, Precision precision, const Device& device) {
  auto m = std::make_shared<InferenceModel>();
  m->device = resolve_device(device, "device");
  m->precision = resolve_precision_on(precision, m->device);
  if (auto err = check_precision_on(m->precision, m->device, "inference precision"); !err.empty())
    throw std::runtime_error(err);
  m->module = make_inference_module(trainable, m->precision == Precision::kBFloat16, torch_device(m->device));
  m->shape = shape;
  m->step = step;
  m->trained_sizes = {shape.size};
  if (m->precision == Precision::kInt8)
    m->int8 = std::make_shared<const Int8Network>(trainable, random_position_planes(shape, kCalibrationPositions, kProbeSeed));
  return m;
}

// How warnings name a model.
std::string model_label(const InferenceModel& m) {
  return m.source.empty() ? fmt::format("the model of step {}", m.step) : "model '" + m.source + "'";
}

// Prints the model's one warning when a legal action's logit or a value is NaN or inf.
void warn_if_nonfinite(const InferenceModel& model, int64_t batch, int64_t a, const uint8_t* masks,
                       const float* logits, const float* values) {
  bool bad = false;
  for (int64_t i = 0; i < batch && !bad; ++i) {
    bad = !std::isfinite(values[i]);
    for (int64_t x = 0; x < a && !bad; ++x) bad = (!masks || masks[i * a + x]) && !std::isfinite(logits[i * a + x]);
  }
  if (bad && !model.warned_nonfinite.exchange(true))
    std::fprintf(stderr,
                 "warning: %s gives non-finite outputs (NaN or inf) on some positions; the search uses uniform "
                 "priors and value 0 there (this warning is given once per model)\n",
                 model_label(model).c_str());
}

constexpr int kProbePositions = 8;
// compare_model_outputs' bounds.
constexpr double kMaxProbePolicyDistance = 0.1;
constexpr double kMaxProbeValueDifference = 0.2;

// The calibration of int8 copies starts with these positions too (the same seed).
torch::Tensor probe_planes(const ModelShape& shape) { return random_position_planes(shape, kProbePositions, kProbeSeed); }

}  // namespace

torch::Tensor random_position_planes(const ModelShape& shape, int count, uint64_t seed) {
  auto planes = torch::zeros({count, shape.planes, shape.size, shape.size}, torch::kFloat32);
  Rng rng(seed);
  std::vector<int> legal;
  for (int i = 0; i < count; ++i) {
    auto state = new_game(shape.spec);
    const int plies = i == 0 ? 0 : 1 + static_cast<int>(rng.below(static_cast<uint32_t>(shape.size * shape.size)));
    for (int p = 0; p < plies; ++p) {
      state->legal_actions(&legal);
      auto next = state->clone();
      next->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      if (next->is_over()) break;
      state = std::move(next);
    }
    state->encode(planes[i].data_ptr<float>());
  }
  return planes;
}

std::shared_ptr<const InferenceModel> make_inference_model(const torch::jit::Module& trainable,
                                                           const ModelShape& shape, int64_t step,
                                                           Precision precision, const Device& device) {
  return build_inference_model(trainable, shape, step, precision, device);
}

std::shared_ptr<const InferenceModel> load_inference_model(const std::string& path, const GameSpec& spec,
                                                           Precision precision, const Device& device) {
  auto loaded = load_model_file(path);  // onto the CPU
  auto model = build_inference_model(loaded.module, loaded.shape, loaded.step, precision, device);
  model->source = path;
  if (loaded.net.ownership_head) {
    if (!loaded.module.find_method("forward_aux"))
      throw std::runtime_error("model '" + path + "': its description names an ownership head that its network lacks (no forward_aux)");
    torch::jit::Module aux = loaded.module.deepcopy();
    aux.eval();
    aux.to(torch_device(model->device));
    for (auto p : aux.parameters()) p.set_requires_grad(false);
    model->ownership = aux;
  }
  model->trained_sizes = loaded.trained_sizes;
  if (auto err = check_model_plays(*model, spec); !err.empty()) throw std::runtime_error("model '" + path + "': " + err);
  if (auto err = probe_model_outputs(*model); !err.empty()) throw std::runtime_error("model '" + path + "': " + err);
  if (model->precision == Precision::kInt8) {
    // int8's rounding must leave the network it was made from; where it does not (a property
    // of the model), the model plays in float32, as train/model_publisher.cpp does.
    // Its float32 module is the reference: built already, beside the int8 network.
    auto fp32 = std::make_shared<InferenceModel>();
    fp32->module = model->module;
    fp32->shape = model->shape;
    fp32->step = model->step;
    if (auto err = compare_model_outputs(*model, *fp32); !err.empty()) {
      std::fprintf(stderr, "warning: model '%s' plays in fp32: in int8 it %s\n", path.c_str(), err.c_str());
      model->int8.reset();
      model->precision = Precision::kFloat32;
    }
  }
  return model;
}

std::string probe_model_outputs(const InferenceModel& model) {
  c10::InferenceMode guard;
  const auto [logits, values] = run_inference(model, probe_planes(model.shape));
  const auto finite = torch::isfinite(logits).all(1).logical_and(torch::isfinite(values));
  const int64_t bad = kProbePositions - finite.sum().item<int64_t>();
  if (bad == 0) return {};
  return fmt::format(
      "gives non-finite outputs (NaN or inf) on {} of {} probe positions (the start position and random legal "
      "ones): a diverged training run or a damaged file",
      bad, kProbePositions);
}

std::string compare_model_outputs(const InferenceModel& model, const InferenceModel& reference) {
  c10::InferenceMode guard;
  const auto planes = probe_planes(reference.shape);
  const auto [logits, values] = run_inference(model, planes);
  const auto [want_logits, want_values] = run_inference(reference, planes);
  const double policy_distance =
      (torch::softmax(logits, 1) - torch::softmax(want_logits, 1)).abs().sum(1).max().item<double>() / 2;
  const double value_difference = (values - want_values).abs().max().item<double>();
  if (policy_distance <= kMaxProbePolicyDistance && value_difference <= kMaxProbeValueDifference) return {};
  return fmt::format(
      "computes another network than its float32 copy on the CPU: on the {} probe positions its policies differ "
      "by up to {:.3f} (total variation, bound {:g}) and its values by up to {:.3f} (bound {:g}); bfloat16 "
      "rounding gives at most 0.02 and 0.05",
      kProbePositions, policy_distance, kMaxProbePolicyDistance, value_difference, kMaxProbeValueDifference);
}

std::string check_model_plays(const InferenceModel& model, const GameSpec& spec) {
  std::vector<std::string> warnings;
  const std::string err = check_model_matches(model.shape, model.trained_sizes, spec,
                                              model.source.empty() ? model_label(model) : model.source, &warnings);
  // Each warning once in a process (its text names the model, and the size where it is
  // about the size): arenas and ladders load a model for every game, gtp checks again at
  // every change of the game.
  static std::mutex mu;
  static std::set<std::string> given;
  std::lock_guard<std::mutex> lock(mu);
  for (const std::string& warning : warnings) {
    if (!given.insert(warning).second) continue;
    std::fprintf(stderr, "%s\n", warning.c_str());
    std::fflush(stderr);
  }
  return err;
}

int64_t inference_model_step(const InferenceModel& model) { return model.step; }
Precision inference_model_precision(const InferenceModel& model) { return model.precision; }
Device inference_model_device(const InferenceModel& model) { return model.device; }

namespace {

// "[8, 77]": a shape as the messages write it.
std::string shape_text(const torch::Tensor& t) { return fmt::format("[{}]", fmt::join(t.sizes(), ", ")); }

// The cause of a LibTorch error, without its C++ backtrace or TorchScript traceback.
std::string first_line(const std::exception& e) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&e);
  return torch_error_line(c10_error ? c10_error->what_without_backtrace() : e.what());
}

}  // namespace

std::string torch_error_line(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  if (line.rfind("The following operation failed in the TorchScript interpreter", 0) != 0) return line;
  // The generic header of an error raised inside a TorchScript model: its cause is the last
  // "<Kind>Error: ..." line of the trace below it.
  for (size_t at = message.find('\n'); at != std::string::npos; at = message.find('\n', at + 1)) {
    const size_t begin = at + 1, end = std::min(message.find('\n', begin), message.size());
    const size_t colon = message.find("Error: ", begin);
    if (colon < end && message.find(' ', begin) > colon) line = message.substr(begin, end - begin);
  }
  return line;
}

std::pair<torch::Tensor, torch::Tensor> run_inference(const InferenceModel& model, const torch::Tensor& planes) {
  const bool bf16 = model.precision == Precision::kBFloat16;
  const int64_t b = planes.size(0), n = planes.size(2);
  const int64_t a = model.shape.spatial_planes * n * n + model.shape.extra_actions;
  c10::IValue out;
  try {
    // A copy from pinned memory is queued without waiting; the outputs' copy back below waits
    // for it and for the forward pass.
    auto x = planes.to(torch_device(model.device), /*non_blocking=*/planes.is_pinned());
    if (model.int8) {
      auto [logits, values] = model.int8->forward(x);
      out = c10::ivalue::Tuple::create({logits, values});
    } else {
      out = const_cast<torch::jit::Module&>(model.module).forward({in_convolution_layout(bf16 ? x.to(torch::kBFloat16) : x)});
    }
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{} fails on a batch of planes [{}]: {}", model_label(model),
                                         fmt::join(planes.sizes(), ", "), first_line(e)));
  }
  // The one check of what a model gives, on every path that evaluates one (the load probe,
  // the search's batches, Model.evaluate): the callers copy B x A logits and B values out of
  // these tensors, so a model file whose outputs have any other shape is refused here.
  auto refuse = [&](const std::string& what) {
    throw std::runtime_error(fmt::format("{} gives {}; a batch of {} positions of {}x{} needs a tuple (policy "
                                         "logits [{}, {}], value [{}] or [{}, 1]) of floating-point tensors",
                                         model_label(model), what, b, n, n, b, a, b, b));
  };
  if (!out.isTuple()) refuse(fmt::format("a {}, not a tuple", out.tagKind()));
  const auto& t = out.toTupleRef().elements();
  if (t.size() < 2 || !t[0].isTensor() || !t[1].isTensor())
    refuse(fmt::format("a tuple of {} values that does not start with two tensors", t.size()));
  const torch::Tensor& logits = t[0].toTensor();
  const torch::Tensor& values = t[1].toTensor();
  if (!logits.is_floating_point() || !values.is_floating_point())
    refuse(fmt::format("outputs of type {} and {}", c10::toString(logits.scalar_type()), c10::toString(values.scalar_type())));
  const bool values_fit = (values.dim() == 1 && values.size(0) == b) ||
                          (values.dim() == 2 && values.size(0) == b && values.size(1) == 1);
  if (logits.dim() != 2 || logits.size(0) != b || logits.size(1) != a || !values_fit)
    refuse(fmt::format("policy logits {} and value {}", shape_text(logits), shape_text(values)));
  auto as_float = [](const torch::Tensor& x) { return x.to(torch::kFloat32).to(torch::kCPU).contiguous(); };
  return {as_float(logits), as_float(values.reshape({b}))};
}

void deliver_outputs(const InferenceModel& model, const torch::Tensor& logits, const torch::Tensor& values, int64_t row,
                     int64_t b, int64_t a, const uint8_t* masks, float* policy_logits, float* values_out) {
  // run_inference checked the shapes against the whole batch; the layout of the batch's game
  // and the model's must agree too (check_model_plays), or A would differ.
  if (logits.size(1) != a)
    throw std::runtime_error(fmt::format("{} gives {} policy logits for a game of {} actions", model_label(model),
                                         logits.size(1), a));
  std::memcpy(policy_logits, logits.data_ptr<float>() + row * a, sizeof(float) * b * a);
  std::memcpy(values_out, values.data_ptr<float>() + row, sizeof(float) * b);
  if (!model.warned_nonfinite.load(std::memory_order_relaxed))
    warn_if_nonfinite(model, b, a, masks, policy_logits, values_out);
}

bool inference_model_has_ownership(const InferenceModel& model) { return model.ownership.has_value(); }

void evaluate_ownership(const InferenceModel& model, const std::vector<const GameState*>& states, float* out) {
  if (!model.ownership) throw std::runtime_error(model_label(model) + " has no ownership head");
  if (states.empty()) return;
  const int64_t b = static_cast<int64_t>(states.size()), c = states[0]->num_planes(), n = states[0]->size();
  c10::InferenceMode guard;
  auto planes = torch::empty({b, c, n, n}, torch::kFloat32);
  for (int64_t i = 0; i < b; ++i) states[i]->encode(planes[i].data_ptr<float>());
  torch::Tensor own;
  try {
    auto x = in_convolution_layout(planes.to(torch_device(model.device)));
    auto result = const_cast<torch::jit::Module&>(*model.ownership).get_method("forward_aux")({x});
    own = result.toTupleRef().elements().at(2).toTensor();
  } catch (const std::exception& e) {
    throw std::runtime_error(fmt::format("{}'s ownership head fails on a batch of planes [{}, {}, {}, {}]: {}",
                                         model_label(model), b, c, n, n, first_line(e)));
  }
  if (own.dim() != 4 || own.size(0) != b || own.size(1) < 1 || own.size(2) != n || own.size(3) != n)
    throw std::runtime_error(fmt::format("{}'s ownership head gives {}, not [{}, 2, {}, {}]", model_label(model),
                                         shape_text(own), b, n, n));
  const auto owner = torch::tanh(own.select(1, 0).to(torch::kFloat32)).to(torch::kCPU).contiguous();
  std::memcpy(out, owner.data_ptr<float>(), sizeof(float) * b * n * n);
}

void set_torch_threads(int threads) { torch::set_num_threads(threads); }

NetEvaluator::NetEvaluator(std::shared_ptr<const InferenceModel> model)
    : model_(std::move(model)), staging_(std::make_unique<HostStaging>()) {}

NetEvaluator::~NetEvaluator() = default;

void NetEvaluator::set_model(std::shared_ptr<const InferenceModel> model) {
  std::lock_guard<std::mutex> lock(mu_);
  model_ = std::move(model);
}

std::shared_ptr<const InferenceModel> NetEvaluator::model() const {
  std::lock_guard<std::mutex> lock(mu_);
  return model_;
}

void NetEvaluator::evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                            float* policy_logits, float* values) {
  const auto model = this->model();
  const auto start = std::chrono::steady_clock::now();
  const int64_t b = static_cast<int64_t>(states.size());
  // The network is fully convolutional: the batch's board, not the model's, sets the shape.
  const GameState* first = states.empty() ? nullptr : states[0];
  const int64_t c = first ? first->num_planes() : model->shape.planes;
  const int64_t n = first ? first->size() : model->shape.size;
  const int64_t a = first ? first->num_actions() : model->shape.num_actions();
  c10::InferenceMode guard;
  auto x = torch::from_blob(const_cast<float*>(planes), {b, c, n, n}, torch::kFloat32);
  if (model->device.is_cuda()) {
    // Through pinned memory, whose copy to the GPU is asynchronous; on the CPU the network
    // reads the caller's buffer itself.
    auto staged = staging_->buffer(x.sizes(), model->device);
    staged.copy_(x);
    x = staged;
  }
  const auto [logits, value] = run_inference(*model, x);
  deliver_outputs(*model, logits, value, 0, b, a, masks, policy_logits, values);
  positions_ += b;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace quax
