// A network's forward pass in 8-bit integers on the CPU, for self-play and play: the stem and
// the residual tower (3x3 convolutions, nearly all of a forward pass) run as LibTorch's
// quantized convolutions on oneDNN (AVX-512 VNNI or AMX-INT8 where the CPU has them), with int8
// weights per output channel and uint8 activations per tensor; the heads stay in float32 (with
// their first activations in uint8 too, a sharp policy of quax 5x5 moved by up to 0.18 in total
// variation over 64 random positions, against 0.05 with them in float32).
// bench/int8_tower.py measured such a tower at 1.9-2.3x float32's positions per second on the
// Intel Xeon with AVX-512 VNNI, one thread, at self-play's batch.
//
// What is quantized: the planes (uint8 from 0), then block by block the block's input h (uint8
// from 0: it follows a ReLU), the first convolution's output after its ReLU (uint8 from 0),
// with global pooling that output plus its pooled biases (signed, zero point in the middle,
// computed in float32 from the dequantized activation), the second convolution's output
// (signed), and the sum's ReLU (the next block's input). Each scale is the largest magnitude
// that point takes over the calibration planes (one float32 pass), so nothing calibrated is
// clipped (a percentile that clips the top 0.01% moved the outputs more, not less).
//
// The network is read by parameter name as nets/model.cpp registers it (stem, b<i>c1, b<i>gp,
// b<i>c2, pol, polout, polx, val, valh, valout), each batch norm folded into its convolution.
// Models of the torus (torax: padding across the seam) are not supported.
#pragma once

#include <torch/script.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quax {

// Whether this LibTorch can run quantized convolutions on the oneDNN engine.
bool cpu_runs_int8();
// Whether this CPU multiplies 8-bit integers into 32-bit sums in one instruction (AVX-512 VNNI
// or AVX-VNNI). Without it oneDNN sums pairs of products in 16 bits, which saturate when
// activations use all 8 bits; activations then keep to 7 bits (PyTorch's reduce_range).
bool cpu_has_int8_dot_product();

class Int8Network {
 public:
  // Folds, quantizes and prepacks `model`'s weights and calibrates the activations' scales on
  // `calibration_planes` [B, C, N, N] (float32, positions of the model's game). Throws
  // std::runtime_error (one line) when `model` lacks a parameter named above, is a torus
  // network, or when this LibTorch has no oneDNN quantized engine (cpu_runs_int8).
  // `full_range`: activations in 8 bits (what cpu_has_int8_dot_product allows) or 7.
  Int8Network(const torch::jit::Module& model, const torch::Tensor& calibration_planes,
              bool full_range = cpu_has_int8_dot_product());

  // (policy logits [B, A], value [B]) in float32 on the CPU, as the model's forward gives
  // them, from float32 planes [B, C, N, N] (any size of the model's variant). Thread-safe.
  std::pair<torch::Tensor, torch::Tensor> forward(const torch::Tensor& planes) const;
  // The same network in float32 with the folded weights, without quantization: what the
  // calibration measures, and a reference for the int8 pass's error.
  std::pair<torch::Tensor, torch::Tensor> forward_float(const torch::Tensor& planes) const;

 private:
  struct Conv {
    torch::Tensor weight, bias;  // float32, batch norm folded in
    c10::IValue packed;          // int8 weights prepacked for oneDNN (the stem's and the tower's)
    double scale = 0;            // of its output (after its ReLU where one follows)
  };
  struct Linear {
    torch::Tensor weight, bias;
  };
  struct Block {
    Conv first, second;
    std::optional<Linear> pooling;  // global pooling's biases from the first activation
    double pooled_scale = 0;        // of the first activation plus those biases
    double output_scale = 0;        // of the block's output: the ReLU of its input plus `second`'s
  };
  // The largest magnitude of each quantized activation over the calibration planes.
  struct Ranges;

  // The network in float32; records the largest magnitudes into `ranges` when given.
  std::pair<torch::Tensor, torch::Tensor> run_float(const torch::Tensor& planes, Ranges* ranges) const;
  // The heads from the tower's output (float32).
  std::pair<torch::Tensor, torch::Tensor> heads(const torch::Tensor& h) const;
  torch::Tensor pooled_bias(const Linear& pooling, const torch::Tensor& y) const;
  torch::Tensor head_features(const torch::Tensor& x) const;

  int64_t levels_ = 255;  // of an activation: 255 (8 bits) or 127 (7 bits)
  Conv stem_;
  double planes_scale_ = 0;
  std::vector<Block> blocks_;
  Conv policy_, policy_out_, value_;
  std::optional<Linear> policy_extra_;
  Linear value_hidden_, value_out_;
  bool pooled_heads_ = false;  // heads read mean and max (global pooling) or the mean alone
};

}  // namespace quax
