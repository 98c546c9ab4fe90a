#include "train/learner.h"

#include <fmt/format.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/torch.h>

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <type_traits>
#include <nlohmann/json.hpp>

#include "core/bounded_json.h"
#include "core/atomic_file.h"
#include "env/ownership.h"
#include "nets/device_torch.h"
#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator_internal.h"
#include "train/autocast_guard.h"
#include "train/learner_internal.h"
#include "train/run_files.h"

namespace quax {

namespace {

// Turns off TorchScript's graph-executor optimisation on this thread while it lives (the flag
// is thread-local: self-play threads keep theirs).
struct UnoptimizedGraphs {
  UnoptimizedGraphs() : before(torch::jit::getGraphExecutorOptimize()) { torch::jit::setGraphExecutorOptimize(false); }
  ~UnoptimizedGraphs() { torch::jit::setGraphExecutorOptimize(before); }
  bool before;
};

}  // namespace

namespace fs = std::filesystem;

namespace {
// The learning rate's share at the first warm-up step, rising linearly to 1 at the last.
constexpr double kWarmupStart = 0.1;
// The logit illegal actions get before a softmax: exp() of it is 0 in float, and unlike -inf
// it gives no NaN on a row where the mask is all false.
constexpr double kIllegalLogit = -1e9;

nlohmann::json read_checkpoint_meta(const std::string& path, torch::serialize::InputArchive* archive) {
  try {
    // Onto the CPU whatever the tensors' device when written (checkpoints are written from
    // CPU tensors; this holds for any file a GPU machine made otherwise).
    archive->load_from(path, torch::Device(torch::kCPU));
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot read checkpoint '" + path + "'");
  }
  c10::IValue meta_value;
  if (!archive->try_read("meta", meta_value) || !meta_value.isString())
    throw std::runtime_error("'" + path + "' is not a quax checkpoint (no metadata)");
  return parse_json(meta_value.toStringRef(), "checkpoint '" + path + "': its meta record");
}

// The largest step a checkpoint may hold: its file name has ten digits (train/run_files.h),
// and a step past them would be a file never listed, so never rotated.
constexpr int64_t kMaxCheckpointStep = 9'999'999'999;

// A field of checkpoint `path`'s meta record, checked: missing, of another type, or (numbers)
// outside [lo, hi] is one line naming the file and the field.
struct MetaReader {
  const nlohmann::json& meta;
  const std::string& path;

  [[noreturn]] void bad(const std::string& key, const std::string& want) const {
    throw std::runtime_error(fmt::format("checkpoint '{}': its meta record's '{}' is {}", path, key, want));
  }
  const nlohmann::json& at(const std::string& key) const {
    if (!meta.is_object() || !meta.contains(key)) bad(key, "missing");
    return meta.at(key);
  }
  int64_t integer(const nlohmann::json& v, const std::string& key, int64_t lo, int64_t hi) const {
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > static_cast<uint64_t>(hi)) ||
        v.get<int64_t>() < lo || v.get<int64_t>() > hi)
      bad(key, fmt::format("not an integer in [{}, {}]", lo, hi));
    return v.get<int64_t>();
  }
  int64_t integer(const std::string& key, int64_t lo, int64_t hi) const { return integer(at(key), key, lo, hi); }
  double number(const std::string& key, double lo, double hi) const {
    const auto& v = at(key);
    if (!v.is_number() || !(v.get<double>() >= lo && v.get<double>() <= hi))
      bad(key, fmt::format("not a number in [{}, {}]", lo, hi));
    return v.get<double>();
  }
  std::string text(const std::string& key) const {
    if (!at(key).is_string()) bad(key, "not a string");
    return at(key).get<std::string>();
  }
  std::vector<std::string> texts(const nlohmann::json& v, const std::string& key) const {
    if (!v.is_array()) bad(key, "not a list of strings");
    std::vector<std::string> out;
    for (const auto& e : v) {
      if (!e.is_string()) bad(key, "not a list of strings");
      out.push_back(e.get<std::string>());
    }
    return out;
  }
  std::vector<int> sizes() const {
    if (!meta.contains("sizes")) return {static_cast<int>(integer("size", 1, 1000))};
    const auto& v = at("sizes");
    if (!v.is_array() || v.empty()) bad("sizes", "not a list of board sizes");
    std::vector<int> out;
    for (const auto& e : v) out.push_back(static_cast<int>(integer(e, "sizes", 1, 1000)));
    return out;
  }
  // The generator's four words, written as decimal strings (JSON numbers lose 64-bit words).
  void rng(uint64_t out[4]) const {
    const auto& v = at("rng");
    if (!v.is_array() || v.size() != 4) bad("rng", "not a list of four numbers");
    for (int i = 0; i < 4; ++i) {
      const auto& word = v[static_cast<size_t>(i)];
      const std::string digits = word.is_string() ? word.get<std::string>() : "";
      if (digits.empty() || digits.size() > 20 || digits.find_first_not_of("0123456789") != std::string::npos)
        bad("rng", "not a list of four numbers");
      errno = 0;
      out[i] = std::strtoull(digits.c_str(), nullptr, 10);
      if (errno == ERANGE) bad("rng", "not a list of four 64-bit numbers");
    }
  }
};

// The number of parameter groups of an optimizer saved by torch::optim::Optimizer::save, in
// checkpoint `path`; throws naming the file when the record is not one whole number (an empty
// tensor once gave "a Tensor with 0 elements cannot be converted to Scalar").
int64_t optimizer_groups(torch::serialize::InputArchive& archive, const std::string& path) {
  torch::serialize::InputArchive groups;
  torch::Tensor size;
  if (!archive.try_read("param_groups", groups) || !groups.try_read("param_groups/size", size) ||
      size.numel() != 1 || size.is_floating_point() || size.is_complex() || size.item<int64_t>() < 1)
    throw std::runtime_error("checkpoint '" + path + "': its optimizer record has no count of parameter groups");
  return size.item<int64_t>();
}

// The first line of a LibTorch error (the rest is its C++ backtrace).
std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }
}  // namespace

struct Learner::Impl {
  TrainConfig config;
  ModelShape shape;
  torch::jit::Module model;
  std::unique_ptr<torch::optim::SGD> optimizer;
  int64_t step = 0;
  double training_minutes = 0;  // the run's clock, for learn.lr_minutes
  int nonfinite_in_a_row = 0;
  bool bfloat16 = false;  // learn.precision resolved
  Device device = kCpuDevice;  // learn.device resolved: where the model, its optimizer state and the batches are
  torch::Device torch_dev{torch::kCPU};

  // Moves the optimizer's momentum to `to` (a no-op where it is already there): to the
  // learner's device after a checkpoint was read, and to the CPU and back around writing one.
  void move_optimizer_state(const torch::Device& to) {
    for (auto& [key, state] : optimizer->state()) {
      auto& sgd = static_cast<torch::optim::SGDParamState&>(*state);
      if (sgd.momentum_buffer().defined()) sgd.momentum_buffer(sgd.momentum_buffer().to(to));
    }
  }

  // A step that cannot be taken: the forward pass already moved the BN statistics, which
  // go back to `saved_buffers`.
  StepMetrics skip_step(double loss, const std::vector<torch::Tensor>& saved_buffers) {
    torch::NoGradGuard no_grad;
    size_t i = 0;
    for (const auto& b : model.named_buffers(false)) b.value.copy_(saved_buffers[i++]);
    optimizer->zero_grad();
    ++nonfinite_in_a_row;
    if (nonfinite_in_a_row >= config.learn.max_nonfinite_steps)
      throw NonFiniteTrainingError(fmt::format(
          "{} training steps in a row had a non-finite loss or gradient (NaN or inf) after step {} "
          "(learn.max_nonfinite_steps): the training has diverged or its data is broken",
          nonfinite_in_a_row, step));
    StepMetrics out;
    out.skipped = true;
    out.loss = loss;
    return out;
  }

  // Momentum from a checkpoint. Checkpoints before the weight-decay groups hold one group of
  // every parameter: read into an optimizer of that shape over the same tensors, whose state
  // is keyed by tensor, then moved over.
  void load_optimizer(torch::serialize::InputArchive& archive, int64_t groups) {
    if (groups == 1) {
      torch::optim::SGD one_group(model_parameters(model), torch::optim::SGDOptions(config.learn.lr));
      one_group.load(archive);
      for (auto& [key, state] : one_group.state()) optimizer->state()[key] = state->clone();
    } else {
      optimizer->load(archive);
    }
    move_optimizer_state(torch_dev);
  }

  // learn.ema_decay > 0: the moving average of every tensor of model_state(model), in its
  // order (train/config.h); empty when off.
  std::vector<torch::Tensor> ema;

  // The average restarts at the model's tensors (a fresh net, a warm start, a checkpoint
  // written without one).
  void reset_ema() {
    ema.clear();
    if (config.learn.ema_decay <= 0) return;
    for (const auto& [name, t] : model_state(model)) ema.push_back(t.detach().clone());
  }
  // After a step: floating tensors move towards the model's, counters are copied.
  void update_ema() {
    if (ema.empty()) return;
    const double d = std::min(config.learn.ema_decay, (1.0 + static_cast<double>(step)) / (10.0 + static_cast<double>(step)));
    torch::NoGradGuard no_grad;
    size_t i = 0;
    for (const auto& [name, t] : model_state(model)) {
      auto& e = ema[i++];
      if (t.is_floating_point())
        e.mul_(d).add_(t.detach(), 1 - d);
      else
        e.copy_(t);
    }
  }
  // The network published to self-play, snapshots and model files: the model itself, or a
  // copy holding the moving average.
  torch::jit::Module published() const {
    if (ema.empty()) return model;
    torch::jit::Module copy = model.deepcopy();
    std::vector<std::pair<std::string, torch::Tensor>> state;
    size_t i = 0;
    for (const auto& [name, t] : model_state(model)) state.emplace_back(name, ema[i++]);
    load_model_state(copy, state);
    return copy;
  }

  // What inference and model files use: the published network without its auxiliary heads.
  torch::jit::Module plain_module() const { return without_aux_heads(published(), config.net, shape); }

  // The forward pass of a training step: the heads' outputs in float32 (undefined for heads
  // the net lacks). Only this runs under autocast, so the loss and (through autograd) the
  // gradients of the float32 master weights are float32.
  struct Heads {
    torch::Tensor logits, value, ownership, soft_logits;
  };
  Heads forward(const torch::Tensor& x) {
    Heads h;
    {
      const AutocastGuard autocast(bfloat16, torch_dev.type());
      if (config.net.has_aux_heads()) {
        auto out = run_model_aux(model, x);
        h = {out.policy_logits, out.value, out.ownership, out.soft_policy_logits};
      } else {
        std::tie(h.logits, h.value) = run_model(model, x);
      }
    }
    for (torch::Tensor* t : {&h.logits, &h.value, &h.ownership, &h.soft_logits})
      if (t->defined()) *t = t->to(torch::kFloat32);
    return h;
  }

  // Whether every gradient is finite (after backward).
  bool gradients_finite() const {
    torch::NoGradGuard no_grad;
    // On the learner's device: LibTorch 2.x refuses a CPU tensor beside a GPU one here.
    auto finite = torch::ones({}, torch::TensorOptions().dtype(torch::kBool).device(torch_dev));
    for (const auto& group : optimizer->param_groups())
      for (const auto& p : group.params())
        if (p.grad().defined()) finite = finite.logical_and(torch::isfinite(p.grad()).all());
    return finite.item<bool>();
  }

  // Sets the model's tensors to `saved` and reads the optimizer's momentum: both change or
  // neither (an error puts the model and the momentum back, then throws one line on `path`).
  void swap_in(const std::vector<std::pair<std::string, torch::Tensor>>& saved,
               torch::serialize::InputArchive& optim_archive, int64_t groups, const std::string& path) {
    std::vector<std::pair<std::string, torch::Tensor>> before;
    for (const auto& [name, t] : model_state(model)) before.emplace_back(name, t.clone());
    std::map<std::string, std::unique_ptr<torch::optim::OptimizerParamState>> momentum_before;
    for (const auto& [key, state] : optimizer->state()) momentum_before[key] = state->clone();
    try {
      load_model_state(model, saved);
      load_optimizer(optim_archive, groups);
    } catch (const std::exception& e) {
      load_model_state(model, before);
      optimizer->state().clear();
      for (auto& [key, state] : momentum_before) optimizer->state()[key] = std::move(state);
      throw std::runtime_error("checkpoint '" + path + "': " + first_line(e.what()));
    }
  }
};

Learner::Learner(const TrainConfig& config) : impl_(std::make_unique<Impl>()) {
  impl_->config = config;
  impl_->shape = model_shape_for(config.game);
  const auto& l = config.learn;
  impl_->device = resolve_device(l.device, "learn.device");
  impl_->torch_dev = torch_device(impl_->device);
  const Precision precision = resolve_precision_on(l.precision, impl_->device);
  if (auto err = check_precision_on(precision, impl_->device, "learn.precision"); !err.empty())
    throw std::runtime_error(err);
  impl_->bfloat16 = precision == Precision::kBFloat16;
  // Built on the CPU (the same initial weights on every device), then moved; the optimizer
  // holds the moved tensors.
  impl_->model = build_model(config.net, impl_->shape, config.run.seed);
  impl_->model.train(true);
  impl_->model.to(impl_->torch_dev);
  const auto options = torch::optim::SGDOptions(l.lr).momentum(l.momentum).nesterov(l.momentum > 0);
  WeightDecayGroups params = weight_decay_groups(impl_->model);
  std::vector<torch::optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::move(params.decayed),
                      std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(options).weight_decay(l.weight_decay)));
  groups.emplace_back(std::move(params.not_decayed),
                      std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(options).weight_decay(0.0)));
  impl_->optimizer = std::make_unique<torch::optim::SGD>(std::move(groups), options);
  impl_->reset_ema();
}

Learner::~Learner() = default;

torch::jit::Module& learner_module(Learner& learner) { return learner.impl_->model; }

namespace {
// The key of parameter `p` in a state map keyed by `Key` (see optimizer_param_state). The
// text is what LibTorch 1.x writes: the pointer through an ostream.
template <typename Key>
Key optimizer_state_key(const torch::Tensor& p) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text;
    text << p.unsafeGetTensorImpl();
    return text.str();
  } else {
    return p.unsafeGetTensorImpl();
  }
}
}  // namespace

const torch::optim::OptimizerParamState* optimizer_param_state(const torch::optim::Optimizer& optimizer,
                                                               const torch::Tensor& p) {
  const auto& states = optimizer.state();
  using Key = typename std::decay_t<decltype(states)>::key_type;
  // find(), not operator[]: an inserted empty state would crash the next optimizer step.
  const auto it = states.find(optimizer_state_key<Key>(p));
  return it == states.end() ? nullptr : it->second.get();
}

torch::Tensor soft_policy_targets(const torch::Tensor& policy, double temperature) {
  auto p = policy.clamp_min(0.0).pow(1.0 / temperature);
  return p / p.sum(1, /*keepdim=*/true);
}

int64_t Learner::step() const { return impl_->step; }
int Learner::nonfinite_steps_in_a_row() const { return impl_->nonfinite_in_a_row; }

double Learner::lr_at(int64_t step) const { return lr_at(step, impl_->training_minutes); }

void Learner::set_training_minutes(double minutes) { impl_->training_minutes = minutes; }

double Learner::lr_at(int64_t step, double training_minutes) const {
  const auto& l = impl_->config.learn;
  double lr = l.lr;
  if (l.lr_minutes > 0) {
    const double done = std::clamp(training_minutes / l.lr_minutes, 0.0, 1.0);
    lr *= l.lr_final_fraction + (1 - l.lr_final_fraction) * 0.5 * (1 + std::cos(M_PI * done));
  }
  for (int64_t drop : l.lr_drops)
    if (step >= drop) lr *= l.lr_drop_factor;
  if (step < l.lr_warmup_steps)
    lr *= kWarmupStart + (1 - kWarmupStart) * static_cast<double>(step) / l.lr_warmup_steps;
  return lr;
}

namespace {

// The ownership head's loss: tanh(o) = 2 sigmoid(2o) - 1, so the binary cross-entropy of the
// prediction (1 + tanh o) / 2 against q = (1 + t) / 2, from the logits 2o, less the target's
// own entropy (log 2 on a cell that ends empty), so that a perfect prediction scores 0; the
// gradient is KataGo's. Per plane a mean over cells, summed over the planes, weighted per
// sample (0 for games that did not end on the board) and averaged over the batch.
torch::Tensor ownership_loss_of(const TrainingBatch& batch, const torch::Tensor& ownership, const torch::Device& dev) {
  const int64_t b = batch.size;
  auto t = torch::from_blob(const_cast<float*>(batch.ownership.data()), {b, kOwnershipPlanes, batch.n, batch.n}).to(dev);
  auto w = torch::from_blob(const_cast<float*>(batch.ownership_weight.data()), {b}).to(dev);
  auto q = (t + 1) / 2;
  auto per_cell =
      torch::binary_cross_entropy_with_logits(2 * ownership, q, c10::nullopt, c10::nullopt, at::Reduction::None) +
      torch::xlogy(q, q) + torch::xlogy(1 - q, 1 - q);
  return (per_cell.mean({2, 3}).sum(1) * w).mean();
}

}  // namespace

StepMetrics Learner::train_step(const TrainingBatch& batch) {
  auto& m = *impl_;
  const NetConfig& net = m.config.net;
  const LearnConfig& l = m.config.learn;
  const int64_t b = batch.size;
  if (net.ownership_head && (batch.ownership.size() != static_cast<size_t>(b) * kOwnershipPlanes * batch.n * batch.n ||
                             batch.ownership_weight.size() != static_cast<size_t>(b)))
    throw std::invalid_argument("the net has an ownership head but the training batch has no ownership targets");
  // On the learner's device. On the CPU the planes are copied into channels-last
  // (in_convolution_layout); the other tensors are the batch's own buffers, not copies.
  const auto& dev = m.torch_dev;
  auto x = in_convolution_layout(
      torch::from_blob(const_cast<float*>(batch.inputs.data()), {b, batch.planes, batch.n, batch.n}).to(dev));
  auto target = torch::from_blob(const_cast<float*>(batch.policy.data()), {b, batch.actions}).to(dev);
  auto legal = torch::from_blob(const_cast<uint8_t*>(batch.mask.data()), {b, batch.actions}, torch::kUInt8)
                   .to(dev)
                   .to(torch::kBool);
  auto z = torch::from_blob(const_cast<float*>(batch.value.data()), {b}).to(dev);

  const double lr = lr_at(m.step);
  for (auto& group : m.optimizer->param_groups())
    static_cast<torch::optim::SGDOptions&>(group.options()).lr(lr);

  // TorchScript's executor swaps in an optimised graph after the first runs of a module, which
  // moves results by an ulp: a learner resumed from a checkpoint (its module fresh) would then
  // drift from the one that kept going. The plain graph keeps training a function of the state.
  const UnoptimizedGraphs plain_graphs;
  m.optimizer->zero_grad();
  std::vector<torch::Tensor> saved_buffers;
  for (const auto& t : m.model.named_buffers(false)) saved_buffers.push_back(t.value.clone());
  const Impl::Heads h = m.forward(x);
  // Illegal actions are masked as in the search's softmax, so the net spends nothing on them.
  auto logp = torch::log_softmax(h.logits.masked_fill(~legal, kIllegalLogit), 1);
  auto policy_loss = -(target * logp).sum(1).mean();
  auto value_loss = (h.value - z).pow(2).mean();
  auto loss = policy_loss + l.value_loss_weight * value_loss;
  torch::Tensor ownership_loss, soft_policy_loss;
  if (net.ownership_head) {
    ownership_loss = ownership_loss_of(batch, h.ownership, dev);
    loss = loss + l.ownership_loss_weight * ownership_loss;
  }
  if (net.soft_policy_head) {
    auto soft_target = soft_policy_targets(target, l.soft_policy_temperature);
    auto soft_logp = torch::log_softmax(h.soft_logits.masked_fill(~legal, kIllegalLogit), 1);
    soft_policy_loss = -(soft_target * soft_logp).sum(1).mean();
    loss = loss + l.soft_policy_loss_weight * soft_policy_loss;
  }
  const double loss_value = loss.item<double>();
  // A NaN or inf would reach every weight through the update and then every model
  // published: such a step is not taken.
  if (!std::isfinite(loss_value)) return m.skip_step(loss_value, saved_buffers);
  loss.backward();
  if (!m.gradients_finite()) return m.skip_step(loss_value, saved_buffers);
  m.optimizer->step();
  ++m.step;
  m.nonfinite_in_a_row = 0;
  m.update_ema();

  StepMetrics out;
  torch::NoGradGuard no_grad;
  out.loss = loss_value;
  out.policy_loss = policy_loss.item<double>();
  out.value_loss = value_loss.item<double>();
  if (ownership_loss.defined()) out.aux_losses["ownership_loss"] = ownership_loss.item<double>();
  if (soft_policy_loss.defined()) out.aux_losses["soft_policy_loss"] = soft_policy_loss.item<double>();
  out.policy_entropy = -(logp.exp() * logp.masked_fill(~legal, 0.0)).sum(1).mean().item<double>();
  auto decisive = z != 0;
  const auto n_decisive = decisive.sum().item<int64_t>();
  out.value_accuracy =
      n_decisive ? ((h.value * z > 0) & decisive).sum().item<double>() / static_cast<double>(n_decisive) : 0.0;
  out.lr = lr;
  return out;
}

namespace {

// The auxiliary heads appear only when on, so that checkpoints written before them (and
// without them) read as nets without heads.
nlohmann::json net_json(const NetConfig& n) {
  nlohmann::json j = {{"blocks", n.blocks},           {"filters", n.filters},
                      {"global_pooling", n.global_pooling}, {"pool_every", n.pool_every},
                      {"policy_channels", n.policy_channels}, {"value_channels", n.value_channels},
                      {"value_hidden", n.value_hidden}};
  if (n.ownership_head) j["ownership_head"] = true;
  if (n.soft_policy_head) j["soft_policy_head"] = true;
  return j;
}

// A checkpoint's game as messages name it, "quax 11x11, 9x9": its variant is a name, and one this
// program does not know is named with square sizes.
std::string checkpoint_game(const std::string& variant, const std::vector<int>& sizes) {
  return variant + " " + sizes_text(parse_variant(variant).value_or(Variant::kQuax), sizes);
}

std::string spec_and_net(const std::string& variant, const std::vector<int>& sizes, const nlohmann::json& net) {
  std::string heads;
  for (const char* head : {"ownership_head", "soft_policy_head"})
    if (net.value(head, false)) heads += heads.empty() ? std::string(" (") + head : std::string(", ") + head;
  return fmt::format("{} with a {}-block {}-filter net{}", checkpoint_game(variant, sizes), net.at("blocks").get<int>(),
                     net.at("filters").get<int>(), heads.empty() ? "" : heads + ")");
}

// The sizes of the config's games, as checkpoints and model files list them.
std::vector<int> trained_sizes(const TrainConfig& c) {
  std::vector<int> sizes;
  for (const auto& spec : c.game_specs()) sizes.push_back(spec.size);
  return sizes;
}

nlohmann::json window_json(const WindowState& w) {
  return {{"size", w.size}, {"ingested_shards", w.ingested_shards}, {"total_positions", w.total_positions}};
}

}  // namespace

void Learner::save_checkpoint(const std::string& path, const RunState& state) const {
  auto& m = *impl_;  // not const: the optimizer state visits the CPU while it is written
  nlohmann::json meta;
  meta["format_version"] = 1;
  meta["model_format_version"] = kModelFormatVersion;
  meta["variant"] = variant_info(m.config.game.variant).name;
  meta["rules"] = rules_text(variant_info(m.config.game.variant).rules);
  meta["size"] = m.config.game.size;
  meta["swap"] = m.config.game.swap;
  meta["net"] = net_json(m.config.net);
  meta["step"] = m.step;
  meta["config"] = dump_config(m.config);
  // The first size's window under the keys of runs of one size; the others (game.sizes) apart.
  const WindowState first = state.windows.empty() ? WindowState{} : state.windows.front();
  meta["ingested_shards"] = first.ingested_shards;
  meta["total_positions"] = first.total_positions;
  if (!m.config.sizes.empty()) {
    meta["sizes"] = trained_sizes(m.config);
    meta["size_windows"] = nlohmann::json::array();
    for (size_t i = 1; i < state.windows.size(); ++i) meta["size_windows"].push_back(window_json(state.windows[i]));
  }
  meta["rng"] = {std::to_string(state.rng[0]), std::to_string(state.rng[1]), std::to_string(state.rng[2]),
                 std::to_string(state.rng[3])};
  meta["samples_trained"] = state.samples_trained;
  meta["train_seconds"] = state.train_seconds;

  torch::serialize::OutputArchive archive;
  archive.write("meta", c10::IValue(meta.dump()));
  torch::serialize::OutputArchive model_archive;
  // CPU tensors only, whatever the learner's device: a checkpoint resumes on any machine.
  for (const auto& [name, t] : model_state(m.model))
    model_archive.write(name, t.detach().to(torch::kCPU), /*is_buffer=*/true);
  archive.write("model", model_archive);
  if (!m.ema.empty()) {
    torch::serialize::OutputArchive ema_archive;
    size_t i = 0;
    for (const auto& [name, t] : model_state(m.model)) ema_archive.write(name, m.ema[i++].to(torch::kCPU), true);
    archive.write("ema", ema_archive);
  }
  torch::serialize::OutputArchive optim_archive;
  m.move_optimizer_state(torch::kCPU);
  m.optimizer->save(optim_archive);
  m.move_optimizer_state(m.torch_dev);
  archive.write("optimizer", optim_archive);

  write_atomically(path, [&](const std::string& tmp) { archive.save_to(tmp); });
}

namespace {

// Checks a checkpoint's description against the run of `config` (variant and its rules, sizes,
// net, model format, the step its name says); returns its step. Throws one line on `path`.
int64_t checked_checkpoint_step(const nlohmann::json& meta, const TrainConfig& config, const std::string& path) {
  const MetaReader r{meta, path};
  const std::string variant = r.text("variant");
  // Checkpoints of one size (all before game.sizes) have no list.
  const std::vector<int> sizes = r.sizes();
  const auto& net = r.at("net");
  if (!net.is_object()) r.bad("net", "not an object");
  for (const char* key : {"blocks", "filters"}) MetaReader{net, path}.integer(key, 1, 100000);
  const std::string mine_variant = variant_info(config.game.variant).name;
  // A rules file changed since the run started: the same name, another game.
  if (meta.contains("rules") && variant == mine_variant) {
    try {
      check_description_rules(variant, r.text("rules"));
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(fmt::format("checkpoint '{}': {}", path, e.what()));
    }
  }
  const std::vector<int> mine_sizes = trained_sizes(config);
  if (variant != mine_variant || sizes != mine_sizes || net != net_json(config.net))
    throw std::runtime_error(fmt::format("checkpoint '{}' is for {}; this run is {}", path,
                                         spec_and_net(variant, sizes, net),
                                         spec_and_net(mine_variant, mine_sizes, net_json(config.net))));
  if (const int64_t format = r.integer("model_format_version", 0, 1'000'000); format != kModelFormatVersion)
    throw std::runtime_error(
        fmt::format("checkpoint '{}' has model format {}, this program uses {}", path, format, kModelFormatVersion));
  // The run's files are chosen and rotated by the step in their names: a name that says
  // another step than the file holds would be resumed from again and again while rotation
  // deleted the newer checkpoints.
  const int64_t step = r.integer("step", 0, kMaxCheckpointStep);
  if (const auto named = parse_checkpoint_name(fs::path(path).filename().string()); named && *named != step)
    throw std::runtime_error(fmt::format(
        "checkpoint '{}' holds step {}, not the step {} of its name: rename it ckpt-{:010d}.pt or remove it", path,
        step, *named, step));
  return step;
}

// The run state a checkpoint holds beside its tensors (windows, generator, counts).
RunState checkpoint_run_state(const nlohmann::json& meta, const std::string& path) {
  const MetaReader r{meta, path};
  RunState state;
  state.windows.push_back(WindowState{r.sizes().front(), r.texts(r.at("ingested_shards"), "ingested_shards"),
                                      r.integer("total_positions", 0, std::numeric_limits<int64_t>::max())});
  if (meta.contains("size_windows")) {
    if (!r.at("size_windows").is_array()) r.bad("size_windows", "not a list");
    for (const auto& w : r.at("size_windows")) {
      const MetaReader wr{w, path};
      state.windows.push_back(WindowState{static_cast<int>(wr.integer("size", 1, 1000)),
                                          wr.texts(wr.at("ingested_shards"), "ingested_shards"),
                                          wr.integer("total_positions", 0, std::numeric_limits<int64_t>::max())});
    }
  }
  r.rng(state.rng);
  state.samples_trained = r.integer("samples_trained", 0, std::numeric_limits<int64_t>::max());
  state.train_seconds = r.number("train_seconds", 0, 1e12);
  return state;
}

// The tensors of archive record `record` named as model_state(model)'s, each required; with
// `same_shape`, each of the shape of model's (else the checkpoint's own). `what` names the
// record in the error.
std::vector<std::pair<std::string, torch::Tensor>> read_model_tensors(torch::serialize::InputArchive& record,
                                                                      const torch::jit::Module& model,
                                                                      bool same_shape, const std::string& what,
                                                                      const std::string& path) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& [name, t] : model_state(model)) {
    torch::Tensor v;
    if (!record.try_read(name, v, /*is_buffer=*/true) || (same_shape && !v.sizes().equals(t.sizes())))
      throw std::runtime_error("checkpoint '" + path + "': " + what + " lacks tensor '" + name + "'" +
                               (same_shape ? " or has it in another shape" : ""));
    out.emplace_back(name, v);
  }
  return out;
}

}  // namespace

RunState Learner::load_checkpoint(const std::string& path) {
  auto& m = *impl_;
  torch::serialize::InputArchive archive;
  const auto meta = read_checkpoint_meta(path, &archive);
  const int64_t step = checked_checkpoint_step(meta, m.config, path);
  RunState state = checkpoint_run_state(meta, path);

  // Every field was read before the learner changes: a refused checkpoint leaves it as it was.
  torch::serialize::InputArchive model_archive;
  archive.read("model", model_archive);
  const auto saved = read_model_tensors(model_archive, m.model, false, "its model", path);
  // The moving average, when this run keeps one and the checkpoint has it (else it restarts).
  std::vector<torch::Tensor> ema;
  torch::serialize::InputArchive ema_archive;
  if (m.config.learn.ema_decay > 0 && archive.try_read("ema", ema_archive))
    for (const auto& [name, t] : read_model_tensors(ema_archive, m.model, true, "its moving average", path))
      ema.push_back(t.to(m.torch_dev));
  torch::serialize::InputArchive optim_archive;
  if (!archive.try_read("optimizer", optim_archive))
    throw std::runtime_error("checkpoint '" + path + "' has no optimizer record");
  m.swap_in(saved, optim_archive, optimizer_groups(optim_archive, path), path);
  m.step = step;
  if (ema.empty())
    m.reset_ema();
  else
    m.ema = std::move(ema);
  return state;
}

std::string Learner::init_from(const std::string& path) {
  auto& m = *impl_;
  std::map<std::string, torch::Tensor> source;
  std::string what;
  torch::serialize::InputArchive archive;
  bool checkpoint = false;
  nlohmann::json meta;
  try {
    meta = read_checkpoint_meta(path, &archive);
    checkpoint = true;
  } catch (const std::exception&) {
  }
  if (checkpoint) {
    torch::serialize::InputArchive model_archive;
    archive.read("model", model_archive);
    for (const auto& key : model_archive.keys()) {
      torch::Tensor t;
      if (model_archive.try_read(key, t, /*is_buffer=*/true)) source[key] = t;
    }
    const MetaReader r{meta, path};
    what = fmt::format("{} checkpoint, step {}", checkpoint_game(r.text("variant"), r.sizes()),
                       r.integer("step", 0, kMaxCheckpointStep));
  } else {
    const LoadedModel loaded = load_model_file(path);
    for (const auto& [name, t] : model_state(loaded.module)) source[name] = t;
    what = fmt::format("{} {} model, step {}", variant_info(loaded.shape.spec.variant).name,
                       sizes_text(loaded.shape.spec.variant, loaded.trained_sizes), loaded.step);
  }
  // A deeper net starts from a shallower one as the same function: the blocks the source lacks
  // stay fresh, the identity (nets/model.h). A shallower net would drop the source's last
  // blocks and so change what it computes: refused.
  const int blocks = m.config.net.blocks;
  int source_blocks = 0;
  for (const auto& [name, t] : source) source_blocks = std::max(source_blocks, residual_block_of(name) + 1);
  if (source_blocks > blocks)
    throw std::runtime_error(fmt::format("cannot start from '{}' ({}): it has {} residual blocks and this net {} (a "
                                         "net may start from one of fewer blocks, not more)",
                                         path, what, source_blocks, blocks));
  std::set<std::string> required;
  for (const auto& [name, t] : model_state(m.plain_module())) required.insert(name);
  std::vector<std::pair<torch::Tensor, torch::Tensor>> copies;  // (destination, source)
  for (const auto& [name, dest] : model_state(m.model)) {
    const auto it = source.find(name);
    if (it == source.end()) {
      if (residual_block_of(name) >= source_blocks) continue;  // a block the source lacks
      if (required.count(name))
        throw std::runtime_error(fmt::format("cannot start from '{}' ({}): it lacks tensor '{}' (another net shape?)",
                                             path, what, name));
      continue;  // an auxiliary head the source was trained without
    }
    if (!it->second.sizes().equals(dest.sizes()))
      throw std::runtime_error(fmt::format(
          "cannot start from '{}' ({}): tensor '{}' is {} there and {} here (other planes, actions or net)", path, what,
          name, fmt::join(it->second.sizes(), "x"), fmt::join(dest.sizes(), "x")));
    copies.emplace_back(dest, it->second);
  }
  // Every check passed before the first copy: a refused source leaves the learner as it was.
  torch::NoGradGuard no_grad;
  for (auto& [dest, from] : copies) dest.copy_(from);
  m.reset_ema();
  if (blocks > source_blocks)
    what += fmt::format("; blocks {} to {} start as the identity", source_blocks + 1, blocks);
  return what;
}

void Learner::publish_model(const std::string& path) const {
  // Model files keep the ownership head (quax analysis's includeOwnership), not the soft policy's.
  const auto& m = *impl_;
  save_model_file(on_cpu(without_aux_heads(m.published(), m.config.net, m.shape, /*keep_ownership=*/true)),
                  model_description(impl_->shape, impl_->config.net, impl_->step, trained_sizes(impl_->config)), path);
}

std::shared_ptr<const InferenceModel> Learner::inference_model() const {
  return inference_model(impl_->config.selfplay.precision, impl_->config.selfplay.device);
}

std::shared_ptr<const InferenceModel> Learner::inference_model(Precision precision, const Device& device) const {
  return make_inference_model(impl_->plain_module(), impl_->shape, impl_->step, precision, device);
}

std::vector<float> Learner::flat_state() const {
  std::vector<float> out;
  auto append = [&](const torch::Tensor& t) {
    auto c = t.detach().to(torch::kFloat32).to(torch::kCPU).contiguous().view(-1);
    out.insert(out.end(), c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
  };
  for (const auto& [name, t] : model_state(impl_->model)) append(t);
  for (const auto& t : impl_->ema) append(t);
  for (const auto& group : impl_->optimizer->param_groups()) {
    for (const auto& p : group.params()) {
      if (const auto* state = optimizer_param_state(*impl_->optimizer, p))
        append(static_cast<const torch::optim::SGDParamState&>(*state).momentum_buffer());
    }
  }
  return out;
}


TrainConfig checkpoint_config(const std::string& checkpoint) {
  torch::serialize::InputArchive archive;
  const auto meta = read_checkpoint_meta(checkpoint, &archive);
  return parse_config(MetaReader{meta, checkpoint}.text("config"), checkpoint + " (saved config)");
}

std::unique_ptr<Learner> checkpoint_learner_on_cpu(const std::string& checkpoint) {
  TrainConfig config = checkpoint_config(checkpoint);
  config.learn.device = kCpuDevice;  // reading weights needs no GPU, whichever trained them
  auto learner = std::make_unique<Learner>(config);
  learner->load_checkpoint(checkpoint);
  return learner;
}

int64_t export_checkpoint_model(const std::string& checkpoint, const std::string& model_path) {
  const auto learner = checkpoint_learner_on_cpu(checkpoint);
  learner->publish_model(model_path);
  return learner->step();
}

std::string checkpoint_path(const std::string& run_dir, int64_t step) {
  return fmt::format("{}/checkpoints/ckpt-{:010d}.pt", run_dir, step);
}

std::string latest_checkpoint(const std::string& run_dir) {
  const auto all = list_checkpoints(run_dir);
  return all.empty() ? "" : all.back().path;
}

void prune_checkpoints(const std::string& run_dir, int keep, int64_t newest_step) {
  std::vector<StepFile> ours;
  for (const StepFile& f : list_checkpoints(run_dir))
    if (f.step <= newest_step) ours.push_back(f);
  for (size_t i = 0; i + keep < ours.size(); ++i) {
    std::error_code ignored;
    fs::remove(ours[i].path, ignored);
  }
}

std::string older_readable_checkpoint(const std::string& run_dir, const std::string& refused) {
  const auto all = list_checkpoints(run_dir);
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (it->path == refused) continue;
    try {
      torch::serialize::InputArchive archive;
      const auto meta = read_checkpoint_meta(it->path, &archive);
      if (MetaReader{meta, it->path}.integer("step", 0, kMaxCheckpointStep) == it->step) return it->path;
    } catch (const std::exception&) {
    }
  }
  return "";
}

}  // namespace quax
