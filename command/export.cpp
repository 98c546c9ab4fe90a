// `quax export`: writes a checkpoint's network as a self-describing TorchScript model file
// (train/model_export.h), the form gtp, play, the arena and Python users load, and/or as an
// ONNX model for runtimes other than LibTorch (command/onnx_export.h).
#include <fmt/core.h>
#include <unistd.h>

#include <filesystem>

#include "command/command.h"
#include "command/onnx_export.h"
#include "command/writable_output.h"
#include "train/model_export.h"
#include "nets/model_card.h"
#include "nets/net_config.h"
#include "core/atomic_file.h"

namespace quax {
namespace {

// Random positions whose activations set the int8 file's scales: enough that the largest value
// of each activation is seen (256 gave hex-11.pt values within 0.16 of float32's, as the dynamic
// rounding did).
constexpr int kCalibrationPositions = 256;
constexpr uint64_t kCalibrationSeed = 20261129;

void setup_export(CLI::App& app) {
  struct Options {
    std::string checkpoint;
    std::string out;
    std::string reference;
    std::string levels_from;
    std::string onnx;
    int onnx_size = 0;
    int onnx_opset = kDefaultOnnxOpset;
    bool onnx_int8 = false;
    int reference_count = 16;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "export",
      "Write a checkpoint as a TorchScript model file: forward(planes[B,C,N,N]) -> (policy_logits[B,A], value[B]), "
      "with its description quax.json inside");
  cmd->add_option("--checkpoint", opt->checkpoint, "Learner checkpoint (ckpt-*.pt) or a model file")->required();
  cmd->add_option("--out", opt->out, "Model file to write (atomically)");
  cmd->add_option("--onnx", opt->onnx,
                  "ONNX model to write (atomically): input planes[batch,C,N,N], outputs policy[batch,A] and "
                  "value[batch], the batch axis dynamic, the description in its metadata (quax.json); docs/MODELS.md");
  cmd->add_option("--onnx-size", opt->onnx_size,
                  "The board side of the ONNX model (0: the model's first trained size): the actions depend on it")
      ->check(CLI::Range(0, 26));
  cmd->add_option("--onnx-opset", opt->onnx_opset, "ONNX opset")->check(CLI::Range(9, 17));
  cmd->add_flag("--onnx-int8", opt->onnx_int8,
                "Compute the ONNX model's tower convolutions in 8-bit integers (kernels rounded per output channel, "
                "activations at scales measured on random positions; opset 13 or later), the rest in float32: "
                "faster where ONNX Runtime has integer kernels (the static page), outputs within int8's rounding "
                "of float32's; docs/MODELS.md");
  cmd->add_option("--reference", opt->reference,
                  "Also write JSON with planes of random positions (at --onnx-size when given) and the checkpoint's "
                  "outputs on them (for round-trip checks such as scripts/check_export.py)");
  cmd->add_option("--levels-from", opt->levels_from,
                  "Carry the levels table (quax levels) of this model file of the same network (variant, net, "
                  "step) into --out: a shipped model re-exported from its learner state keeps its measured levels");
  cmd->add_option("--reference-count", opt->reference_count, "Positions in --reference")->check(CLI::Range(1, 4096));
  cmd->add_option("--seed", opt->seed, "Seed of the --reference positions");
  cmd->callback([opt] {
    if (opt->out.empty() && opt->onnx.empty()) throw CommandError("give --out (a model file), --onnx, or both");
    if (opt->onnx_int8 && opt->onnx_opset < 13)
      throw CommandError("--onnx-int8 needs --onnx-opset 13 or later (per-channel DequantizeLinear)");
    if (!opt->out.empty()) require_writable(opt->out);
    if (!opt->onnx.empty()) require_writable(opt->onnx);
    if (!opt->reference.empty()) require_writable(opt->reference);
    ExportedModel m;
    // Without --out the model file is a temporary beside the ONNX file, the exporter's input.
    const std::string model_file =
        !opt->out.empty() ? opt->out : fmt::format("{}.model.tmp{}", opt->onnx, static_cast<long>(::getpid()));
    try {
      // The reference first (in memory): a checkpoint it cannot read then writes nothing.
      const std::string reference =
          opt->reference.empty()
              ? ""
              : reference_outputs(opt->checkpoint, opt->reference_count, opt->seed, opt->onnx_size).dump();
      m = export_model(opt->checkpoint, model_file, opt->levels_from);
      if (!opt->onnx.empty()) {
        GameSpec at = m.spec;
        if (opt->onnx_size > 0) at.size = opt->onnx_size;
        if (const std::string bad = check_spec(at); !bad.empty()) throw std::runtime_error("--onnx-size: " + bad);
        std::string calibration;
        if (opt->onnx_int8) {
          // int8's activation scales come from random positions of the game at the file's size
          // (a fixed seed: the same model gives the same file).
          calibration = fmt::format("{}.calibration.tmp{}", opt->onnx, static_cast<long>(::getpid()));
          write_file_atomically(
              calibration, random_position_planes(opt->checkpoint, kCalibrationPositions, kCalibrationSeed, at.size).dump());
        }
        try {
          write_onnx_model(model_file, opt->onnx, at.size, opt->onnx_opset, calibration);
        } catch (...) {
          if (!calibration.empty()) std::filesystem::remove(calibration);
          throw;
        }
        if (!calibration.empty()) std::filesystem::remove(calibration);
        if (opt->out.empty()) std::filesystem::remove(model_file);
        fmt::print("wrote {}: ONNX opset {}, {} boards, a dynamic batch axis{}\n", opt->onnx, opt->onnx_opset,
                   size_text(at.variant, at.size), opt->onnx_int8 ? ", int8 convolutions" : "");
      }
      if (!opt->reference.empty()) write_file_atomically(opt->reference, reference);
    } catch (const std::exception& e) {
      std::error_code ignored;
      if (opt->out.empty()) std::filesystem::remove(model_file, ignored);
      throw CommandError(first_line(e.what()));
    }
    if (opt->out.empty()) {
      if (!opt->reference.empty()) fmt::print("wrote {} ({} reference positions)\n", opt->reference, opt->reference_count);
      return;
    }
    const auto& d = m.description;
    fmt::print("wrote {}: {} at step {}, {} input planes, {} actions, net {} blocks x {} filters (from {} '{}')\n",
               opt->out, describe(m.spec), m.step, d.at("planes").size(), d.at("num_actions").get<int>(),
               d.at("net").at("blocks").get<int>(), d.at("net").at("filters").get<int>(),
               m.from_checkpoint ? "checkpoint" : "model file", opt->checkpoint);
    if (const auto sizes = d.value("sizes", std::vector<int>{}); sizes.size() > 1)
      fmt::print("trained on {} {}: it plays each (and any other size, with a warning)\n",
                 variant_info(m.spec.variant).name, sizes_text(m.spec.variant, sizes));
    // The line of the model's card (`quax card`) that decides which games it is good for.
    fmt::print("{}\n", pie_rule_line(m.spec));
    if (!opt->reference.empty()) fmt::print("wrote {} ({} reference positions)\n", opt->reference, opt->reference_count);
  });
}

REGISTER_COMMAND("export", setup_export);

}  // namespace
}  // namespace quax
