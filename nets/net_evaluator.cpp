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
                                                           const ModelShape& shape, int64_t step) {
  auto m = std::make_shared<InferenceModel>();
  m->module = make_inference_module(trainable);
  m->shape = shape;
  m->step = step;
  return m;
}

std::shared_ptr<const InferenceModel> load_inference_model(const std::string& path, const GameSpec& spec) {
  auto loaded = load_model_file(path);
  if (auto err = check_model_matches(loaded.shape, spec); !err.empty())
    throw std::runtime_error("model '" + path + "': " + err);
  return make_inference_model(loaded.module, loaded.shape, loaded.step);
}

int64_t inference_model_step(const InferenceModel& model) { return model.step; }

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
  auto out = const_cast<torch::jit::Module&>(model->module).forward({x}).toTuple();
  const auto logits = out->elements()[0].toTensor().contiguous();
  const auto value = out->elements()[1].toTensor().contiguous();
  std::memcpy(policy_logits, logits.data_ptr<float>(), sizeof(float) * b * s.num_actions());
  std::memcpy(values, value.data_ptr<float>(), sizeof(float) * b);
  positions_ += b;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace quax
