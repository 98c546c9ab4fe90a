#include "nets/int8_network.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <fmt/format.h>
#include <torch/torch.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "nets/model.h"

namespace quax {

namespace {

constexpr double kBatchNormEpsilon = 1e-5;  // nets/model.cpp's batch_norm

// LibTorch's quantized operators, called boxed: their packed-weight argument is a TorchScript
// class object that the C++ API does not name.
struct QuantizedOps {
  c10::OperatorHandle prepack, conv, conv_relu, add_relu;
};
const QuantizedOps& quantized_ops() {
  static const QuantizedOps ops = [] {
    auto find = [](const char* name, const char* overload) {
      return c10::Dispatcher::singleton().findSchemaOrThrow(name, overload);
    };
    return QuantizedOps{find("quantized::conv2d_prepack", ""), find("quantized::conv2d", "new"),
                        find("quantized::conv2d_relu", "new"), find("quantized::add_relu", "")};
  }();
  return ops;
}

c10::IValue call(const c10::OperatorHandle& op, std::vector<c10::IValue> stack) {
  op.callBoxed(&stack);
  return std::move(stack.at(0));
}

// The scale that maps [0, largest] (or [-largest, largest] when signed, around the zero point
// (levels + 1) / 2) onto `levels` steps.
double scale_for(double largest, bool is_signed, int64_t levels) {
  return std::max(largest, 1e-6) / static_cast<double>(is_signed ? levels / 2 : levels);
}

torch::Tensor mean_and_max(const torch::Tensor& x) {
  return torch::cat({x.mean({2, 3}), torch::flatten(std::get<0>(torch::adaptive_max_pool2d(x, {1, 1})), 1)}, 1);
}

torch::Tensor conv(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias) {
  return torch::conv2d(x, weight, bias, 1, weight.size(2) / 2);
}

}  // namespace

bool cpu_has_int8_dot_product() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512vnni") || __builtin_cpu_supports("avxvnni");
#else
  return false;
#endif
}

bool cpu_runs_int8() {
  const auto& engines = at::globalContext().supportedQEngines();
  return std::find(engines.begin(), engines.end(), at::QEngine::ONEDNN) != engines.end();
}

// The largest magnitude at each quantized point, in the order run_float meets them.
struct Int8Network::Ranges {
  double planes = 0, stem = 0;
  std::vector<double> first, pooled, second, output;  // per block
};

Int8Network::Int8Network(const torch::jit::Module& model, const torch::Tensor& calibration_planes, bool full_range)
    : levels_(full_range ? 255 : 127) {
  if (!cpu_runs_int8()) throw std::runtime_error("int8 needs LibTorch's oneDNN quantized engine, which this build lacks");
  if (model.find_method("torus_pad"))
    throw std::runtime_error("int8 does not run torus networks (their convolutions pad across the seam)");
  {
    static std::once_flag engine_set;
    std::call_once(engine_set, [] { at::globalContext().setQEngine(at::QEngine::ONEDNN); });
  }
  torch::NoGradGuard no_grad;
  auto tensor = [&](const std::string& name) {
    if (!model.hasattr(name)) throw std::runtime_error("int8: the network has no tensor '" + name + "'");
    return model.attr(name).toTensor().detach().to(torch::kCPU, torch::kFloat32).clone();
  };
  auto conv_bn = [&](const std::string& n) {
    const auto gain = tensor(n + "_g") / torch::sqrt(tensor(n + "_v") + kBatchNormEpsilon);
    return Conv{tensor(n + "_w") * gain.reshape({-1, 1, 1, 1}), tensor(n + "_b") - tensor(n + "_m") * gain, {}, 0};
  };
  auto linear = [&](const std::string& n) { return Linear{tensor(n + "_w"), tensor(n + "_b")}; };
  stem_ = conv_bn("stem");
  for (int i = 0; model.hasattr(fmt::format("b{}c1_w", i)); ++i) {
    Block b{conv_bn(fmt::format("b{}c1", i)), conv_bn(fmt::format("b{}c2", i)), {}, 0, 0};
    if (model.hasattr(fmt::format("b{}gp_w", i))) b.pooling = linear(fmt::format("b{}gp", i));
    blocks_.push_back(std::move(b));
  }
  policy_ = conv_bn("pol");
  policy_out_ = Conv{tensor("polout_w"), tensor("polout_b"), {}, 0};
  if (model.hasattr("polx_w")) policy_extra_ = linear("polx");
  value_ = conv_bn("val");
  value_hidden_ = linear("valh");
  value_out_ = linear("valout");
  pooled_heads_ = value_hidden_.weight.size(1) == 2 * value_.weight.size(0);

  Ranges ranges;
  {
    c10::InferenceMode guard;
    const auto planes = calibration_planes.to(torch::kFloat32);
    if (planes.numel() == 0 || planes.min().item<double>() < 0)
      throw std::runtime_error("int8: calibration needs planes, all of them non-negative");
    run_float(planes, &ranges);
  }
  planes_scale_ = scale_for(ranges.planes, false, levels_);
  stem_.scale = scale_for(ranges.stem, false, levels_);
  for (size_t i = 0; i < blocks_.size(); ++i) {
    Block& b = blocks_[i];
    b.first.scale = scale_for(ranges.first[i], false, levels_);
    b.pooled_scale = scale_for(ranges.pooled[i], true, levels_);
    b.second.scale = scale_for(ranges.second[i], true, levels_);
    b.output_scale = scale_for(ranges.output[i], false, levels_);
  }
  std::vector<Conv*> quantized = {&stem_};
  for (Block& b : blocks_) quantized.insert(quantized.end(), {&b.first, &b.second});
  for (Conv* c : quantized) {
    const auto& w = c->weight;
    const auto channel_scales = (w.abs().amax({1, 2, 3}) / 127.0).clamp_min(1e-8).to(torch::kDouble);
    const auto q = torch::quantize_per_channel(w, channel_scales, torch::zeros({w.size(0)}, torch::kLong), 0, torch::kQInt8);
    const int64_t pad = w.size(2) / 2;
    c->packed = call(quantized_ops().prepack,
                     {q, c->bias, c10::List<int64_t>({1, 1}), c10::List<int64_t>({pad, pad}), c10::List<int64_t>({1, 1}),
                      int64_t{1}});
  }
}

torch::Tensor Int8Network::pooled_bias(const Linear& pooling, const torch::Tensor& y) const {
  return torch::linear(mean_and_max(y), pooling.weight, pooling.bias).unsqueeze(2).unsqueeze(3);
}

torch::Tensor Int8Network::head_features(const torch::Tensor& x) const {
  return pooled_heads_ ? mean_and_max(x) : x.mean({2, 3});
}

std::pair<torch::Tensor, torch::Tensor> Int8Network::heads(const torch::Tensor& h) const {
  const auto p = torch::relu(conv(h, policy_.weight, policy_.bias));
  const auto vf = torch::relu(conv(h, value_.weight, value_.bias));
  auto logits = torch::flatten(conv(p, policy_out_.weight, policy_out_.bias), 1);
  if (policy_extra_) logits = torch::cat({logits, torch::linear(head_features(p), policy_extra_->weight, policy_extra_->bias)}, 1);
  auto v = torch::relu(torch::linear(head_features(vf), value_hidden_.weight, value_hidden_.bias));
  v = torch::tanh(torch::linear(v, value_out_.weight, value_out_.bias));
  return {logits.contiguous(), v.squeeze(1).contiguous()};
}

std::pair<torch::Tensor, torch::Tensor> Int8Network::run_float(const torch::Tensor& planes, Ranges* r) const {
  auto largest = [&](const torch::Tensor& x) { return x.abs().max().item<double>(); };
  if (r) r->planes = largest(planes);
  auto h = torch::relu(conv(planes, stem_.weight, stem_.bias));
  if (r) r->stem = largest(h);
  for (const Block& b : blocks_) {
    auto y = torch::relu(conv(h, b.first.weight, b.first.bias));
    if (r) r->first.push_back(largest(y));
    if (b.pooling) y = y + pooled_bias(*b.pooling, y);
    if (r) r->pooled.push_back(b.pooling ? largest(y) : 0);
    const auto c = conv(y, b.second.weight, b.second.bias);
    h = torch::relu(h + c);
    if (r) r->second.push_back(largest(c)), r->output.push_back(largest(h));
  }
  return heads(h);
}

std::pair<torch::Tensor, torch::Tensor> Int8Network::forward_float(const torch::Tensor& planes) const {
  return run_float(planes.to(torch::kFloat32), nullptr);
}

std::pair<torch::Tensor, torch::Tensor> Int8Network::forward(const torch::Tensor& planes) const {
  const int64_t signed_zero_point = (levels_ + 1) / 2;
  const QuantizedOps& ops = quantized_ops();
  auto quantized_conv = [](const c10::OperatorHandle& op, const torch::Tensor& x, const Conv& c, int64_t zero_point) {
    return call(op, {x, c.packed, c.scale, zero_point}).toTensor();
  };
  const auto x = torch::quantize_per_tensor(in_convolution_layout(planes.to(torch::kFloat32)), planes_scale_, 0, torch::kQUInt8);
  auto h = quantized_conv(ops.conv_relu, x, stem_, 0);
  for (const Block& b : blocks_) {
    auto y = quantized_conv(ops.conv_relu, h, b.first, 0);
    if (b.pooling) {
      const auto f = y.dequantize();
      y = torch::quantize_per_tensor(f + pooled_bias(*b.pooling, f), b.pooled_scale, signed_zero_point, torch::kQUInt8);
    }
    const auto c = quantized_conv(ops.conv, y, b.second, signed_zero_point);
    h = call(ops.add_relu, {h, c, b.output_scale, int64_t{0}}).toTensor();
  }
  return heads(h.dequantize());
}

}  // namespace quax
