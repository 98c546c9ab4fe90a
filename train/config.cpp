#include "train/config.h"

#include "core/quoted_input.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <limits>
#include <map>
#include <sstream>

#include "mcts/baseline_agents.h"
#include "mcts/search_limits.h"
#include "mcts/search_schema.h"
#include "train/config_print.h"
#include "train/config_yaml.h"
#include "rules/rules_file.h"

namespace quax {

namespace {

// One key of the schema: how to read it from a YAML scalar and how to print it.
struct Field {
  std::string key;
  // Throws ConfigError(what is wrong with the value) without the location; the caller adds it.
  std::function<void(TrainConfig&, const YAML::Node&)> set;
  std::function<std::string(const TrainConfig&)> get;
  // One line for configs/README.md's key table and --print-config (the search keys' come from
  // their schema, mcts/search_schema.h), and what a value must be ("an integer in [1, 64]"), which
  // --print-config adds to it; empty for keys whose doc says it.
  std::string doc = {};
  std::string expected = {};
};

[[noreturn]] void bad(const std::string& expected) { throw ConfigError(expected); }

template <typename T>
T scalar_as(const YAML::Node& node, const char* expected) {
  if (!node.IsScalar()) bad(std::string("expected ") + expected);
  try {
    return node.as<T>();
  } catch (const YAML::Exception&) {
    bad(std::string("expected ") + expected);
  }
}

template <typename T, typename Ref>
Field number(const std::string& key, Ref ref, T lo, T hi, const std::string& doc) {
  const char* kind = std::is_integral<T>::value ? "an integer" : "a number";
  return Field{key,
               [ref, lo, hi](TrainConfig& c, const YAML::Node& n) {
                 const char* kind = std::is_integral<T>::value ? "an integer" : "a number";
                 const T v = scalar_as<T>(n, kind);
                 if (!(v >= lo && v <= hi)) bad(fmt::format("expected {} in [{}, {}]", kind, lo, hi));
                 ref(c) = v;
               },
               [ref](const TrainConfig& c) { return fmt::format("{}", ref(const_cast<TrainConfig&>(c))); },
               doc,
               hi == std::numeric_limits<T>::max() ? fmt::format("{} >= {}", kind, lo)
                                                   : fmt::format("{} in [{}, {}]", kind, lo, hi)};
}

template <typename Ref>
Field boolean(const std::string& key, Ref ref, const std::string& doc) {
  return Field{key, [ref](TrainConfig& c, const YAML::Node& n) { ref(c) = scalar_as<bool>(n, "true or false"); },
               [ref](const TrainConfig& c) { return std::string(ref(const_cast<TrainConfig&>(c)) ? "true" : "false"); },
               doc};
}

// `inference`: int8 is accepted too (it has no training passes).
template <typename Ref>
Field precision(const std::string& key, Ref ref, bool inference, const std::string& doc) {
  return Field{key,
               [ref, inference](TrainConfig& c, const YAML::Node& n) {
                 const std::string expected = inference ? "auto, fp32, bf16 or int8" : "auto, fp32 or bf16";
                 const auto s = scalar_as<std::string>(n, expected.c_str());
                 Precision p;
                 if (!parse_precision(s, &p) || (p == Precision::kInt8 && !inference))
                   bad("expected " + expected + ", got " + quoted_input(s));
                 ref(c) = p;
               },
               [ref](const TrainConfig& c) { return std::string(precision_name(ref(const_cast<TrainConfig&>(c)))); },
               doc};
}

template <typename Ref>
Field device(const std::string& key, Ref ref, const std::string& doc) {
  return Field{key,
               [ref](TrainConfig& c, const YAML::Node& n) {
                 const auto s = scalar_as<std::string>(n, kDeviceSyntax);
                 std::string error;
                 if (!parse_device(s, &ref(c), &error)) bad(error);
               },
               [ref](const TrainConfig& c) { return device_name(ref(const_cast<TrainConfig&>(c))); },
               doc};
}

// A key of the search section, read through the search schema (mcts/search_schema.h) with
// YAML's own scalar conversions, so that a config accepts what it always has.
Field search_field(const SearchField& sf) {
  return Field{std::string("search.") + sf.key,
               [&sf](TrainConfig& c, const YAML::Node& n) {
                 std::string error;
                 switch (sf.kind) {
                   case SearchField::Kind::kInteger:
                     error = set_search_integer(&c.search, sf, scalar_as<int>(n, "an integer"));
                     break;
                   case SearchField::Kind::kNumber:
                     error = set_search_number(&c.search, sf, scalar_as<float>(n, "a number"));
                     break;
                   case SearchField::Kind::kBoolean:
                     set_search_boolean(&c.search, sf, scalar_as<bool>(n, "true or false"));
                     break;
                   case SearchField::Kind::kRule:
                     error = set_search_rule(&c.search, scalar_as<std::string>(n, "puct or gumbel"));
                     break;
                 }
                 if (!error.empty()) bad(error);
               },
               [&sf](const TrainConfig& c) { return search_field_text(c.search, sf); },
               sf.doc,
               sf.kind == SearchField::Kind::kInteger || sf.kind == SearchField::Kind::kNumber
                   ? search_field_expected(sf)
                   : std::string()};
}

// A key of the net section, read through the network's schema (nets/net_config.h).
Field net_field(const NetField& nf) {
  const std::string key = std::string("net.") + nf.key;
  if (nf.boolean) return boolean(key, [m = nf.boolean](TrainConfig& c) -> bool& { return c.net.*m; }, nf.doc);
  return number<int>(key, [m = nf.integer](TrainConfig& c) -> int& { return c.net.*m; }, nf.lo, nf.hi, nf.doc);
}

#define REF(expr) [](TrainConfig & c) -> auto& { return c.expr; }

constexpr int kIntMax = std::numeric_limits<int>::max();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

// game: the variant and its sizes.
void add_game_fields(std::vector<Field>& f) {
  f.push_back(Field{"game.variant",
                    [](TrainConfig& c, const YAML::Node& n) {
                      const auto name = scalar_as<std::string>(n, "a variant name or a rules file");
                      try {
                        c.game.variant = variant_from_name_or_file(name);
                      } catch (const RulesFileError& e) {
                        bad(e.what());
                      }
                      c.variant_file.clear();
                      if (names_rules_file(name)) {
                        std::error_code ec;
                        c.variant_file = std::filesystem::absolute(name, ec).lexically_normal().string();
                      }
                    },
                    [](const TrainConfig& c) {
                      return c.variant_file.empty() ? std::string(variant_info(c.game.variant).name) : c.variant_file;
                    },
                    variant_list() + " (docs/RULES.md), or a rules file (docs/VARIANTS.md)"});
  f.push_back(number<int>("game.size", REF(game.size), 3, 26, "board side N (square, rhombus) or triangle side (y, quady)"));
  f.push_back(Field{"game.sizes",
                    [](TrainConfig& c, const YAML::Node& n) {
                      const char* expected = "expected a list of distinct board sizes in [3, 26], e.g. [7, 9, 11]";
                      if (!n.IsSequence() || n.size() == 0) bad(expected);
                      std::vector<int> sizes;
                      for (const auto& e : n) {
                        const int v = scalar_as<int>(e, "a list of integers");
                        if (v < 3 || v > 26 || std::find(sizes.begin(), sizes.end(), v) != sizes.end()) bad(expected);
                        sizes.push_back(v);
                      }
                      c.sizes = sizes;
                      c.game.size = sizes.front();
                    },
                    [](const TrainConfig& c) { return fmt::format("[{}]", fmt::join(c.sizes, ", ")); },
                    "instead of `size`: several sizes for one network, e.g. `[7, 9, 11]`; the first is the primary one (gating, benchmarks)"});
  f.push_back(Field{"game.size_weights",
                    [](TrainConfig& c, const YAML::Node& n) {
                      const char* expected = "expected a list of positive numbers, one per size, e.g. [1, 1, 2]";
                      if (!n.IsSequence() || n.size() == 0) bad(expected);
                      std::vector<double> weights;
                      for (const auto& e : n) {
                        const double w = scalar_as<double>(e, "a list of numbers");
                        if (!(w > 0 && w <= 1e6)) bad(expected);
                        weights.push_back(w);
                      }
                      c.size_weights = weights;
                    },
                    [](const TrainConfig& c) { return fmt::format("[{}]", fmt::join(c.game_weights(), ", ")); },
                    "with `sizes`: shares of self-play games and learner batches, e.g. `[1, 1, 2]`; equal when left out"});
  f.push_back(boolean("game.swap", REF(game.swap), "pie rule"));
}

// selfplay: the games and their search, beyond the search section.
void add_selfplay_fields(std::vector<Field>& f) {
  f.push_back(number<int>("selfplay.parallel_games", REF(selfplay.parallel_games), 1, 65536, "games in flight per self-play thread (the network batch)"));
  f.push_back(number<int>("selfplay.threads", REF(selfplay.threads), 1, 64, "self-play threads, each its own driver and batch"));
  f.push_back(number<int>("selfplay.inference_threads", REF(selfplay.inference_threads), 1, 64, "LibTorch threads of each self-play thread"));
  f.push_back(number<int>("selfplay.nice", REF(selfplay.nice), 0, 19, "added to the self-play threads' nice value, so that a learner in the same process takes a core first (0 = equal priority)"));
  f.push_back(precision("selfplay.precision", REF(selfplay.precision), true, "inference number format: auto (bf16 on a GPU and on CPUs with AMX-BF16 or AVX-512 BF16 where a probe measures it faster, else fp32), fp32, bf16, int8 (the residual tower in 8-bit integers on oneDNN, CPU only)"));
  f.push_back(device("selfplay.device", REF(selfplay.device), "where self-play's network runs: cpu, cuda, cuda:N, auto (the first GPU when LibTorch sees one, else the CPU); on a GPU the threads share one batch ([docs/GPU.md](../docs/GPU.md))"));
  f.push_back(number<int>("selfplay.temperature_moves", REF(selfplay.moves.temperature_moves), 0, 100000, "plies sampled with temperature_early, then temperature_final"));
  f.push_back(number<float>("selfplay.temperature_early", REF(selfplay.moves.temperature_early), 0.0f, 100.0f, "move-choice temperature of the first plies"));
  f.push_back(number<float>("selfplay.temperature_final", REF(selfplay.moves.temperature_final), 0.0f, 100.0f, "after them (0 = most visited)"));
  f.push_back(number<float>("selfplay.full_search_fraction", REF(selfplay.moves.full_search_fraction), 0.0f, 1.0f, "playout cap randomization: share of moves with a full search (1 = off)"));
  f.push_back(number<int>("selfplay.fast_simulations", REF(selfplay.moves.fast_simulations), 0, kMaxSimulations, "simulations of the other moves (not trained on)"));
  f.push_back(boolean("selfplay.resign", REF(selfplay.resign.enabled), "let a losing side resign"));
  f.push_back(number<float>("selfplay.resign_threshold", REF(selfplay.resign.threshold), -1.0f, 1.0f, "root value below which a player may resign..."));
  f.push_back(number<int>("selfplay.resign_consecutive", REF(selfplay.resign.consecutive), 1, 10000, "...for this many of its moves in a row"));
  f.push_back(number<float>("selfplay.resign_playout_fraction", REF(selfplay.resign.playout_fraction), 0.0f, 1.0f, "games played out anyway, to measure false resignations"));
  f.push_back(number<int>("selfplay.resign_min_moves", REF(selfplay.resign.min_moves), 0, 100000, "no resignation before this ply"));
  f.push_back(number<int>("selfplay.max_moves", REF(selfplay.max_moves), 0, 1000000, "a game stops as a draw after this many plies; 0 = the board's own limit"));
  f.push_back(number<int>("selfplay.games_per_shard", REF(selfplay.games_per_shard), 1, 1000000, "finished games per shard file"));
  f.push_back(Field{"selfplay.simulations_schedule",
                    [](TrainConfig& c, const YAML::Node& n) {
                      constexpr const char* kExpected = "a list of [learner step, simulations] pairs, e.g. [[0, 16], [2000, 64]]";
                      if (!n.IsSequence()) bad(std::string("expected ") + kExpected);
                      std::vector<std::pair<int64_t, int>> schedule;
                      for (const auto& e : n) {
                        if (!e.IsSequence() || e.size() != 2) bad(std::string("expected ") + kExpected);
                        const auto step = scalar_as<int64_t>(e[0], "a learner step (an integer >= 0)");
                        const auto sims = scalar_as<int>(e[1], "simulations (an integer >= 1)");
                        if (step < 0 || (!schedule.empty() && step <= schedule.back().first))
                          bad("expected increasing learner steps from 0 up");
                        if (sims < 1 || sims > kMaxSimulations) bad(fmt::format("expected simulations in [1, {}]", kMaxSimulations));
                        schedule.emplace_back(step, sims);
                      }
                      c.selfplay.simulations_schedule = schedule;
                    },
                    [](const TrainConfig& c) {
                      std::vector<std::string> pairs;
                      for (const auto& [step, sims] : c.selfplay.simulations_schedule)
                        pairs.push_back(fmt::format("[{}, {}]", step, sims));
                      return fmt::format("[{}]", fmt::join(pairs, ", "));
                    },
                    "growing simulations: `[[step, sims], ...]` in increasing learner steps; a model of step s searches with the sims of the last pair at or before s (search.simulations before the first pair); empty = search.simulations throughout"});
  f.push_back(number<int64_t>("selfplay.cache_entries", REF(selfplay.cache_entries), 0, 1LL << 30, "network outputs cached per self-play thread, keyed by the input, cleared with each model; 0 = none"));
}

// replay: the window the learner samples.
void add_replay_fields(std::vector<Field>& f) {
  f.push_back(number<int64_t>("replay.min_positions", REF(replay.min_positions), 1, kI64Max, "positions before training starts"));
  f.push_back(number<int64_t>("replay.window_min", REF(replay.window_min), 1, kI64Max, "window = clamp(window_scale * total^window_exponent, window_min, window_max)"));
  f.push_back(number<int64_t>("replay.window_max", REF(replay.window_max), 1, kI64Max, "the largest window, in positions"));
  f.push_back(number<double>("replay.window_scale", REF(replay.window_scale), 0.0, 1e12, "the window's growth with the positions played (replay.window_min's formula)"));
  f.push_back(number<double>("replay.window_exponent", REF(replay.window_exponent), 0.0, 1.0, "the power of the positions played in it (0: a fixed window)"));
  f.push_back(number<double>("replay.train_ratio", REF(replay.train_ratio), 0.01, 1e6, "samples trained per position played"));
  f.push_back(boolean("replay.symmetries", REF(replay.symmetries), "a random goal-keeping symmetry per sample (square 4, rhombus 2, triangle 6)"));
  f.push_back(number<double>("replay.root_value_weight", REF(replay.root_value_weight), 0.0, 1.0, "value target = (1 - w) * result + w * the search's root value"));
}

// learn: the optimizer, the losses' weights, publication and checkpoints.
void add_learn_fields(std::vector<Field>& f) {
  f.push_back(number<int>("learn.batch_size", REF(learn.batch_size), 1, 65536, "samples per step"));
  f.push_back(number<double>("learn.lr", REF(learn.lr), 1e-9, 10.0, "learning rate of SGD with Nesterov momentum"));
  f.push_back(number<int>("learn.lr_warmup_steps", REF(learn.lr_warmup_steps), 0, kIntMax, "linear ramp from lr / 10"));
  f.push_back(Field{"learn.lr_drops",
                    [](TrainConfig& c, const YAML::Node& n) {
                      if (!n.IsSequence()) bad("expected a list of steps, e.g. [2000, 4000]");
                      std::vector<int64_t> steps;
                      for (const auto& e : n) {
                        const auto s = scalar_as<int64_t>(e, "a list of positive integers");
                        if (s <= 0 || (!steps.empty() && s <= steps.back()))
                          bad("expected a list of increasing positive steps");
                        steps.push_back(s);
                      }
                      c.learn.lr_drops = steps;
                    },
                    [](const TrainConfig& c) { return fmt::format("[{}]", fmt::join(c.learn.lr_drops, ", ")); },
                    "steps at which lr is multiplied by lr_drop_factor, e.g. [20000, 30000]"});
  f.push_back(number<double>("learn.lr_drop_factor", REF(learn.lr_drop_factor), 0.0, 1.0, "what each drop multiplies the learning rate by"));
  f.push_back(number<double>("learn.lr_minutes", REF(learn.lr_minutes), 0.0, 1e9, "0 = off; else lr also falls along a half cosine to lr * lr_final_fraction over this many training minutes (the run's clock), then stays there"));
  f.push_back(number<double>("learn.lr_final_fraction", REF(learn.lr_final_fraction), 0.0, 1.0, "where learn.lr_minutes' cosine ends, as a fraction of lr"));
  f.push_back(number<double>("learn.momentum", REF(learn.momentum), 0.0, 0.999, "of SGD (Nesterov)"));
  f.push_back(number<double>("learn.weight_decay", REF(learn.weight_decay), 0.0, 1.0, "L2 on the convolution and linear weights (not on batch-norm parameters or biases)"));
  f.push_back(number<double>("learn.value_loss_weight", REF(learn.value_loss_weight), 0.0, 100.0, "weight of the value loss beside the policy loss"));
  f.push_back(number<double>("learn.ownership_loss_weight", REF(learn.ownership_loss_weight), 0.0, 100.0, "weight of the ownership loss (both planes)"));
  f.push_back(number<double>("learn.soft_policy_loss_weight", REF(learn.soft_policy_loss_weight), 0.0, 100.0, "weight of the soft policy loss"));
  f.push_back(number<double>("learn.soft_policy_temperature", REF(learn.soft_policy_temperature), 0.01, 100.0, "the soft target is the search policy to the power 1/this, renormalised"));
  f.push_back(number<double>("learn.ema_decay", REF(learn.ema_decay), 0.0, 0.99999, "0 = off; else self-play, snapshots and exported models get the exponential moving average of the weights, decay min(this, (1 + step) / (10 + step)) a step"));
  f.push_back(number<int>("learn.publish_every", REF(learn.publish_every), 1, kIntMax, "steps between models sent to self-play"));
  f.push_back(number<int>("learn.checkpoint_every", REF(learn.checkpoint_every), 1, kIntMax, "steps between checkpoints"));
  f.push_back(number<int>("learn.keep_checkpoints", REF(learn.keep_checkpoints), 1, 1000000, "older checkpoints are deleted"));
  f.push_back(number<int>("learn.threads", REF(learn.threads), 1, 64, "LibTorch threads of the learner"));
  f.push_back(number<int>("learn.max_nonfinite_steps", REF(learn.max_nonfinite_steps), 1, 1000000, "NaN/inf steps in a row (each skipped) before the run stops"));
  f.push_back(precision("learn.precision", REF(learn.precision), false, "number format of the learner's passes: fp32; bf16 (CPU autocast: convolutions and matrix products in bfloat16, master weights, loss and optimizer state in float32; needs AVX-512 on the CPU; CUDA autocast on a GPU); auto (bf16 on a GPU and on CPUs with AMX-BF16 or AVX-512 BF16 where a probe measures it faster, else fp32)"));
  f.push_back(device("learn.device", REF(learn.device), "where the learner trains: cpu, cuda, cuda:N, auto (the first GPU when LibTorch sees one, else the CPU); checkpoints and models are the same on every device"));
}

// gating: games of each new model before self-play takes it.
void add_gating_fields(std::vector<Field>& f) {
  f.push_back(number<int>("gating.games", REF(gating.games), 0, 100000, "colour-balanced games per gated model; 0 = off"));
  f.push_back(Field{"gating.opponent",
                    [](TrainConfig& c, const YAML::Node& n) {
                      c.gating.opponent = scalar_as<std::string>(n, "previous or a baseline player");
                      std::string error;
                      if (c.gating.opponent != "previous" && !make_baseline_agent(c.gating.opponent, 0, &error))
                        bad("expected previous, random, uct:<n> or mcts:<n>");
                    },
                    [](const TrainConfig& c) { return c.gating.opponent; },
                    "previous (the model published before) or a baseline: random, uct:<n>, mcts:<n>"});
  f.push_back(number<int>("gating.simulations", REF(gating.simulations), 1, kMaxSimulations, "search of the model(s) in these games"));
  f.push_back(number<int>("gating.every", REF(gating.every), 1, kIntMax, "gate every n-th published model"));
}

// run: the directory, the limits and the reports.
void add_run_fields(std::vector<Field>& f) {
  f.push_back(Field{"run.dir",
                    [](TrainConfig& c, const YAML::Node& n) {
                      c.run.dir = scalar_as<std::string>(n, "a directory path");
                      if (c.run.dir.empty()) bad("expected a non-empty directory path");
                    },
                    [](const TrainConfig& c) { return c.run.dir; },
                    "the run directory (relative to the working directory)"});
  f.push_back(number<int64_t>("run.max_steps", REF(run.max_steps), 0, kI64Max, "learner steps; 0 = no limit"));
  f.push_back(number<double>("run.max_minutes", REF(run.max_minutes), 0.0, 1e9, "wall-clock limit of one invocation; 0 = none"));
  f.push_back(number<int64_t>("run.max_games", REF(run.max_games), 0, kI64Max, "self-play games; 0 = no limit"));
  f.push_back(number<uint64_t>("run.seed", REF(run.seed), 0, std::numeric_limits<uint64_t>::max(), "seed of the network, the learner and self-play"));
  f.push_back(number<double>("run.progress_seconds", REF(run.progress_seconds), 0.1, 1e9, "between progress lines"));
  f.push_back(number<int>("run.metrics_every", REF(run.metrics_every), 1, kIntMax, "learner steps between metrics lines"));
  f.push_back(number<double>("run.snapshot_minutes", REF(run.snapshot_minutes), 0.0, 1e9, "keep the model every this many training minutes in <run>/snapshots/ (`quax bench strength`); 0 = none"));
  f.push_back(Field{"run.init_from",
                    [](TrainConfig& c, const YAML::Node& n) { c.run.init_from = scalar_as<std::string>(n, "a file path"); },
                    [](const TrainConfig& c) { return c.run.init_from; },
                    "warm start: a fresh run takes its first network from this model file or learner checkpoint (another size of the variant, or a variant with the same planes and actions; a net of more blocks starts as its function, its extra blocks the identity); the optimizer and step start fresh; ignored by `--resume`"});
}

const std::vector<Field>& schema() {
  static const std::vector<Field> fields = [] {
    std::vector<Field> f;
    add_game_fields(f);
    for (const auto& nf : net_fields()) f.push_back(net_field(nf));
    for (const auto& sf : search_fields()) f.push_back(search_field(sf));
    add_selfplay_fields(f);
    add_replay_fields(f);
    add_learn_fields(f);
    add_gating_fields(f);
    add_run_fields(f);
    return f;
  }();
  return fields;
}

const Field* find_field(const std::string& key) {
  for (const auto& f : schema())
    if (f.key == key) return &f;
  return nullptr;
}

std::string where(const std::string& source, const YAML::Node& node) {
  const auto mark = node.Mark();
  if (mark.line < 0) return source;
  return fmt::format("{}:{}", source, mark.line + 1);
}

void set_field(TrainConfig& c, const std::string& key, const YAML::Node& value, const std::string& loc) {
  const Field* f = find_field(key);
  if (!f) throw ConfigError(fmt::format("{}: unknown key {}", loc, quoted_input(key)));
  try {
    f->set(c, value);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: bad value for '{}': {}", loc, key, e.what()));
  }
  // game.size given after game.sizes (by an override, or by a file over the one it extends)
  // makes the run one of that size.
  if (key == "game.size") {
    c.sizes.clear();
    c.size_weights.clear();
  }
}

// yaml-cpp keeps both pairs of a key given twice in a mapping, and which one a reader sees
// depends on how it looks: refuse the file instead, naming the key (as section.key) and
// both lines.
void reject_duplicate_keys(const YAML::Node& node, const std::string& prefix, const std::string& source) {
  if (node.IsSequence()) {
    for (const auto& item : node) reject_duplicate_keys(item, prefix, source);
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, int> first_line;
  for (const auto& kv : node) {
    if (!kv.first.IsScalar())
      throw ConfigError(fmt::format("{}: a key must be a plain word, not a list or a mapping", where(source, kv.first)));
    const std::string key = prefix.empty() ? kv.first.Scalar() : prefix + "." + kv.first.Scalar();
    const auto [it, first] = first_line.emplace(kv.first.Scalar(), kv.first.Mark().line + 1);
    if (!first)
      throw ConfigError(fmt::format("{}: duplicate key {} (first at line {})", where(source, kv.first), quoted_input(key), it->second));
    reject_duplicate_keys(kv.second, key, source);
  }
}

// game.sizes and game.size_weights: playable sizes, one weight each, and one network shape
// for all (true of every variant so far: planes and extra actions do not depend on N).
void check_sizes(const TrainConfig& c, const std::string& source) {
  if (!c.size_weights.empty() && c.sizes.empty())
    throw ConfigError(fmt::format("{}: bad value for 'game.size_weights': it needs game.sizes (one weight per size)", source));
  if (!c.size_weights.empty() && c.size_weights.size() != c.sizes.size())
    throw ConfigError(fmt::format("{}: bad value for 'game.size_weights': {} weights for {} sizes", source,
                                  c.size_weights.size(), c.sizes.size()));
  const auto specs = c.game_specs();
  for (const auto& spec : specs)
    if (auto err = check_spec(spec); !err.empty())
      throw ConfigError(fmt::format("{}: bad value for 'game.sizes': {}", source, err));
  const ModelShape first = model_shape_for(specs.front());
  for (const auto& spec : specs) {
    const ModelShape shape = model_shape_for(spec);
    if (!same_layout(shape, first))
      throw ConfigError(fmt::format("{}: bad value for 'game.sizes': {} has another network input or action layout "
                                    "at {}x{} than at {}x{}, so one network cannot play both",
                                    source, variant_info(spec.variant).name, spec.size, spec.size, first.size,
                                    first.size));
  }
}

void check_consistency(const TrainConfig& c, const std::string& source) {
  if (auto err = check_spec(c.game); !err.empty()) throw ConfigError(fmt::format("{}: game: {}", source, err));
  if (!c.sizes.empty() || !c.size_weights.empty()) check_sizes(c, source);
  if (auto err = check_settings(c.search); !err.empty()) throw ConfigError(fmt::format("{}: search: {}", source, err));
  if (c.replay.window_min > c.replay.window_max)
    throw ConfigError(fmt::format("{}: bad value for 'replay.window_min': {} is above replay.window_max ({})", source,
                                  c.replay.window_min, c.replay.window_max));
  // The move choice's rules are the driver's own (mcts/selfplay_driver.h), said with their keys.
  if (auto err = check_move_choice(c.selfplay.moves); !err.empty())
    throw ConfigError(fmt::format("{}: selfplay: {}", source, err));
}

}  // namespace

void check_config(const TrainConfig& config, const std::string& source) { check_consistency(config, source); }

std::vector<GameSpec> TrainConfig::game_specs() const {
  if (sizes.empty()) return {game};
  std::vector<GameSpec> specs;
  for (int size : sizes) specs.push_back(GameSpec{game.variant, size, game.swap});
  return specs;
}

std::vector<double> TrainConfig::game_weights() const {
  if (!size_weights.empty()) return size_weights;
  return std::vector<double>(std::max<size_t>(sizes.size(), 1), 1.0);
}

int TrainConfig::simulations_at(int64_t step) const {
  int sims = search.simulations;
  for (const auto& [from, s] : selfplay.simulations_schedule)
    if (step >= from) sims = s;
  return sims;
}

DriverOptions TrainConfig::driver_options(uint64_t seed) const {
  DriverOptions opt;
  opt.spec = game;
  opt.parallel_games = selfplay.parallel_games;
  opt.games_to_play = -1;
  PlayerSettings p;
  static_cast<MoveChoice&>(p) = selfplay.moves;
  p.search = search;
  p.record_policy = true;
  opt.players = {p};
  opt.resign = selfplay.resign;
  opt.max_moves = selfplay.max_moves;
  opt.seed = seed;
  return opt;
}

namespace {

// The files a config extends are read relative to the file that names them (relative to the
// working directory for text that is not a file). `chain` lists the files being read, outermost
// first, to refuse a cycle by naming it.
TrainConfig parse_config_in_chain(const std::string& yaml_text, const std::string& source,
                                  std::vector<std::string>& chain);

TrainConfig load_config_in_chain(const std::string& path, std::vector<std::string>& chain) {
  return parse_config_in_chain(read_config_file(path), path, chain);
}

// The configuration `root.extends` names, read with its own chain, or the defaults.
TrainConfig extended_config(const YAML::Node& root, const std::string& source, std::vector<std::string>& chain) {
  const YAML::Node base = root["extends"];
  if (!base) return TrainConfig{};
  if (!base.IsScalar() || base.Scalar().empty())
    throw ConfigError(fmt::format("{}: 'extends' must name one config file", where(source, base)));
  const auto path = (std::filesystem::path(source).parent_path() / base.Scalar()).lexically_normal();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw ConfigError(fmt::format("{}: extends {}: no such file", where(source, base), quoted_input(base.Scalar())));
  const std::string id = std::filesystem::weakly_canonical(path, ec).string();
  for (const auto& file : chain) {
    if (file != id) continue;
    std::vector<std::string> names;
    for (const auto& f : chain) names.push_back(std::filesystem::path(f).filename().string());
    names.push_back(path.filename().string());
    throw ConfigError(fmt::format("{}: extends {} makes a cycle: {}", where(source, base), quoted_input(base.Scalar()),
                                  fmt::join(names, " -> ")));
  }
  std::string text;
  try {
    text = read_config_file(path.string());
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("{}: extends {}: {}", where(source, base), quoted_input(base.Scalar()), e.what()));
  }
  return parse_config_in_chain(text, path.string(), chain);
}

// A rules file that game.variant names by a relative path is read relative to the config file
// that names it, as `extends` is; a name, an absolute path, or text that is not a file are kept.
YAML::Node beside_config(const YAML::Node& value, const std::string& source) {
  if (!value.IsScalar() || !names_rules_file(value.Scalar())) return value;
  const std::filesystem::path given(value.Scalar());
  std::error_code ec;
  if (given.is_absolute() || !std::filesystem::is_regular_file(source, ec)) return value;
  return YAML::Node((std::filesystem::path(source).parent_path() / given).lexically_normal().string());
}

TrainConfig parse_config_in_chain(const std::string& yaml_text, const std::string& source,
                                  std::vector<std::string>& chain) {
  const YAML::Node root = load_config_yaml(yaml_text, source);
  // Nothing but comments is more likely a wrong or truncated file than a wish for every
  // default (an unlimited run on the default board).
  if (root.IsNull())
    throw ConfigError(source + ": the config is empty (no sections; configs/quickstart.yaml is an example)");
  if (!root.IsMap()) throw ConfigError(source + ": expected a mapping of sections (game, net, search, ...)");
  reject_duplicate_keys(root, "", source);
  std::error_code ec;
  chain.push_back(std::filesystem::weakly_canonical(source, ec).string());
  TrainConfig c = extended_config(root, source, chain);
  chain.pop_back();
  for (const auto& section : root) {
    const auto name = section.first.as<std::string>();
    if (name == "extends") continue;
    bool known = false;
    for (const auto& f : schema()) known = known || f.key.rfind(name + ".", 0) == 0;
    if (!known) throw ConfigError(fmt::format("{}: unknown key {}", where(source, section.first), quoted_input(name)));
    if (!section.second.IsMap()) {
      throw ConfigError(fmt::format("{}: section {} must be a mapping of keys", where(source, section.first), quoted_input(name)));
    }
    // One size or a list of sizes: both would leave it to the reader which one counts.
    if (name == "game") {
      bool has_size = false;
      for (const auto& kv : section.second) has_size = has_size || kv.first.Scalar() == "size";
      for (const auto& kv : section.second)
        if (has_size && kv.first.Scalar() == "sizes")
          throw ConfigError(fmt::format("{}: 'game.size' and 'game.sizes' exclude each other: give one board size "
                                        "or a list of sizes",
                                        where(source, kv.first)));
    }
    for (const auto& kv : section.second) {
      const auto key = name + "." + kv.first.as<std::string>();
      set_field(c, key, key == "game.variant" ? beside_config(kv.second, source) : kv.second, where(source, kv.first));
    }
  }
  check_consistency(c, source);
  return c;
}

}  // namespace

TrainConfig parse_config(const std::string& yaml_text, const std::string& source) {
  std::vector<std::string> chain;
  return parse_config_in_chain(yaml_text, source, chain);
}

TrainConfig load_config(const std::string& path) {
  std::vector<std::string> chain;
  return load_config_in_chain(path, chain);
}

void apply_override(TrainConfig* config, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("override " + quoted_input(assignment) + " is not of the form section.key=value");
  const std::string key = assignment.substr(0, eq);
  YAML::Node value;
  try {
    value = load_config_yaml(assignment.substr(eq + 1), "override");
  } catch (const ConfigError&) {
    throw ConfigError("override " + quoted_input(assignment) + ": cannot parse the value");
  }
  set_field(*config, key, value, "override");
}

namespace {

// A key's value as a file writes it.
std::string value_text(const Field& f, const TrainConfig& config) {
  const std::string value = f.get(config);
  if (f.key == "run.dir" || f.key == "run.init_from" || f.key == "game.variant")
    return YAML::Dump(YAML::Node(value));  // quoted where needed
  return value;
}

// Keys a file of one size leaves out (a run of one size dumps as it always has).
bool only_with_sizes(const Field& f) { return f.key == "game.sizes" || f.key == "game.size_weights"; }

std::string dump(const TrainConfig& config, bool documented) {
  // Nested sections, so that the dump parses back to the same configuration.
  std::string out, section;
  for (const auto& f : schema()) {
    // One size or the list of sizes, as a file gives them (a run of one size dumps as before).
    if (config.sizes.empty() ? only_with_sizes(f) : f.key == "game.size") continue;
    const auto dot = f.key.find('.');
    if (f.key.substr(0, dot) != section) {
      section = f.key.substr(0, dot);
      out += section + ":\n";
    }
    out += "  " + f.key.substr(dot + 1) + ": " + value_text(f, config);
    if (documented) out += "  # " + f.doc + (f.expected.empty() ? "" : "; " + f.expected);
    out += "\n";
  }
  return out;
}

}  // namespace

std::string dump_config(const TrainConfig& config) { return dump(config, false); }

std::string dump_config_documented(const TrainConfig& config) { return dump(config, true); }

std::string config_key_table() {
  const TrainConfig defaults;
  std::string out;
  for (const auto& f : schema())
    out += fmt::format("| `{}` | {} | {} |\n", f.key, only_with_sizes(f) ? "-" : "`" + value_text(f, defaults) + "`", f.doc);
  return out;
}

std::vector<std::string> config_keys() {
  std::vector<std::string> keys;
  for (const auto& f : schema()) keys.push_back(f.key);
  return keys;
}

}  // namespace quax
