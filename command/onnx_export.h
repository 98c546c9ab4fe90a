// `quax export --onnx`: a model file written as an ONNX model by PyTorch's exporter (LibTorch's
// C++ API has none): scripts/export_onnx.py, compiled into the program, run by Debian's
// /usr/bin/python3 with python3-torch and python3-onnx (scripts/install_deps.sh).
#pragma once

#include <string>

namespace quax {

// The opset written unless --onnx-opset says otherwise: one that ONNX Runtime (node and web)
// and PyTorch 1.13's exporter both handle.
inline constexpr int kDefaultOnnxOpset = 13;

// Writes `out` (atomically) from the model file `model_file`, for boards of side `size`
// (checked by the caller: the variant plays it) at `opset`: input "planes" [batch, C, N, N],
// outputs "policy" [batch, A] and "value" [batch], the batch axis dynamic, the description in
// the metadata as "quax.json". `int8_calibration`, when not empty: the tower's convolutions
// computed in 8-bit integers (scripts/export_onnx.py's QDQ form: kernels per output channel,
// each activation's scale from its largest value over the positions of this JSON file,
// {planes_shape: [B, C, size, size], planes: [...]}, as reference_outputs writes them), the rest
// in float32. Throws std::runtime_error with one line (the exporter's own, or why Python could
// not run) when it fails; nothing is written then.
void write_onnx_model(const std::string& model_file, const std::string& out, int size, int opset,
                      const std::string& int8_calibration = "");

}  // namespace quax
