// The policy-value network as a TorchScript module built in C++ (no Python): the same
// object is trained, frozen for fast inference, checkpointed and exported.
//
//   forward(planes [B, C, N, N]) -> (policy_logits [B, A], value [B])
//   forward_aux(planes) -> (policy_logits, value, ownership [B, 2, N, N], soft_policy_logits [B, A])
//
// forward_aux exists only with auxiliary heads (net.ownership_head, net.soft_policy_head) and
// serves the learner, and the ownership head of model files: inference (frozen modules keep
// only forward) uses the network without those heads (without_aux_heads), exactly as before
// them; model files keep the ownership head (`quax analysis` reads it, nets/net_evaluator.h's
// evaluate_ownership) and drop the soft policy head. ownership is
// per cell, before a tanh (tanh gives the prediction in [-1, 1] of env/ownership.h's planes:
// owner, chain), from a 1x1 convolution of the value head's features; soft_policy_logits have
// the policy's layout, from a second 1x1 convolution (and linear layer) of the policy head's
// features. A disabled head's output is an empty tensor.
//
// policy_logits follow the env's network-frame action layout: spatial_planes() planes of
// N x N from a 1x1 convolution, then extra_actions() logits (swap, pass) from a small
// linear layer over pooled policy features. value is tanh, from the mover's point of view.
// Tower: 3x3 conv stem, `blocks` residual blocks (conv-BN-ReLU-conv-BN + skip); with
// global pooling, every `pool_every`-th block adds per-channel biases computed from the
// mean and max of its first activation (KataGo's global pooling), and the heads pool too.
// On the torus (torax) every 3x3 convolution pads with the cells across the seam instead of
// zeros (a method torus_pad in the module), so the network sees the board as the rules do,
// without edges; models written before this (torax-5.pt) keep their zero padding in their code.
#pragma once

#include <torch/script.h>

#include <string>
#include <vector>

#include "nets/net_config.h"

namespace quax {

// Bumped when the parameter names or the forward code change incompatibly.
constexpr int kModelFormatVersion = 1;

// A fresh model with He-initialised weights drawn from torch's generator seeded by `seed`.
// In training mode.
torch::jit::Module build_model(const NetConfig& net, const ModelShape& shape, uint64_t seed);

// A frozen copy in eval mode (BN folded into convs), on the CPU passed through
// optimize_for_inference too: 30-45% faster than the trainable module on these machines. With `bfloat16` its weights
// (and so its inputs and outputs) are bfloat16. Its tensors are on `device` (its inputs must
// be there too). Does not change `model`.
torch::jit::Module make_inference_module(const torch::jit::Module& model, bool bfloat16 = false,
                                         const c10::Device& device = c10::Device(c10::DeviceType::CPU));

// `planes` [B, C, N, N] laid out as the CPU's convolutions read them fastest: channels-last
// there (oneDNN's convolutions then skip a reorder of their input and output; in bfloat16 the
// forward pass ran 30% faster on the AMX Xeon, the learner's step 25%), unchanged on a GPU.
// The values are the same; only the strides differ.
torch::Tensor in_convolution_layout(const torch::Tensor& planes);

// `model` itself when every tensor of it is on the CPU, else a copy of it moved there. Model
// files and checkpoints are written from this, so that they hold CPU tensors whatever device
// trained them (a file written on a GPU machine loads on any CPU).
torch::jit::Module on_cpu(const torch::jit::Module& model);

// The trainable tensors, in a fixed order.
std::vector<torch::Tensor> model_parameters(const torch::jit::Module& model);
// The trainable tensors split for weight decay, each part in model_parameters' order:
// `decayed` holds the convolution and linear weights; `not_decayed` the batch-norm gains and
// biases and every bias. Decay on those only pulls them towards zero without limiting what
// the net can fit: a batch norm undoes the scale of the weights before it, and a bias adds
// one number per channel.
struct WeightDecayGroups {
  std::vector<torch::Tensor> decayed, not_decayed;
};
WeightDecayGroups weight_decay_groups(const torch::jit::Module& model);
// Every parameter and buffer (BN running statistics) by name: what checkpoints store.
std::vector<std::pair<std::string, torch::Tensor>> model_state(const torch::jit::Module& model);
// Copies tensors by name into `model`; throws std::runtime_error naming the first missing,
// mis-shaped or mistyped tensor, before anything is copied (`model` is then unchanged).
void load_model_state(torch::jit::Module& model, const std::vector<std::pair<std::string, torch::Tensor>>& state);
// The residual block a tensor of build_model's belongs to ("b3c2_g": 3), or -1 for the stem
// and the heads. A net of more blocks starts as the same function as one of fewer when it
// takes the other's tensors and keeps the rest fresh: a fresh block is the identity (its
// second batch norm's gain is zero) and the blocks come last before the heads.
int residual_block_of(const std::string& tensor_name);

// Runs the forward pass. planes: [B, C, N, N] float.
std::pair<torch::Tensor, torch::Tensor> run_model(torch::jit::Module& model, const torch::Tensor& planes);

// forward_aux's outputs (see the top of this file).
struct AuxOutputs {
  torch::Tensor policy_logits, value, ownership, soft_policy_logits;
};
// Runs forward_aux. Precondition: `model` was built with net.has_aux_heads().
AuxOutputs run_model_aux(torch::jit::Module& model, const torch::Tensor& planes);

// A module of net.without_aux_heads() holding `model`'s weights and buffers (a copy) in its
// training mode: forward only, with `model`'s forward outputs. `model` itself when `net` has no
// auxiliary heads. `net` and `shape` are those `model` was built with. With `keep_ownership`
// (what model files hold) the ownership head stays, and forward_aux with it (its soft policy
// output empty), when `net` has one.
torch::jit::Module without_aux_heads(const torch::jit::Module& model, const NetConfig& net, const ModelShape& shape,
                                     bool keep_ownership = false);

}  // namespace quax
