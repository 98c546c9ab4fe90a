#include "nets/model.h"

#include <fmt/format.h>
#include <torch/torch.h>

#include <cctype>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "env/ownership.h"
#include "env/types.h"

namespace quax {

namespace {

// The name ending of convolution and linear weights, the only parameters weight decay applies
// to (weight_decay_groups); gains end in "_g" and biases in "_b".
constexpr char kWeightSuffix[] = "_w";

// Registers parameters and writes the TorchScript source of forward() as it goes, so that
// the names in the code and in the module can never disagree.
class ModelBuilder {
 public:
  // `torus`: the board wraps both ways (torax), so a convolution pads each side with the cells
  // across the seam instead of zeros: otherwise a chain crossing the seam is two pieces to the
  // network, and a cell beside the seam sees an edge the torus does not have.
  ModelBuilder(torch::jit::Module& m, bool torus) : m_(m), torus_(torus) {}

  // A k x k convolution without bias (a batch norm follows) plus its BN; returns the expression.
  std::string conv_bn(const std::string& name, const std::string& x, int in, int out, int k) {
    auto w = torch::empty({out, in, k, k});
    torch::nn::init::kaiming_normal_(w, 0.0, torch::kFanIn, torch::kReLU);
    param(name + kWeightSuffix, w);
    param(name + "_g", torch::ones({out}));
    param(name + "_b", torch::zeros({out}));
    buffer(name + "_m", torch::zeros({out}));
    buffer(name + "_v", torch::ones({out}));
    const int pad = k / 2;
    const bool wrap = torus_ && pad > 0;
    return fmt::format(
        "torch.batch_norm(torch.conv2d({x}, self.{n}_w, None, [1, 1], [{p}, {p}], [1, 1], 1), self.{n}_g, "
        "self.{n}_b, self.{n}_m, self.{n}_v, self.training, 0.1, 1e-05, False)",
        fmt::arg("x", wrap ? fmt::format("self.torus_pad({}, {})", x, pad) : x), fmt::arg("n", name),
        fmt::arg("p", wrap ? 0 : pad));
  }

  // A 1x1 convolution with bias (no BN).
  std::string conv_bias(const std::string& name, const std::string& x, int in, int out) {
    auto w = torch::empty({out, in, 1, 1});
    torch::nn::init::kaiming_normal_(w, 0.0, torch::kFanIn, torch::kLinear);
    param(name + kWeightSuffix, w);
    param(name + "_b", torch::zeros({out}));
    return fmt::format("torch.conv2d({x}, self.{n}_w, self.{n}_b, [1, 1], [0, 0], [1, 1], 1)", fmt::arg("x", x),
                       fmt::arg("n", name));
  }

  std::string linear(const std::string& name, const std::string& x, int in, int out, double gain_scale = 1.0) {
    auto w = torch::empty({out, in});
    torch::nn::init::kaiming_normal_(w, 0.0, torch::kFanIn, torch::kLinear);
    if (gain_scale != 1.0) w.mul_(gain_scale);
    param(name + kWeightSuffix, w);
    param(name + "_b", torch::zeros({out}));
    return fmt::format("torch.linear({x}, self.{n}_w, self.{n}_b)", fmt::arg("x", x), fmt::arg("n", name));
  }

  void zero_bn_gain(const std::string& name) { m_.attr(name + "_g").toTensor().detach().zero_(); }

  std::ostringstream code;

  // The TorchScript of torus_pad(x, p), which conv_bn calls on the torus: x [B, C, N, N] grown
  // to [B, C, N + 2p, N + 2p] by its own last and first p rows, then columns (p <= N).
  static constexpr const char* kTorusPadCode =
      "def torus_pad(self, x: Tensor, p: int) -> Tensor:\n"
      "    x = torch.cat([x[:, :, -p:], x, x[:, :, :p]], 2)\n"
      "    return torch.cat([x[:, :, :, -p:], x, x[:, :, :, :p]], 3)\n";
  bool torus() const { return torus_; }

 private:
  void param(const std::string& name, torch::Tensor t) { m_.register_parameter(name, t.set_requires_grad(true), false); }
  void buffer(const std::string& name, torch::Tensor t) { m_.register_buffer(name, t); }
  torch::jit::Module& m_;
  bool torus_;
};

// Mean and max over the board: [B, F, N, N] -> [B, 2F]. The max is a 1x1 adaptive max pool,
// not torch.amax: the same values, but LibTorch 1.13's amax over two dimensions of a bfloat16
// tensor runs a scalar loop, 8x slower here than the pool, and was a fifth of self-play's
// forward pass (BENCHMARKS.md, "Channels-last planes and the pooled max").
std::string pooled(const std::string& x) {
  return fmt::format("torch.cat([torch.mean({0}, [2, 3]), torch.flatten(torch.adaptive_max_pool2d({0}, [1, 1])[0], 1)], 1)", x);
}

}  // namespace

torch::jit::Module build_model(const NetConfig& net, const ModelShape& shape, uint64_t seed) {
  torch::manual_seed(seed);
  torch::NoGradGuard no_grad;
  torch::jit::Module m("QuaxNet");
  m.register_attribute("training", c10::BoolType::get(), true);
  ModelBuilder b(m, variant_info(shape.spec.variant).shape == BoardShape::kTorus);
  const int f = net.filters;
  // The body of forward, shared word for word by forward_aux.
  auto& c = b.code;
  c << "    h = torch.relu(" << b.conv_bn("stem", "x", shape.planes, f, 3) << ")\n";
  for (int i = 0; i < net.blocks; ++i) {
    const std::string p = fmt::format("b{}", i);
    c << "    y = torch.relu(" << b.conv_bn(p + "c1", "h", f, f, 3) << ")\n";
    if (net.global_pooling && net.pool_every > 0 && (i + 1) % net.pool_every == 0) {
      c << "    y = y + torch.unsqueeze(torch.unsqueeze(" << b.linear(p + "gp", pooled("y"), 2 * f, f, 0.5)
        << ", 2), 3)\n";
    }
    c << "    h = torch.relu(h + " << b.conv_bn(p + "c2", "y", f, f, 3) << ")\n";
    // A block starts as the identity: stabler early training in deep towers.
    b.zero_bn_gain(p + "c2");
  }
  // Policy head.
  const int pc = net.policy_channels;
  const std::string pfeats = net.global_pooling ? pooled("p") : "torch.mean(p, [2, 3])";
  const int pin = net.global_pooling ? 2 * pc : pc;
  c << "    p = torch.relu(" << b.conv_bn("pol", "h", f, pc, 1) << ")\n";
  c << "    spatial = torch.flatten(" << b.conv_bias("polout", "p", pc, shape.spatial_planes) << ", 1)\n";
  if (shape.extra_actions > 0) {
    c << "    extra = " << b.linear("polx", pfeats, pin, shape.extra_actions, 0.1) << "\n";
    c << "    logits = torch.cat([spatial, extra], 1)\n";
  } else {
    c << "    logits = spatial\n";
  }
  // Value head.
  const int vc = net.value_channels;
  c << "    vf = torch.relu(" << b.conv_bn("val", "h", f, vc, 1) << ")\n";
  const std::string vfeats = net.global_pooling ? pooled("vf") : "torch.mean(vf, [2, 3])";
  const int vin = net.global_pooling ? 2 * vc : vc;
  c << "    v = torch.relu(" << b.linear("valh", vfeats, vin, net.value_hidden) << ")\n";
  c << "    v = torch.tanh(" << b.linear("valout", "v", net.value_hidden, 1, 0.1) << ")\n";
  const std::string body = c.str();
  std::string code = "def forward(self, x: Tensor) -> Tuple[Tensor, Tensor]:\n" + body +
                     "    return logits, torch.squeeze(v, 1)\n";
  if (b.torus()) code += ModelBuilder::kTorusPadCode;

  // Auxiliary heads, registered after everything else so that the other weights start as
  // those of the same network without them.
  if (net.has_aux_heads()) {
    std::ostringstream aux;
    if (net.ownership_head)  // from the value head's spatial features, as KataGo's
      aux << "    own = " << b.conv_bias("own", "vf", vc, kOwnershipPlanes) << "\n";
    else
      aux << "    own = torch.zeros([0])\n";
    if (net.soft_policy_head) {
      aux << "    soft = torch.flatten(" << b.conv_bias("spolout", "p", pc, shape.spatial_planes) << ", 1)\n";
      if (shape.extra_actions > 0)
        aux << "    soft = torch.cat([soft, " << b.linear("spolx", pfeats, pin, shape.extra_actions, 0.1) << "], 1)\n";
    } else {
      aux << "    soft = torch.zeros([0])\n";
    }
    code += "def forward_aux(self, x: Tensor) -> Tuple[Tensor, Tensor, Tensor, Tensor]:\n" + body + aux.str() +
            "    return logits, torch.squeeze(v, 1), own, soft\n";
  }
  m.define(code);
  m.train(true);
  return m;
}

torch::jit::Module without_aux_heads(const torch::jit::Module& model, const NetConfig& net, const ModelShape& shape,
                                     bool keep_ownership) {
  NetConfig kept = net.without_aux_heads();
  kept.ownership_head = keep_ownership && net.ownership_head;
  if (kept == net) return model;
  // build_model seeds torch's generator: keep the caller's random stream as it was.
  auto generator = at::detail::getDefaultCPUGenerator();
  const auto saved = generator.get_state();
  auto plain = build_model(kept, shape, 0);
  generator.set_state(saved);
  load_model_state(plain, model_state(model));  // takes the tensors `plain` has, by name
  plain.train(model.is_training());
  return plain;
}

AuxOutputs run_model_aux(torch::jit::Module& model, const torch::Tensor& planes) {
  auto out = model.get_method("forward_aux")({planes}).toTuple();
  const auto& e = out->elements();
  return AuxOutputs{e[0].toTensor(), e[1].toTensor(), e[2].toTensor(), e[3].toTensor()};
}

torch::jit::Module make_inference_module(const torch::jit::Module& model, bool bfloat16, const c10::Device& device) {
  auto copy = model.deepcopy();
  copy.eval();
  if (bfloat16) copy.to(torch::kBFloat16);
  // Before freezing: the frozen graph holds its weights as constants on their device.
  copy.to(device);
  for (auto p : copy.parameters()) p.set_requires_grad(false);
  // freeze folds each batch norm into its convolution. optimize_for_inference adds, on the CPU,
  // oneDNN layouts (30-45% faster here); on a GPU its one addition is fusing each residual
  // block's convolution, addition and ReLU into one cuDNN call. Self-play through such a copy
  // trained a broken model on an H200 with LibTorch 2.11, through a frozen-only copy a sound one
  // on an H100 (BENCHMARKS.md, "On a GPU"), so a GPU copy is frozen only.
  // A torus network is frozen only too: oneDNN's layouts do not pass its padding (a slice and
  // concatenation before every 3x3 convolution), and converting at each one made it 2x slower.
  const bool torus = copy.find_method("torus_pad").has_value();
  auto frozen = torch::jit::freeze(copy);
  if (device.is_cuda() || torus) return frozen;
  return torch::jit::optimize_for_inference(frozen);
}

torch::Tensor in_convolution_layout(const torch::Tensor& planes) {
  if (!planes.device().is_cpu() || planes.dim() != 4) return planes;
  return planes.contiguous(at::MemoryFormat::ChannelsLast);
}

torch::jit::Module on_cpu(const torch::jit::Module& model) {
  bool all_cpu = true;
  for (const auto& p : model.parameters()) all_cpu = all_cpu && p.device().is_cpu();
  for (const auto& b : model.buffers()) all_cpu = all_cpu && b.device().is_cpu();
  if (all_cpu) return model;
  auto copy = model.deepcopy();
  copy.to(torch::kCPU);
  return copy;
}

std::vector<torch::Tensor> model_parameters(const torch::jit::Module& model) {
  std::vector<torch::Tensor> out;
  for (const auto& p : model.named_parameters(false)) out.push_back(p.value);
  return out;
}

WeightDecayGroups weight_decay_groups(const torch::jit::Module& model) {
  WeightDecayGroups out;
  for (const auto& p : model.named_parameters(false)) {
    const std::string_view suffix = kWeightSuffix;
    const bool weight = p.name.size() > suffix.size() && std::string_view(p.name).substr(p.name.size() - suffix.size()) == suffix;
    (weight ? out.decayed : out.not_decayed).push_back(p.value);
  }
  return out;
}

int residual_block_of(const std::string& tensor_name) {
  // build_model names a block's tensors b<i>c1_*, b<i>gp_*, b<i>c2_*; nothing else starts
  // with 'b' and a digit.
  if (tensor_name.size() < 2 || tensor_name[0] != 'b' || !std::isdigit(static_cast<unsigned char>(tensor_name[1])))
    return -1;
  return std::stoi(tensor_name.substr(1));
}

std::vector<std::pair<std::string, torch::Tensor>> model_state(const torch::jit::Module& model) {
  std::vector<std::pair<std::string, torch::Tensor>> out;
  for (const auto& p : model.named_parameters(false)) out.emplace_back(p.name, p.value);
  for (const auto& b : model.named_buffers(false)) out.emplace_back(b.name, b.value);
  return out;
}

void load_model_state(torch::jit::Module& model, const std::vector<std::pair<std::string, torch::Tensor>>& state) {
  torch::NoGradGuard no_grad;
  std::map<std::string, torch::Tensor> by_name(state.begin(), state.end());
  // Every tensor is checked before the first is copied: a refused state leaves `model` as it was.
  std::vector<std::pair<torch::Tensor, torch::Tensor>> copies;
  for (const auto& [name, dest] : model_state(model)) {
    auto it = by_name.find(name);
    if (it == by_name.end()) throw std::runtime_error("model tensor '" + name + "' missing from the saved state");
    if (!it->second.sizes().equals(dest.sizes()))
      throw std::runtime_error(fmt::format("model tensor '{}' has shape {} in the saved state, expected {}", name,
                                           fmt::join(it->second.sizes(), "x"), fmt::join(dest.sizes(), "x")));
    if (!it->second.is_floating_point() && it->second.scalar_type() != dest.scalar_type())
      throw std::runtime_error(fmt::format("model tensor '{}' holds {} in the saved state, expected {}", name,
                                           c10::toString(it->second.scalar_type()), c10::toString(dest.scalar_type())));
    copies.emplace_back(dest, it->second);
  }
  for (auto& [dest, source] : copies) dest.copy_(source);
}

std::pair<torch::Tensor, torch::Tensor> run_model(torch::jit::Module& model, const torch::Tensor& planes) {
  auto out = model.forward({planes}).toTuple();
  return {out->elements()[0].toTensor(), out->elements()[1].toTensor()};
}

}  // namespace quax
