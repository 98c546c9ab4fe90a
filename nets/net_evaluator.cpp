#include "nets/net_evaluator.h"

#include <torch/torch.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator_internal.h"

namespace quax {

std::shared_ptr<const InferenceModel> make_inference_model(const torch::jit::Module& trainable,
                                                           const ModelShape& shape, int64_t step,
                                                           Precision precision) {
  auto m = std::make_shared<InferenceModel>();
  m->precision = resolve_precision(precision);
  if (m->precision == Precision::kBFloat16 && !cpu_runs_bfloat16())
    throw std::runtime_error("bf16 inference needs a CPU with AVX-512 (BW, VL, DQ); use precision fp32 or auto");
  m->module = make_inference_module(trainable, m->precision == Precision::kBFloat16);
  m->shape = shape;
  m->step = step;
  return m;
}

std::shared_ptr<const InferenceModel> load_inference_model(const std::string& path, const GameSpec& spec,
                                                           Precision precision) {
  auto loaded = load_model_file(path);
  if (auto err = check_model_matches(loaded.shape, spec); !err.empty())
    throw std::runtime_error("model '" + path + "': " + err);
  return make_inference_model(loaded.module, loaded.shape, loaded.step, precision);
}

int64_t inference_model_step(const InferenceModel& model) { return model.step; }
Precision inference_model_precision(const InferenceModel& model) { return model.precision; }

std::pair<torch::Tensor, torch::Tensor> run_inference(const InferenceModel& model, const torch::Tensor& planes) {
  const bool bf16 = model.precision == Precision::kBFloat16;
  auto out = const_cast<torch::jit::Module&>(model.module).forward({bf16 ? planes.to(torch::kBFloat16) : planes});
  const auto& t = out.toTuple()->elements();
  auto as_float = [](const torch::Tensor& x) { return x.to(torch::kFloat32).contiguous(); };
  return {as_float(t[0].toTensor()), as_float(t[1].toTensor())};
}

void set_torch_threads(int threads) { torch::set_num_threads(threads); }

NetEvaluator::NetEvaluator(std::shared_ptr<const InferenceModel> model) : model_(std::move(model)) {}

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
  const auto& s = model->shape;
  c10::InferenceMode guard;
  auto x = torch::from_blob(const_cast<float*>(planes), {b, s.planes, s.size, s.size}, torch::kFloat32);
  const auto [logits, value] = run_inference(*model, x);
  std::memcpy(policy_logits, logits.data_ptr<float>(), sizeof(float) * b * s.num_actions());
  std::memcpy(values, value.data_ptr<float>(), sizeof(float) * b);
  positions_ += b;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace quax
