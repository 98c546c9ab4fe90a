// `quax export`: writes a checkpoint's network as a self-describing TorchScript model file
// (train/model_export.h), the form gtp, play, the arena and Python users load.
#include <fmt/core.h>

#include "command/command.h"
#include "command/writable_output.h"
#include "train/model_export.h"
#include "nets/model_card.h"
#include "nets/net_config.h"
#include "core/atomic_file.h"

namespace quax {
namespace {

void setup_export(CLI::App& app) {
  struct Options {
    std::string checkpoint;
    std::string out;
    std::string reference;
    std::string levels_from;
    int reference_count = 16;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "export",
      "Write a checkpoint as a TorchScript model file: forward(planes[B,C,N,N]) -> (policy_logits[B,A], value[B]), "
      "with its description quax.json inside");
  cmd->add_option("--checkpoint", opt->checkpoint, "Learner checkpoint (ckpt-*.pt) or a model file")->required();
  cmd->add_option("--out", opt->out, "Model file to write (atomically)")->required();
  cmd->add_option("--reference", opt->reference,
                  "Also write JSON with planes of random positions and the checkpoint's outputs on them "
                  "(for round-trip checks such as scripts/check_export.py)");
  cmd->add_option("--levels-from", opt->levels_from,
                  "Carry the levels table (quax levels) of this model file of the same network (variant, net, "
                  "step) into --out: a shipped model re-exported from its learner state keeps its measured levels");
  cmd->add_option("--reference-count", opt->reference_count, "Positions in --reference")->check(CLI::Range(1, 4096));
  cmd->add_option("--seed", opt->seed, "Seed of the --reference positions");
  cmd->callback([opt] {
    require_writable(opt->out);
    if (!opt->reference.empty()) require_writable(opt->reference);
    ExportedModel m;
    try {
      // The reference first (in memory): a checkpoint it cannot read then writes nothing.
      const std::string reference =
          opt->reference.empty() ? "" : reference_outputs(opt->checkpoint, opt->reference_count, opt->seed).dump();
      m = export_model(opt->checkpoint, opt->out, opt->levels_from);
      if (!opt->reference.empty()) write_file_atomically(opt->reference, reference);
    } catch (const std::exception& e) {
      throw CommandError(first_line(e.what()));
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
