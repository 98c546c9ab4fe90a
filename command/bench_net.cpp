// `quax bench net`: the network's speed for a config — bare forward throughput per batch
// size (plain module and the frozen one self-play uses), learner samples/s, and self-play
// evaluations/s against the bare forward pass at the same batch.
#include <fmt/format.h>

#include <memory>
#include <sstream>

#include "command/command.h"
#include "command/device_option.h"
#include "train/benchmarks.h"

namespace quax {
namespace {

void setup_bench_net(CLI::App& app) {
  struct Options {
    std::string config;
    std::vector<std::string> overrides;
    std::string batches = "1,8,32,64,128,256";
    double seconds = 2;
    int threads = 2;
    int learn_batch = 256;
    bool skip_selfplay = false;
    std::string device = "auto";
  };
  auto opt = std::make_shared<Options>();
  CLI::App* bench = app.get_subcommand("bench");
  auto* cmd = bench->add_subcommand("net", "Network forward, learner and self-play throughput for a training config");
  cmd->add_option("--config", opt->config, "Training config (default: built-in defaults)");
  cmd->add_option("--set", opt->overrides, "Override a key, e.g. --set net.blocks=6 (repeatable)");
  cmd->add_option("--batches", opt->batches, "Batch sizes of the forward benchmark, comma-separated");
  cmd->add_option("--seconds", opt->seconds, "Seconds per measurement")->check(CLI::Range(0.1, 600.0));
  cmd->add_option("--threads", opt->threads, "LibTorch intra-op threads")->check(CLI::Range(1, 64));
  cmd->add_option("--learn-batch", opt->learn_batch, "Learner batch size")->check(CLI::Range(1, 65536));
  cmd->add_flag("--no-selfplay", opt->skip_selfplay, "Skip the self-play measurement");
  // Given, it sets learn.device and selfplay.device; else the config's keys decide.
  auto* device = add_device_option(cmd, &opt->device);
  cmd->callback([opt, device] {
    TrainConfig config;
    if (!opt->config.empty()) config = load_config(opt->config);
    for (const auto& o : opt->overrides) apply_override(&config, o);
    if (device->count() > 0) config.learn.device = config.selfplay.device = device_from_option(opt->device);
    std::vector<int> batches;
    std::stringstream ss(opt->batches);
    for (std::string item; std::getline(ss, item, ',');) {
      try {
        const int b = std::stoi(item);
        if (b < 1) throw std::out_of_range("");
        batches.push_back(b);
      } catch (const std::exception&) {
        throw CommandError("bad batch size '" + item + "' in --batches");
      }
    }
    const Device infer_device = resolve_device(config.selfplay.device, "selfplay.device");
    const Device learn_device = resolve_device(config.learn.device, "learn.device");
    fmt::print("{} {}, net {}, {} threads, inference in {} on {}\n", variant_info(config.game.variant).name,
               size_text(config.game.variant, config.game.size), describe(config.net), opt->threads,
               precision_name(resolve_precision_on(config.selfplay.precision, infer_device)), device_name(infer_device));
    fmt::print("\nforward (positions/s):\n{:>7} {:>12} {:>12} {:>8}\n", "batch", "plain", "frozen", "gain");
    for (const auto& f : bench_forward(config, batches, opt->seconds, opt->threads))
      fmt::print("{:>7} {:>12.0f} {:>12.0f} {:>7.0f}%\n", f.batch, f.plain_per_s, f.frozen_per_s,
                 100.0 * (f.frozen_per_s / f.plain_per_s - 1.0));
    const auto l = bench_learner(config, opt->learn_batch, opt->seconds * 2, opt->threads);
    fmt::print("\nlearner at batch {} in {} on {}: {:.0f} samples/s ({:.1f}% of the time sampling)\n", opt->learn_batch,
               precision_name(resolve_precision_on(config.learn.precision, learn_device)), device_name(learn_device),
               l.samples_per_s, 100.0 * l.sampling_share);
    if (!opt->skip_selfplay) {
      const auto s = bench_selfplay(config, opt->seconds * 2, opt->threads);
      fmt::print(
          "\nself-play ({} threads x {} games x {} sims, {} leaves/tree): {:.0f} evals/s, mean batch {:.1f}, {:.0f} moves/s\n"
          "  network {:.1f}% of wall time (search, env, encoding, batching: {:.1f}%)\n"
          "  bare frozen forward at batch {}: {:.0f}/s; self-play reaches {:.1f}% of it\n",
          config.selfplay.threads, config.selfplay.parallel_games, config.search.simulations,
          config.search.leaves_per_batch, s.evals_per_s,
          s.mean_batch, s.moves_per_s, 100.0 * s.network_share, 100.0 * (1.0 - s.network_share),
          config.selfplay.parallel_games * config.search.leaves_per_batch, s.bare_per_s,
          100.0 * s.evals_per_s / s.bare_per_s);
    }
  });
}

REGISTER_COMMAND("bench.net", setup_bench_net);

}  // namespace
}  // namespace quax
