// A training run's configuration: what configs/*.yaml hold. Every knob has a default (the
// values below); a YAML file overrides any subset. Unknown keys and bad values are errors
// that name the key and the file and line.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "env/types.h"
#include "mcts/search_settings.h"
#include "mcts/selfplay_driver.h"
#include "nets/device.h"
#include "nets/net_config.h"

namespace quax {

struct SelfplayConfig {
  int parallel_games = 64;  // games in flight per self-play thread (the evaluator batch)
  int threads = 1;          // self-play threads, each with its own driver
  int inference_threads = 1;  // LibTorch intra-op threads for inference
  // Added to the self-play threads' nice value: where a learner shares the process's cores,
  // it takes one first and self-play plays on what is left (0 = the same priority).
  int nice = 0;
  Precision precision = Precision::kAuto;  // number format of self-play inference (nets/net_config.h)
  // Where self-play's network runs (nets/device.h): auto takes a GPU when LibTorch sees one.
  Device device;
  // Move choice and playout cap randomization (mcts/selfplay_driver.h): four plies sampled at
  // temperature 1, then the most visited move; every move a full search.
  MoveChoice moves = {4, false, 1.0f, 0.0f, 1.0f, 0};
  ResignSettings resign;
  int max_moves = 0;
  int games_per_shard = 32;  // finished games written together into one shard file
  // Network outputs kept per self-play thread, keyed by the network's input (mcts/
  // evaluation_cache.h); cleared with each new model. 0 = no cache.
  int64_t cache_entries = 0;
  // Growing simulations: (learner step, simulations) pairs in increasing step order; a full
  // search by a model of step s gets the simulations of the last pair with step <= s, and
  // search.simulations before the first pair. Empty: search.simulations throughout. Cheap
  // searches while the net knows little, deeper ones once its priors are worth following.
  std::vector<std::pair<int64_t, int>> simulations_schedule;
};

struct ReplayConfig {
  // Training starts once this many positions (with policy targets) exist.
  int64_t min_positions = 2000;
  // The window holds the newest positions: clamp(scale * total^exponent, window_min, window_max)
  // (a window that grows with the data, as KataGo's).
  int64_t window_min = 20000;
  int64_t window_max = 500000;
  double window_scale = 8.0;
  double window_exponent = 0.75;
  // Samples trained per self-play position: the learner waits for data above this ratio,
  // and in one process self-play waits for the learner below it (keeps the two in step).
  double train_ratio = 4.0;
  bool symmetries = true;  // random goal-keeping symmetry per sample
  // The value target: (1 - w) * game result + w * the search's root value at that move (both
  // from the mover's view). Some weight on the search's value lowers the target's noise early
  // in a game, where one result says little about one position.
  double root_value_weight = 0.0;
};

struct LearnConfig {
  int batch_size = 256;
  double lr = 0.02;
  int lr_warmup_steps = 100;     // linear ramp from lr/10
  std::vector<int64_t> lr_drops;  // steps at which lr is multiplied by lr_drop_factor
  double lr_drop_factor = 0.3;
  // > 0: the learning rate also falls along a half cosine from lr to lr * lr_final_fraction
  // over this many minutes of training (the run's clock, kept across resumes), then stays
  // there: a schedule tied to a time budget rather than to steps, which differ by machine.
  double lr_minutes = 0.0;
  double lr_final_fraction = 0.1;
  double momentum = 0.9;
  double weight_decay = 1e-4;
  double value_loss_weight = 1.0;
  // Auxiliary targets (KataGo), used only with the heads of net.ownership_head and
  // net.soft_policy_head. Ownership: the weight of (mean over cells of the owner plane's
  // loss + the same for the chain plane), each a binary cross-entropy of the tanh output less
  // the target's entropy (KataGo: 1.5 on its owner plane alone). Soft policy: the search
  // policy raised to the power 1/temperature and renormalised, a cross-entropy like the
  // policy's (KataGo: weight 8, temperature 4).
  double ownership_loss_weight = 0.5;
  double soft_policy_loss_weight = 8.0;
  double soft_policy_temperature = 4.0;
  // > 0: self-play, snapshots and exported models get an exponential moving average of the
  // weights (and batch-norm statistics) rather than the last step's: each step moves it by
  // (1 - d) towards the weights, d = min(ema_decay, (1 + step) / (10 + step)) so that it follows
  // closely while the net changes fast. The learner trains its own weights as before.
  double ema_decay = 0.0;
  int publish_every = 50;     // steps between models published to self-play
  int checkpoint_every = 200;  // steps between checkpoints
  int keep_checkpoints = 3;    // older checkpoints are deleted
  int threads = 1;             // LibTorch intra-op threads for training
  int max_nonfinite_steps = 20;  // steps in a row skipped for a NaN/inf loss or gradient before the run stops
  // The number format of the learner's forward and backward passes: bf16 runs them under
  // LibTorch's CPU autocast (convolutions and matrix products in bfloat16, everything else,
  // the master weights, the loss and the optimizer state in float32); checkpoints are float32
  // either way. auto: bf16 on CPUs with AMX-BF16 or AVX-512 BF16 where a probe of inference finds it
  // faster (nets/net_config.h), as it was where measured: quax 9x9 reached 55% against quax-9.pt in 15 minutes, float32 0% (a Xeon with
  // AMX); hex 9x9 took 50% more learner steps in an hour (an AMD EPYC; docs/benchmarks-log.md).
  Precision precision = Precision::kAuto;
  // Where the learner trains (nets/device.h): auto takes a GPU when LibTorch sees one. On a
  // GPU, precision auto is bf16 (CUDA autocast). Checkpoints and models are device-free.
  Device device;
};

// Optional match of each newly published model (AlphaGo Zero's evaluator, here only
// measured and recorded as "gating" lines of metrics.jsonl; self-play always uses the
// newest model, as in AlphaZero).
struct GatingConfig {
  int games = 0;                       // colour-balanced games per published model; 0 = off
  std::string opponent = "previous";   // "previous" (the model published before) or a baseline: uct:<n>, random, mcts:<n>
  int simulations = 64;                // search of the model(s) in these games
  int every = 1;                       // gate every n-th published model
};

struct RunConfig {
  std::string dir = "runs/default";  // relative paths are relative to the working directory
  int64_t max_steps = 0;       // learner steps; 0 = no limit
  double max_minutes = 0;      // wall-clock limit of this invocation; 0 = no limit
  int64_t max_games = 0;       // self-play games; 0 = no limit
  uint64_t seed = 1;
  double progress_seconds = 10;  // between progress lines
  int metrics_every = 20;        // learner steps between metrics lines
  // Keep the model every this many minutes of training time under <run>/snapshots/ (for the
  // time-to-strength benchmark, `quax bench strength`); 0 = none.
  double snapshot_minutes = 0;
  // A warm start: a fresh run (not a resumed one) takes its first network from this model file
  // or learner checkpoint (Learner::init_from): another size of the variant, or a variant with
  // the same planes and actions. "" = random initialisation.
  std::string init_from;
};

struct TrainConfig {
  // The variant, the pie rule and the board size; in a run of several sizes (below), `size`
  // is the first of them (the primary size: the model file's and checkpoint's "size", and
  // the board of gating games and benchmarks).
  GameSpec game{Variant::kQuax, 5, true};
  // game.variant given as a rules file (docs/VARIANTS.md): its absolute path, which dump_config
  // writes back so that a resumed run reads the same file; empty for a variant's name.
  std::string variant_file;
  // game.sizes: one network for several board sizes of the variant (the network is fully
  // convolutional). Self-play spreads its games over them by weight, each learner batch
  // holds positions of one size, the size drawn by weight. Empty: game.size alone (a file
  // gives game.size or game.sizes, not both).
  std::vector<int> sizes;
  // game.size_weights: one positive number per size; empty = equal weights.
  std::vector<double> size_weights;
  NetConfig net;
  SearchSettings search;
  SelfplayConfig selfplay;
  ReplayConfig replay;
  LearnConfig learn;
  GatingConfig gating;
  RunConfig run;

  // The games of the run: one spec per size of `sizes` in order, or `game` alone.
  std::vector<GameSpec> game_specs() const;
  // One weight per game_specs() entry (the size_weights, or all 1).
  std::vector<double> game_weights() const;

  // The driver options self-play uses (record_policy on), for game_specs()[0].
  DriverOptions driver_options(uint64_t seed) const;
  // The simulations of a full self-play search with a model of learner step `step`
  // (selfplay.simulations_schedule).
  int simulations_at(int64_t step) const;
};

struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Defaults overridden by the YAML text; `source` names it in messages (a path, or
// "<string>"). Throws ConfigError with one line naming the key, the file and the line; a
// text without any section (empty, or comments only) and a key given twice at any level
// are errors too. A top-level `extends: <file>` starts from that file's configuration
// instead of the defaults (the file is relative to the directory of `source`, and may extend
// another); a missing file or a cycle is an error naming the file or the chain.
TrainConfig parse_config(const std::string& yaml_text, const std::string& source);
// parse_config of the file; throws ConfigError naming a path that is missing, unreadable,
// not a regular file (a directory, a FIFO, a device) or above kConfigFileLimit, for it and
// for the files it extends (train/config_yaml.h; anchors and aliases are refused too).
TrainConfig load_config(const std::string& path);
// Applies "key=value" overrides (e.g. "search.simulations=50") after a file. Checks the
// value; rules between keys are checked by check_config once all overrides are in.
void apply_override(TrainConfig* config, const std::string& assignment);
// Rules between keys (window_min <= window_max, a valid spec, ...); throws ConfigError
// naming `source` and the key.
void check_config(const TrainConfig& config, const std::string& source);
// Every key with its value, one "section.key: value" per line, sorted as the schema.
std::string dump_config(const TrainConfig& config);
// The keys the schema knows, "section.key", for documentation and tests.
std::vector<std::string> config_keys();

}  // namespace quax
