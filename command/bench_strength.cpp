// `quax bench strength`: time to strength. Trains a config from scratch for
// --minutes, keeping the model every --every minutes of training time
// (run.snapshot_minutes), then plays every kept model against one or more fixed
// opponents, colour-balanced, --games each. The evaluation runs after training,
// so it takes no training time. For each opponent it reports the training
// minutes of the first kept model whose score reaches its target, and writes to
// the run directory:
//   strength-<opponent>.jsonl  the games (arena results format, appended: an
//   interrupted or
//                              repeated evaluation plays only the games still
//                              missing)
//   strength-<opponent>.csv    minutes, step, games, wins, draws, losses,
//   score, 95% interval strength-<opponent>.svg    the curve
//   strength-<opponent>.json   the summary: minutes to target, the points,
//   machine and load
// `--evaluate-only` skips training and evaluates the snapshots of an existing
// run (e.g. against another opponent).
// `--opponent-gtp '<command>'` adds a program outside the project (MoHex) as an
// opponent over the text protocol: games without the pie rule, one at a time,
// each pair of games (one with each colour) from its own first move, the same
// first moves for every kept model; each side's seconds a move go into the
// games and the CSV/JSON. Its stderr goes to strength-gtp_<name>.stderr.log in
// the run directory.
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "arena/balance_openings.h"
#include "arena/gtp_agent.h"
#include "arena/match.h"
#include "arena/results_log.h"
#include "arena/strength_curve.h"
#include "command/player_options.h"
#include "command/arena_games.h"
#include "command/command.h"
#include "command/device_option.h"
#include "command/stop_signal.h"
#include "core/atomic_file.h"
#include "core/bounded_file.h"
#include "core/bounded_json.h"
#include "core/quoted_input.h"
#include "env/rng.h"
#include "nets/net_evaluator.h"
#include "nets/players.h"
#include "train/snapshots.h"
#include "train/train_loop.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

// A file-name-safe tag for an opponent: "uct:1000" -> "uct_1000",
// "checkpoints/quax-7.pt:sims=200" -> "quax-7.pt_sims_200".
std::string opponent_tag(const std::string& opponent) {
  const auto colon = opponent.find(':');
  std::string head = opponent.substr(0, colon), tail = colon == std::string::npos ? "" : opponent.substr(colon);
  head = fs::path(head).filename().string();
  std::string tag;
  for (char c : head + tail) tag += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' ? c : '_';
  return tag;
}

std::string snapshot_name(const Snapshot& s) { return fmt::format("{:g}min", s.seconds / 60.0); }

// Learner steps of the snapshots, from the run's "snapshot" metrics lines
// (mark_s -> step); none without a metrics file. Throws naming the file when it
// is not a regular file of at most kMetricsFileLimit bytes.
std::map<int64_t, int64_t> snapshot_steps(const std::string& run_dir) {
  std::map<int64_t, int64_t> out;
  const std::string path = run_dir + "/metrics.jsonl";
  std::error_code ec;
  if (!fs::exists(fs::status(path, ec))) return out;
  std::istringstream in(read_regular_file(path, kMetricsFileLimit, "metrics file"));
  for (std::string line; std::getline(in, line);) {
    const auto j = parse_json_or_discarded(line, path);
    if (j.is_object() && j.value("kind", "") == "snapshot" && j.contains("mark_s") && j.contains("step"))
      out[j["mark_s"].get<int64_t>()] = j["step"].get<int64_t>();
  }
  return out;
}

// The text of a /proc file, "" when it cannot be read (the note is then
// shorter). Bounded like any other file: /proc files report size 0 and are read
// to their end.
std::string proc_text(const std::string& path) {
  try {
    return read_regular_file(path, kMetricsFileLimit, "system file");
  } catch (const std::exception&) {
    return "";
  }
}

// The machine and its load, for the record (figures are only comparable on one
// machine).
nlohmann::json machine_note() {
  nlohmann::json j;
  std::istringstream cpu(proc_text("/proc/cpuinfo"));
  for (std::string line; std::getline(cpu, line);)
    if (line.rfind("model name", 0) == 0) {
      j["cpu"] = line.substr(line.find(':') + 2);
      break;
    }
  j["cores"] = static_cast<int>(::sysconf(_SC_NPROCESSORS_ONLN));
  std::istringstream load(proc_text("/proc/loadavg"));
  double l1 = 0, l5 = 0, l15 = 0;
  if (load >> l1 >> l5 >> l15) j["loadavg"] = {l1, l5, l15};
  return j;
}

struct Options {
  std::string config;
  std::vector<std::string> overrides;
  std::string run_dir;
  double minutes = 20;
  bool minutes_given = false;  // --minutes on the command line (else --evaluate-only takes the run's)
  double every = 2.5;
  std::vector<double> at;  // --at: evaluate only the models kept at these training minutes
  std::vector<std::string> opponents;
  std::vector<double> targets;
  int games = 40;
  int sims = 200;
  int threads = 2;
  int parallel = 32;
  bool evaluate_only = false;
  uint64_t seed = 1;
  GtpOpponent gtp;                   // --opponent-gtp*: command empty when none
  std::string gtp_setup;             // --opponent-gtp-setup, ';' between commands
  std::string gtp_identity;          // its answers to name and version
  std::string device_text = "auto";  // --device
  Device device = kCpuDevice;        // --device resolved: where the kept models play
};

// Plays `missing` more games of the kept model `name` (playing as `player`),
// `played` of its games being already in the results file.
using PlayMissingGames = std::function<void(const std::string& name, const PlayerDescription& player, int played,
                                            int missing, uint64_t seed)>;

// Mean seconds a chosen move of `name` and of `opponent` over their timed games
// in `results`.
void add_seconds_a_move(const std::vector<GameResult>& results, const std::string& name, const std::string& opponent,
                        StrengthPoint* p) {
  double seconds[2] = {0, 0};  // model, opponent
  int moves[2] = {0, 0};
  for (const auto& r : results) {
    if (!((r.black == name && r.white == opponent) || (r.black == opponent && r.white == name))) continue;
    for (int colour : {0, 1}) {
      const int side = (colour == 0 ? r.black : r.white) == name ? 0 : 1;
      seconds[side] += r.seconds[colour];
      moves[side] += r.chosen[colour];
    }
  }
  p->model_seconds = moves[0] ? seconds[0] / moves[0] : 0;
  p->opponent_seconds = moves[1] ? seconds[1] / moves[1] : 0;
}

// Tops up every snapshot's games against `opponent` to opt.games through
// `play_missing`; returns the curve.
std::vector<StrengthPoint> evaluate(const Options& opt, const GameSpec& spec, const std::string& opponent,
                                    const std::string& results, const PlayMissingGames& play_missing) {
  const auto snapshots = list_snapshots(opt.run_dir);
  const auto steps = snapshot_steps(opt.run_dir);
  std::vector<StrengthPoint> points;
  for (const auto& s : snapshots) {
    if (s.seconds > opt.minutes * 60 + 1) continue;
    if (!opt.at.empty() &&
        std::none_of(opt.at.begin(), opt.at.end(), [&](double m) { return std::abs(m * 60 - s.seconds) < 1; }))
      continue;
    const std::string name = snapshot_name(s);
    auto count = [&] {
      StrengthPoint p;
      p.minutes = s.seconds / 60.0;
      p.step = steps.count(s.seconds) ? steps.at(s.seconds) : -1;
      const auto games = load_results(results, spec);
      const Standings st = tally({name, opponent}, games, false);
      if (!st.pairs.empty()) {  // the one pair, from the model's side (player 0)
        p.wins = static_cast<int>(st.pairs[0].wins_i);
        p.losses = static_cast<int>(st.pairs[0].wins_j);
        p.draws = static_cast<int>(st.pairs[0].draws);
        p.distinct = st.distinct_games[0];
      }
      add_seconds_a_move(games, name, opponent, &p);
      return p;
    };
    StrengthPoint p = count();
    const int missing = opt.games - p.games();
    if (missing > 0) {
      PlayerDescription player = model_player_description(s.path);
      PlayerSearchSize size;
      size.sims = opt.sims;
      std::string error;
      if (!set_player_search_size(&player, size, &error) || !make_player(player, spec, 0, &error, opt.device))
        throw CommandError(error);
      play_missing(
          name, player, p.games(), missing,
          derive_seed(derive_seed(opt.seed, static_cast<uint64_t>(s.seconds)), static_cast<uint64_t>(p.games())));
      p = count();
    }
    const auto si = score_interval(p.wins, p.draws, p.losses);
    fmt::print(
        "  {:>8} step {:>6}: {:>3}/{:<3} {:5.1f}%  [{:.1f}, {:.1f}]  {} "
        "distinct games",
        name, p.step, p.wins + 0.5 * p.draws, p.games(), 100 * si.score, 100 * si.low, 100 * si.high, p.distinct);
    if (p.opponent_seconds > 0)
      fmt::print("; seconds a move {:.2f}, opponent {:.2f}", p.model_seconds, p.opponent_seconds);
    fmt::print("\n");
    std::fflush(stdout);
    points.push_back(p);
  }
  return points;
}

// Games against a baseline or a model: as many at once as the arena plays them.
PlayMissingGames play_against_player(const Options& opt, const GameSpec& spec, const std::string& opponent,
                                     const std::string& results) {
  return [&opt, spec, opponent, results](const std::string& name, const PlayerDescription& player, int played,
                                         int missing, uint64_t seed) {
    PlayerDescription opponent_player;
    std::string error;
    if (!parse_player_description(opponent, &opponent_player, &error)) throw CommandError(error);
    ArenaGamesOptions ao;
    ao.threads = opt.threads;
    ao.device = opt.device;
    ao.parallel = opt.parallel;
    ao.seed = seed;
    play_arena_games(
        spec, {name, opponent}, {player, opponent_player}, schedule_games(2, missing, Schedule::kGauntlet), ao,
        [&](size_t, const GameResult& r) { append_results(results, {r}); }, [] { return false; });
  };
}

// The first moves of the games against a program over GTP: one per pair of
// games, drawn without repeats from the first-move classes
// (arena/balance_openings.h) by `seed`, so every kept model meets the same
// ones; a class's images would be the same game. More pairs than classes take
// them again in the same order.
std::vector<int> gtp_openings(const GameSpec& spec, int pairs, uint64_t seed) {
  auto classes = first_move_classes(spec);
  Rng rng(seed);
  for (size_t i = classes.size(); i > 1; --i) std::swap(classes[i - 1], classes[rng.below(static_cast<uint32_t>(i))]);
  std::vector<int> out;
  for (int i = 0; i < pairs && !classes.empty(); ++i) out.push_back(classes[i % classes.size()].front());
  return out;
}

// Games against a program over GTP: one at a time (it is one process), game k
// from opening k / 2 with the model black in the even ones, so an interrupted
// evaluation goes on where it stopped.
PlayMissingGames play_against_gtp(const Options& opt, const GameSpec& spec, const std::string& opponent,
                                  const std::string& results) {
  return [&opt, spec, opponent, results](const std::string& name, const PlayerDescription& player, int played,
                                         int missing, uint64_t seed) {
    const auto openings = gtp_openings(spec, (opt.games + 1) / 2, opt.seed);
    std::vector<Pairing> games;
    for (int k = played; k < played + missing; ++k)
      games.push_back(
          {k % 2 == 0 ? 0 : 1, k % 2 == 0 ? 1 : 0, {openings[static_cast<size_t>(k / 2) % openings.size()]}});
    set_torch_threads(1);  // the program searches on one thread too (its setup says so)
    const AgentFactory make = [&](int index, uint64_t agent_seed) -> std::unique_ptr<Agent> {
      if (index == 1) return std::make_unique<GtpAgent>(spec, opt.gtp);
      std::string error;
      auto agent = make_player(player, spec, agent_seed, &error, opt.device);
      if (!agent) throw CommandError(error);
      return agent;
    };
    const StopOnSignal stop;
    const auto stopped = [&] { return stop.flag()->load(); };
    play_games(
        spec, {name, opponent}, games, make, 1, seed,
        [&](size_t g, const GameResult& r) {
          append_results(results, {r});
          fmt::print("    game {}/{}: {} wins in {} moves\n", played + g + 1, opt.games,
                     r.outcome == Outcome::kDraw                               ? "nobody"
                     : (r.outcome == Outcome::kBlackWins) == (r.black == name) ? name
                                                                               : opponent,
                     r.moves);
          std::fflush(stdout);
        },
        stopped);
    // Ctrl-C reaches this process only (the program has its own process group):
    // the game in progress ends first.
    if (stopped()) throw CommandError("stopped: the games played so far are in " + results);
  };
}

// Evaluates every kept model against `opponent` and writes <base>.csv, .svg and
// .json.
void report(const Options& opt, const GameSpec& spec, const std::string& opponent, double target,
            const std::string& base, const PlayMissingGames& play_missing) {
  fmt::print(
      "\nagainst {} ({} games each, kept models at {} simulations), "
      "target {:g}%:\n",
      opponent, opt.games + opt.games % 2, opt.sims, 100 * target);
  const auto points = evaluate(opt, spec, opponent, base + ".jsonl", play_missing);
  const double reached = minutes_to_target(points, target);
  if (reached < 0)
    fmt::print("target {:g}% against {} not reached in {:g} minutes\n", 100 * target, opponent, opt.minutes);
  else
    fmt::print("target {:g}% against {} reached after {:g} minutes of training\n", 100 * target, opponent, reached);
  write_file_atomically(base + ".csv", strength_csv(points));
  write_file_atomically(base + ".svg",
                        strength_svg(points, target, fmt::format("{} against {}", describe(spec), opponent)));
  nlohmann::json summary{{"opponent", opponent},
                         {"target", target},
                         {"minutes_to_target", reached < 0 ? nlohmann::json() : nlohmann::json(reached)},
                         {"games_per_model", opt.games + opt.games % 2},
                         {"simulations", opt.sims},
                         {"game", describe(spec)},
                         {"machine_at_evaluation", machine_note()}};
  if (!opt.gtp.command.empty() && opponent == "gtp:" + opt.gtp.name)
    summary["gtp"] = {{"command", opt.gtp.command}, {"setup", opt.gtp.setup}, {"program", opt.gtp_identity}};
  for (const auto& p : points) {
    const auto s = score_interval(p.wins, p.draws, p.losses);
    summary["points"].push_back({{"minutes", p.minutes},
                                 {"step", p.step},
                                 {"games", p.games()},
                                 {"score", s.score},
                                 {"low", s.low},
                                 {"high", s.high},
                                 {"distinct_games", p.distinct},
                                 {"model_seconds_a_move", p.model_seconds},
                                 {"opponent_seconds_a_move", p.opponent_seconds}});
  }
  write_file_atomically(base + ".json", summary.dump(2) + "\n");
}

// The opponents' defaults and checks: uct:1000 when none is given, the GTP program's setup
// and name, one --target or one per opponent.
void check_opponents(Options& opt) {
  const bool gtp = !opt.gtp.command.empty();
  if (opt.opponents.empty() && !gtp) opt.opponents = {"uct:1000"};
  opt.gtp.setup = split_gtp_setup(opt.gtp_setup);
  if (gtp && (opt.gtp.name.empty() || opponent_tag(opt.gtp.name) != opt.gtp.name))
    throw CommandError("--opponent-gtp-name " + quoted_input(opt.gtp.name) +
                       ": letters, digits, '.', '-' and '_' only (it names files)");
  const size_t opponents = opt.opponents.size() + (gtp ? 1 : 0);
  if (opt.targets.empty()) opt.targets = {0.9};
  if (opt.targets.size() != 1 && opt.targets.size() != opponents)
    throw CommandError(fmt::format("--target is given {} times for {} opponents: give one, or one per opponent "
                                   "(--opponent-gtp last)",
                                   opt.targets.size(), opponents));
}

// The configuration of the run: the run directory's (--evaluate-only), else --config with
// --set, its run keys set for the benchmark (snapshots every --every minutes, --minutes of
// training and a little more, so that the model of minute --minutes is kept too).
TrainConfig strength_config(Options& opt, bool device_given) {
  if (opt.evaluate_only) {
    if (opt.run_dir.empty()) throw CommandError("--evaluate-only needs --run <run directory>");
    // Every model the run kept, unless --minutes says how far: the default 20 would leave
    // out those of a longer run without a word.
    if (const auto kept = list_snapshots(opt.run_dir); !opt.minutes_given && !kept.empty())
      opt.minutes = kept.back().seconds / 60.0;
    return load_run_config(opt.run_dir);
  }
  if (opt.config.empty()) throw CommandError("--config is required (or --evaluate-only with --run)");
  TrainConfig config = load_config(opt.config);
  for (const auto& o : opt.overrides) apply_override(&config, o);
  if (opt.run_dir.empty()) {
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y%m%d-%H%M%S", std::localtime(&now));
    opt.run_dir = fmt::format("runs/strength-{}-{}", fs::path(opt.config).stem().string(), date);
  }
  config.run.dir = opt.run_dir;
  config.run.snapshot_minutes = opt.every;
  config.run.max_minutes = opt.minutes + std::min(0.25, opt.every / 4);
  config.run.max_steps = 0;
  config.run.max_games = 0;
  if (device_given) config.learn.device = config.selfplay.device = opt.device;
  return config;
}

// The training, from scratch; its settings and the machine's load before and after go into
// <run>/strength-training.json.
void train_for_strength(const Options& opt, const TrainConfig& config) {
  fmt::print("training {} for {:g} minutes into {}, a model kept every {:g} minutes\n", describe(config.game),
             opt.minutes, opt.run_dir, opt.every);
  std::fflush(stdout);
  const nlohmann::json load_before = machine_note();
  {
    const StopOnSignal stop;  // Ctrl-C ends the training early; the kept models are still evaluated
    TrainOptions training;
    training.stop_requested = stop.flag();
    run_training(config, training);
  }
  const nlohmann::json record{{"config", opt.config},  {"overrides", opt.overrides},
                              {"minutes", opt.minutes}, {"every", opt.every},
                              {"machine_at_start", load_before}, {"machine_at_end", machine_note()}};
  write_file_atomically(opt.run_dir + "/strength-training.json", record.dump(2) + "\n");
}

void run_bench_strength(Options& opt, bool device_given) {
  check_opponents(opt);
  const auto target_of = [&](size_t i) { return opt.targets.size() == 1 ? opt.targets[0] : opt.targets[i]; };
  const TrainConfig config = strength_config(opt, device_given);
  const GameSpec spec = config.game;
  for (const auto& o : opt.opponents) {
    std::string error;
    if (!make_player(o, spec, 0, &error, opt.device)) throw CommandError(error);
  }
  // A command or setup the program refuses shows now, not after the training.
  const bool gtp = !opt.gtp.command.empty();
  if (gtp) opt.gtp_identity = GtpAgent(GameSpec{spec.variant, spec.size, false}, opt.gtp).identity();
  if (!opt.evaluate_only) train_for_strength(opt, config);
  const auto kept = list_snapshots(opt.run_dir);
  if (kept.empty())
    throw CommandError("no snapshots in '" + opt.run_dir + "/snapshots' (was run.snapshot_minutes set?)");
  // An --at that matches no kept model would evaluate nothing and report no score.
  for (double m : opt.at) {
    const bool found = std::any_of(kept.begin(), kept.end(), [&](const Snapshot& s) {
      return std::abs(m * 60 - s.seconds) < 1 && s.seconds <= opt.minutes * 60 + 1;
    });
    if (!found) {
      std::vector<std::string> marks;
      for (const auto& s : kept) marks.push_back(fmt::format("{:g}", s.seconds / 60.0));
      throw CommandError(fmt::format("--at {:g}: no model kept at {:g} minutes of training{} in '{}/snapshots' "
                                     "(kept at {} minutes)",
                                     m, m, opt.minutes_given ? fmt::format(" up to --minutes {:g}", opt.minutes) : "",
                                     opt.run_dir, fmt::join(marks, ", ")));
    }
  }
  for (size_t i = 0; i < opt.opponents.size(); ++i) {
    const std::string& opponent = opt.opponents[i];
    const std::string base = opt.run_dir + "/strength-" + opponent_tag(opponent);
    report(opt, spec, opponent, target_of(i), base, play_against_player(opt, spec, opponent, base + ".jsonl"));
  }
  if (gtp) {
    const GameSpec game = GameSpec{spec.variant, spec.size, false};
    const std::string opponent = "gtp:" + opt.gtp.name;
    const std::string base = opt.run_dir + "/strength-" + opponent_tag(opponent);
    opt.gtp.stderr_path = base + ".stderr.log";
    report(opt, game, opponent, target_of(opt.opponents.size()), base,
           play_against_gtp(opt, game, opponent, base + ".jsonl"));
  }
}

void setup_bench_strength(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  CLI::App* bench = app.get_subcommand("bench");
  auto* cmd = bench->add_subcommand("strength",
                                    "Time to strength: train from scratch, keep a model every "
                                    "--every minutes, score each against opponents");
  cmd->add_option("--config", opt->config, "Training config (required unless --evaluate-only)");
  cmd->add_option("--set", opt->overrides, "Override a config key, e.g. --set search.simulations=50 (repeatable)");
  cmd->add_option("--run", opt->run_dir, "Run directory (default: runs/strength-<config>-<date>)");
  auto* minutes = cmd->add_option("--minutes", opt->minutes,
                                  "Training minutes (with --evaluate-only: the models kept up to this many; default: all)")
                      ->check(CLI::Range(0.1, 1e6));
  cmd->add_option("--every", opt->every, "Keep the model every this many training minutes")
      ->check(CLI::Range(0.05, 1e6));
  cmd->add_option("--at", opt->at,
                  "Evaluate only the model kept at this many training minutes (repeatable; default: every kept model)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--opponent", opt->opponents,
                  std::string("Opponent (repeatable; default uct:1000): ") + kPlayerSyntax);
  cmd->add_option("--target", opt->targets,
                  "Score to reach, a fraction (one for all opponents, or one "
                  "per --opponent; default 0.9)")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--games", opt->games, "Games per kept model and opponent (rounded up to even)")
      ->check(CLI::Range(2, 100000));
  add_sims_option(cmd, &opt->sims, "Simulations per move of the kept models");
  cmd->add_option("--threads", opt->threads, "Games at once against uct/random opponents")->check(CLI::Range(1, 64));
  cmd->add_option("--parallel", opt->parallel, "Games in flight against model opponents")->check(CLI::Range(1, 4096));
  cmd->add_option("--opponent-gtp", opt->gtp.command,
                  "A program speaking GTP as one more opponent (its command "
                  "line), e.g. 'mohex --use-logfile=false'; "
                  "played without the pie rule, each pair of games from its "
                  "own first move");
  cmd->add_option("--opponent-gtp-setup", opt->gtp_setup,
                  "Commands sent to it once, ';' between them, e.g. 'boardsize "
                  "9;param_mohex max_games 10000'")
      ->needs("--opponent-gtp");
  cmd->add_option("--opponent-gtp-name", opt->gtp.name, "Its name in the results: gtp:<name> (default gtp)")
      ->needs("--opponent-gtp");
  cmd->add_option("--opponent-gtp-timeout", opt->gtp.move_seconds, "The longest it may take to answer, seconds")
      ->check(CLI::Range(1.0, 86400.0))
      ->needs("--opponent-gtp");
  cmd->add_flag("--evaluate-only", opt->evaluate_only, "Skip training: evaluate the snapshots already in --run");
  cmd->add_option("--seed", opt->seed, "Seed of the evaluation games");
  // Where the kept models play; given, it also sets the training's learn.device
  // and selfplay.device (else the config's keys decide).
  auto* device = add_device_option(cmd, &opt->device_text);
  cmd->callback([opt, device, minutes] {
    opt->device = device_from_option(opt->device_text);
    opt->minutes_given = minutes->count() > 0;
    run_bench_strength(*opt, device->count() > 0);
  });
}

REGISTER_COMMAND("bench.strength", setup_bench_strength);

}  // namespace
}  // namespace quax
