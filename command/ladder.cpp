// `quax ladder <run dir>`: rates the models a training run published against each other
// and one or two baselines, and draws the Elo-over-training curve next to the metrics.
//
// Pairings: each model against the next one (in training order), each model against each
// baseline, and the baselines against each other, `--games` per pairing, colours balanced.
// Games already in the results file count: a later ladder (after more training) plays
// only the pairings that are new or short of games. Writes, in the run directory:
//   ladder.jsonl  the games (arena results format, appended)
//   ladder.csv    player, kind, step, elo, ci95, games    (one row per player)
//   ladder.json   the same as a JSON array
//   ladder.svg    Elo against training step, 95% error bars, baselines as dashed lines
// on the run's board (its first size, game.sizes); `--size N` plays N x N instead (any size of
// the variant; a run of several sizes rates its models at each), into ladder-NxN.* files.
#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>

#include "arena/elo.h"
#include "arena/elo_plot.h"
#include "arena/match.h"
#include "arena/results_log.h"
#include "command/player_options.h"
#include "command/arena_games.h"
#include "command/command.h"
#include "command/game_spec_option.h"
#include "command/device_option.h"
#include "nets/players.h"
#include "core/atomic_file.h"
#include "train/run_files.h"
#include "train/train_loop.h"

#include <nlohmann/json.hpp>

namespace quax {
namespace {

namespace fs = std::filesystem;

struct LadderPlayer {
  std::string name;         // as results record it
  PlayerDescription player; // what make_player builds
  bool model = false;
  int64_t step = 0;
};

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

struct Options {
  std::string run_dir;
  int sims = 32;
  int games = 8;
  std::string baselines = "random,uct:200";
  int every = 1;
  int threads = 2;
  int net_threads = 1;
  int parallel = 32;
  uint64_t seed = 1;
  GameOptions game;  // its size only; 0: the run's
  std::string device = "auto";
};

// The run's models (every --every-th and the newest) at --sims, then the baselines; each
// checked to build on `spec`. `num_models` is set to the models' count.
std::vector<LadderPlayer> ladder_players(const Options& opt, const GameSpec& spec, Device device,
                                         size_t* num_models) {
  const auto models = list_models(opt.run_dir);
  if (models.empty()) throw CommandError("no models in " + opt.run_dir + "/models (model-<step, 10 digits>.pt)");
  std::vector<LadderPlayer> players;
  for (size_t i = 0; i < models.size(); ++i) {
    if (i % opt.every != 0 && i + 1 != models.size()) continue;
    const std::string file = fs::path(models[i].path).filename().string();
    PlayerDescription player = model_player_description((fs::path(opt.run_dir) / "models" / file).string());
    PlayerSearchSize size;
    size.sims = opt.sims;
    std::string error;
    if (!set_player_search_size(&player, size, &error)) throw CommandError(error);
    players.push_back({fmt::format("models/{}:sims={}", file, opt.sims), player, true, models[i].step});
  }
  *num_models = players.size();
  for (const auto& b : split_commas(opt.baselines)) {
    PlayerDescription d;
    std::string error;
    if (!parse_player_description(b, &d, &error) || d.kind != PlayerDescription::Kind::kBaseline)
      throw CommandError("--baselines: '" + b + "' is not a baseline (random, uct:<n>, mcts:<n>)");
    players.push_back({b, d, false, 0});
  }
  for (const auto& p : players) {
    std::string error;
    if (!make_player(p.player, spec, 0, &error, device)) throw CommandError(error);
  }
  return players;
}

// The games still to play: each model against the next, each model against each baseline, the
// baselines against each other, --games a pairing, less the rounds `old` already holds (by
// colours).
std::vector<Pairing> games_to_play(const Options& opt, const std::vector<std::string>& names, size_t num_models,
                                   const std::vector<GameResult>& old) {
  std::vector<std::pair<int, int>> pairs;
  for (size_t i = 0; i + 1 < num_models; ++i) pairs.emplace_back(i, i + 1);
  for (size_t i = 0; i < num_models; ++i)
    for (size_t b = num_models; b < names.size(); ++b) pairs.emplace_back(i, b);
  for (size_t b = num_models; b + 1 < names.size(); ++b) pairs.emplace_back(b, b + 1);
  std::map<std::pair<std::string, std::string>, int> played;  // (black, white) -> games
  for (const auto& r : old) ++played[{r.black, r.white}];
  const int per_colour = (opt.games + 1) / 2;
  std::vector<Pairing> games;
  for (int round = 0; round < per_colour; ++round)
    for (auto [i, j] : pairs)
      for (auto [b, w] : {std::make_pair(i, j), std::make_pair(j, i)})
        if (round >= played[{names[b], names[w]}]) games.push_back({b, w, {}});  // rounds not yet played
  return games;
}

// Rates every game of `results` among the players (random, or the first baseline, at 0) and
// writes <stem>.csv, .json and .svg into the run directory, printing the table.
void write_ratings(const Options& opt, const GameSpec& spec, const std::vector<LadderPlayer>& players,
                   size_t num_models, const std::string& results, const std::string& stem) {
  std::vector<std::string> names;
  for (const auto& p : players) names.push_back(p.name);
  const Standings st = tally(names, load_results(results, spec), false, false);
  int anchor = num_models < players.size() ? static_cast<int>(num_models) : 0;  // the first baseline...
  for (size_t i = num_models; i < players.size(); ++i)
    if (names[i] == "random") anchor = static_cast<int>(i);  // ... or random when listed
  const EloFit fit = fit_elo(static_cast<int>(names.size()), st.pairs, anchor, 0.0, 1.0);

  nlohmann::json rows = nlohmann::json::array();
  std::string csv = "player,kind,step,elo,ci95,games\n";
  std::vector<CurvePoint> curve;
  std::vector<ReferenceLine> refs;
  fmt::print("\n{:<40} {:>10} {:>7} {:>8} {:>6}\n", "player", "step", "elo", "95%", "games");
  for (size_t i = 0; i < players.size(); ++i) {
    const double ci = i == static_cast<size_t>(anchor) ? 0.0 : 1.96 * fit.stderr_[i];
    const int n = st.games_as_black[i] + st.games_as_white[i];
    const char* kind = players[i].model ? "model" : "baseline";
    csv += fmt::format("{},{},{},{:.1f},{:.1f},{}\n", names[i], kind, players[i].step, fit.elo[i], ci, n);
    rows.push_back({{"player", names[i]}, {"kind", kind}, {"step", players[i].step}, {"elo", fit.elo[i]},
                    {"ci95", ci}, {"games", n}});
    if (players[i].model) curve.push_back({static_cast<double>(players[i].step), fit.elo[i], ci});
    else refs.push_back({names[i], fit.elo[i]});
    fmt::print("{:<40} {:>10} {:>7.0f} {:>8} {:>6}\n", names[i], players[i].model ? std::to_string(players[i].step) : "-",
               fit.elo[i], i == static_cast<size_t>(anchor) ? std::string("anchor") : fmt::format("+/-{:.0f}", ci), n);
  }
  const std::string title = fmt::format("{}: Elo over training ({} sims per move; anchor {} = 0)", describe(spec),
                                        opt.sims, names[anchor]);
  const fs::path run(opt.run_dir);
  try {
    write_file_atomically((run / (stem + ".csv")).string(), csv);
    write_file_atomically((run / (stem + ".json")).string(), rows.dump(2) + "\n");
    write_file_atomically((run / (stem + ".svg")).string(), elo_curve_svg(curve, refs, title));
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
  fmt::print("\nwrote {0}/{1}.csv, {0}/{1}.json, {0}/{1}.svg\n", opt.run_dir, stem);
}

void run_ladder(const Options& opt) {
  const Device device = device_from_option(opt.device);
  const std::string run = opt.run_dir;
  TrainConfig config;
  try {
    config = load_run_config(run);
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
  GameSpec spec = config.game;
  if (opt.game.size > 0) spec.size = opt.game.size;
  if (auto err = check_spec(spec); !err.empty()) throw CommandError("--size: " + err);
  // The run's own board keeps the names ladders always had.
  const std::string stem = spec.size == config.game.size ? "ladder" : fmt::format("ladder-{}x{}", spec.size, spec.size);
  remove_stale_run_temporaries(run);
  size_t num_models = 0;
  const std::vector<LadderPlayer> players = ladder_players(opt, spec, device, &num_models);
  std::vector<std::string> names;
  std::vector<PlayerDescription> descriptions;
  for (const auto& p : players) {
    names.push_back(p.name);
    descriptions.push_back(p.player);
  }
  const std::string results = (fs::path(run) / (stem + ".jsonl")).string();
  std::vector<GameResult> old;
  try {
    const ResultsFileContents before = prepare_results_file(results, spec);  // as `quax arena` does
    for (const auto& cut : before.cut_lines) std::fprintf(stderr, "quax ladder: warning: %s\n", cut.c_str());
    old = before.results;
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
  const std::vector<Pairing> games = games_to_play(opt, names, num_models, old);
  fmt::print("ladder: {} models and {} baselines of {}, {} games to play ({} already in {})\n", num_models,
             players.size() - num_models, describe(spec), games.size(), old.size(), results);
  std::fflush(stdout);
  size_t done = 0;
  ArenaGamesOptions ao;
  ao.threads = opt.threads;
  ao.net_threads = opt.net_threads;
  ao.device = device;
  ao.parallel = opt.parallel;
  ao.seed = opt.seed + old.size();  // new games, not replays of the old ones
  play_arena_games(
      spec, names, descriptions, games, ao,
      [&](size_t, const GameResult& r) {
        append_results(results, {r});
        if (++done % 10 == 0 || done == games.size()) {
          fmt::print("  {}/{} games\n", done, games.size());
          std::fflush(stdout);
        }
      },
      nullptr);
  write_ratings(opt, spec, players, num_models, results, stem);
}

void setup_ladder(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("ladder", "Rate every model of a training run and plot Elo over training");
  cmd->add_option("run", opt->run_dir, "Run directory (with config.yaml and models/)")->required();
  add_sims_option(cmd, &opt->sims, "Simulations per move of the models");
  cmd->add_option("--games", opt->games, "Games per pairing (rounded up to even)")->check(CLI::Range(1, 100000));
  cmd->add_option("--baselines", opt->baselines,
                  "Comma-separated baseline players (random, uct:<n>, mcts:<n>); random is the anchor (Elo 0) "
                  "when listed, else the first");
  cmd->add_option("--every", opt->every, "Rate every k-th model only (the newest always)")->check(CLI::Range(1, 1000000));
  cmd->add_option("--threads", opt->threads, "Games at once on threads (pairings with a baseline agent)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--net-threads", opt->net_threads, "LibTorch threads of batched model games")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--parallel", opt->parallel, "Model games in flight at once")->check(CLI::Range(1, 4096));
  cmd->add_option("--seed", opt->seed, "Random seed");
  add_game_options(cmd, &opt->game,
                   {false, "", "Board size of the games (default: the run's, its first one for several sizes); files ladder-NxN.*",
                    ""});
  add_device_option(cmd, &opt->device);
  cmd->callback([opt] { run_ladder(*opt); });
}

REGISTER_COMMAND("ladder", setup_ladder);

}  // namespace
}  // namespace quax
