// `quax arena`: plays players against each other, colour-balanced, appends the games to a
// results file and prints the table and Elo ratings over every game in that file, with each
// player's wins by colour. A player listed twice plays as two entrants, `<player>#1` and `#2`.
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "arena/elo.h"
#include "arena/match.h"
#include "arena/results_log.h"
#include "command/arena_games.h"
#include "command/command.h"
#include "command/device_option.h"
#include "command/game_spec_option.h"
#include "nets/players.h"

namespace quax {
namespace {

std::vector<std::string> split_commas(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

void print_standings(const Standings& st, const std::string& anchor_name) {
  size_t w = 12;  // name column width: the longest name
  for (const auto& name : st.players) w = std::max(w, name.size() + 1);
  fmt::print("\n{:<{}} {:<{}} {:>6} {:>6} {:>6} {:>7} {:>9}\n", "player", w, "opponent", w, "wins", "losses", "draws", "score",
             "distinct");
  for (size_t k = 0; k < st.pairs.size(); ++k) {
    const PairRecord& p = st.pairs[k];
    const double n = p.wins_i + p.wins_j + p.draws;
    fmt::print("{:<{}} {:<{}} {:>6} {:>6} {:>6} {:>6.1f}% {:>9}\n", st.players[p.i], w, st.players[p.j], w, p.wins_i,
               p.wins_j, p.draws, n > 0 ? 100.0 * (p.wins_i + 0.5 * p.draws) / n : 0.0, st.distinct_games[k]);
  }
  fmt::print("(distinct: games that differ in colours, length or final position up to the board's symmetries; a "
             "repeated game is not another sample)\n");
  int anchor = 0;
  for (size_t i = 0; i < st.players.size(); ++i)
    if (st.players[i] == anchor_name) anchor = static_cast<int>(i);
  const EloFit fit = fit_elo(static_cast<int>(st.players.size()), st.pairs, anchor, 0.0, 1.0);
  fmt::print(
      "\n{:<{}} {:>8} {:>10} {:>9} {:>9}   (anchor: {} = 0; one virtual draw each against it; black, white: "
      "games won/played with that colour)\n",
      "player", w, "elo", "95%", "black", "white", st.players[anchor]);
  std::vector<int> order(st.players.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::sort(order.begin(), order.end(), [&](int a, int b) { return fit.elo[a] > fit.elo[b]; });
  for (int i : order)
    fmt::print("{:<{}} {:>8.0f} {:>10} {:>9} {:>9}\n", st.players[i], w, fit.elo[i],
               i == anchor ? std::string("anchor") : fmt::format("+/-{:.0f}", 1.96 * fit.stderr_[i]),
               fmt::format("{}/{}", st.wins_as_black[i], st.games_as_black[i]),
               fmt::format("{}/{}", st.wins_as_white[i], st.games_as_white[i]));
}

struct Options {
  GameOptions game;
  std::string players;
  int games = 20;
  bool gauntlet = false;
  bool chain = false;
  std::string results;
  std::string anchor;
  std::string sprt;
  int threads = 2;
  int parallel = 32;
  int net_threads = 1;
  int sampled_turns = 4;
  uint64_t seed = 1;
  std::string device = "auto";
};

// The players of --players, each checked to build on `spec` (a description listed twice once).
std::vector<PlayerDescription> arena_players(const std::vector<std::string>& descriptions,
                                             const std::vector<std::string>& names, const GameSpec& spec,
                                             Device device) {
  std::vector<PlayerDescription> players(descriptions.size());
  for (size_t i = 0; i < descriptions.size(); ++i) {
    std::string error;
    if (!parse_player_description(descriptions[i], &players[i], &error)) throw CommandError(error);
    for (size_t j = i + 1; j < names.size(); ++j)
      if (names[j] == names[i])
        throw CommandError(fmt::format(
            "players '{}' and '{}' would both play as '{}' (a player listed twice plays as <player>#1, #2, ...)",
            descriptions[i], descriptions[j], names[i]));
    if (std::find(descriptions.begin(), descriptions.end(), descriptions[i]) - descriptions.begin() <
        static_cast<std::ptrdiff_t>(i))
      continue;  // the same description was checked already
    if (!make_player(players[i], spec, 0, &error, device)) throw CommandError(error);
  }
  return players;
}

// --sprt's elo0,elo1,alpha,beta (empty when not given), for a match of two players.
std::vector<double> sprt_parameters(const std::string& text, size_t players) {
  std::vector<double> params;
  if (text.empty()) return params;
  for (const auto& p : split_commas(text)) {
    char* end = nullptr;
    const double v = std::strtod(p.c_str(), &end);
    if (*end != '\0')
      throw CommandError("--sprt: '" + p + "' is not a number (expected elo0,elo1,alpha,beta, e.g. 0,50,0.05,0.05)");
    params.push_back(v);
  }
  if (params.size() != 4 || players != 2) throw CommandError("--sprt takes elo0,elo1,alpha,beta and exactly two players");
  if (auto e = check_sprt_parameters(params[0], params[1], params[2], params[3]); !e.empty())
    throw CommandError("--sprt: " + e);
  return params;
}

// The games' reports as they end: each appended to the results file and printed with the rate;
// with --sprt, the test after each game, which stops the match once it decides on a
// colour-balanced sample.
class ArenaReport {
 public:
  ArenaReport(std::string results, size_t games, std::string first, std::vector<double> sprt)
      : results_(std::move(results)), games_(games), first_(std::move(first)), sprt_(std::move(sprt)) {}
  void add(const GameResult& r) {
    append_results(results_, {r});
    ++done_;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    fmt::print("game {}/{}: {} (black) vs {} (white): {} in {} moves  [{:.2f} games/s, {:.0f}s left]\n", done_, games_,
               r.black, r.white, r.outcome == Outcome::kDraw ? std::string("draw") : outcome_name(r.outcome) + " wins",
               r.moves, done_ / secs, (games_ - done_) * secs / done_);
    std::fflush(stdout);
    if (sprt_.size() == 4) test(r);
  }
  size_t done() const { return done_; }
  bool stop() const { return stop_; }

 private:
  void test(const GameResult& r) {
    const bool first_black = r.black == first_;
    (first_black ? first_as_black_ : first_as_white_) += 1;
    if (r.outcome == Outcome::kDraw) d_ += 1;
    else if ((r.outcome == Outcome::kBlackWins) == first_black) w_ += 1;
    else l_ += 1;
    const auto s = sprt(w_, d_, l_, sprt_[0], sprt_[1], sprt_[2], sprt_[3]);
    // Stop only on a colour-balanced sample.
    if (s.decision != SprtResult::Decision::kContinue && first_as_black_ == first_as_white_ && !stop_) {
      fmt::print("SPRT: llr {:.2f} in [{:.2f}, {:.2f}]: {}\n", s.llr, s.lower, s.upper, sprt_decision_name(s.decision));
      stop_ = true;
    }
  }

  const std::string results_;
  const size_t games_;
  const std::string first_;  // the first player: the SPRT's side
  const std::vector<double> sprt_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  size_t done_ = 0;
  double w_ = 0, l_ = 0, d_ = 0;
  int first_as_black_ = 0, first_as_white_ = 0;
  bool stop_ = false;
};

void run_arena(const Options& opt) {
  const Device device = device_from_option(opt.device);
  const GameSpec spec = opt.game.spec();
  const auto descriptions = split_commas(opt.players);
  if (descriptions.size() < 2) throw CommandError("--players needs at least two players, got '" + opt.players + "'");
  // A player listed twice plays as two entrants, `<player>#1` and `<player>#2`.
  const auto names = entrant_names(descriptions);
  const std::vector<PlayerDescription> players = arena_players(descriptions, names, spec, device);
  std::vector<double> sprt_params = sprt_parameters(opt.sprt, names.size());
  const std::string results =
      opt.results.empty() ? fmt::format("arena-{}-{}.jsonl", variant_info(spec.variant).name, spec.size) : opt.results;
  std::string anchor = opt.anchor;
  if (anchor.empty()) anchor = std::find(names.begin(), names.end(), "random") != names.end() ? "random" : names[0];
  if (std::find(names.begin(), names.end(), anchor) == names.end())
    throw CommandError(fmt::format("anchor '{}' is not one of the players ({})", anchor, fmt::join(names, ", ")));

  // The results file before any game: a malformed line or a file that cannot be written
  // stops here; a line cut short by an interrupted arena is set aside with a warning.
  const ResultsFileContents before = prepare_results_file(results, spec);
  for (const auto& cut : before.cut_lines) std::fprintf(stderr, "quax arena: warning: %s\n", cut.c_str());

  const auto games = schedule_games(static_cast<int>(names.size()), opt.games,
                                    opt.chain      ? Schedule::kChain
                                    : opt.gauntlet ? Schedule::kGauntlet
                                                   : Schedule::kRoundRobin);
  fmt::print("arena: {} players, {} games of {}, results appended to {} ({} games of {} there already)\n",
             names.size(), games.size(), describe(spec), results, before.results.size(), describe(spec));
  if (names != descriptions)
    fmt::print("arena: a player listed more than once plays as several entrants: {}\n", fmt::join(names, ", "));

  ArenaReport report(results, games.size(), names[0], std::move(sprt_params));
  ArenaGamesOptions ao;
  ao.threads = opt.threads;
  ao.net_threads = opt.net_threads;
  ao.device = device;
  ao.parallel = opt.parallel;
  ao.sampled_turns = opt.sampled_turns;
  ao.seed = opt.seed;
  try {
    play_arena_games(
        spec, names, players, games, ao, [&](size_t, const GameResult& r) { report.add(r); },
        [&] { return report.stop(); });
  } catch (const std::exception& e) {
    // Every game reported above is in the file; the rest were not played or are lost.
    throw CommandError(fmt::format("{} ({} of {} games played and saved in {})", first_line(e.what()), report.done(),
                                   games.size(), results));
  }
  print_standings(tally(names, load_results(results, spec), false), anchor);
}

void setup_arena(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("arena", "Play players against each other and rate them");
  add_game_options(cmd, &opt->game);
  cmd->add_option("--players", opt->players,
                  std::string("Comma-separated players, each: ") + kPlayerSyntax +
                      " (a player listed twice plays as two entrants, <player>#1 and <player>#2)")
      ->required();
  cmd->add_option("--games", opt->games, "Games per pairing (rounded up to even for colour balance)")
      ->check(CLI::Range(1, 1000000));
  auto* gauntlet = cmd->add_flag("--gauntlet", opt->gauntlet, "Only the first player against each other one");
  cmd->add_flag("--chain", opt->chain,
                "Each player against the next one only (a ladder: e.g. random, the levels 1..10 of a model, uct:5000)")
      ->excludes(gauntlet);
  cmd->add_option("--results", opt->results, "Results file (JSON lines, appended; default arena-<variant>-<size>.jsonl)");
  cmd->add_option("--anchor", opt->anchor, "Player rated 0 (default: random if playing, else the first player)");
  cmd->add_option("--sprt", opt->sprt, "elo0,elo1,alpha,beta: stop a two-player match when the SPRT decides");
  cmd->add_option("--threads", opt->threads,
                  "Games played at once on threads (pairings with a uct or random player)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--parallel", opt->parallel, "Model games in flight at once (one evaluator batch per step)")
      ->check(CLI::Range(1, 4096));
  // One LibTorch thread by default: on a busy 2-core machine a second OpenMP thread waiting
  // for a core made batched games ten times slower here.
  cmd->add_option("--net-threads", opt->net_threads, "LibTorch threads of the batched model games")
      ->check(CLI::Range(1, 64));
  // --sampled-plies: its name before turns of several actions (torax's auction) counted once.
  cmd->add_option("--sampled-turns,--sampled-plies", opt->sampled_turns,
                  "Model games: the first turns (moves) are sampled from the visit counts so games differ; "
                  "a turn of several actions, as torax's auction turns, counts once")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--seed", opt->seed, "Random seed");
  add_device_option(cmd, &opt->device);
  cmd->callback([opt] { run_arena(*opt); });
}

REGISTER_COMMAND("arena", setup_arena);

}  // namespace
}  // namespace quax
