// `quax levels --model M --out OUT`: measures a model's own difficulty levels and writes the
// model again with them (nets/model_levels.h), so that `level=N` everywhere plays that model's
// table instead of the default one. The settings of arena/level_calibration.h, weakest first,
// each play the next one (`quax arena --chain`); their Elo from the chain's links, each kind's kept
// in the settings' order (ordered_within_kinds); then the ten settings nearest to evenly spaced
// ratings between the lowest rated and the full search. Then
// checks: each pair of neighbouring levels plays again, every game is rated together, and a
// pair that fails its check (step_fails_check) is kept apart in the next choice, since 40 games
// a link leave ratings about +-100 Elo (stymie-8.pt's 8 and 16 simulations: 27-13 in the chain,
// 22-18 when played again).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <set>

#include "arena/level_calibration.h"
#include "arena/results_log.h"
#include "command/player_options.h"
#include "command/arena_games.h"
#include "command/command.h"
#include "command/game_spec_option.h"
#include "command/device_option.h"
#include "command/stop_signal.h"
#include "command/writable_output.h"
#include "env/rng.h"
#include "nets/model_file.h"
#include "nets/players.h"

namespace quax {
namespace {

// The player of one candidate, named as its description would be ("m.pt:sims=1:temp=2.5").
PlayerDescription setting_player(const std::string& model, const LevelSetting& s) {
  PlayerDescription d = model_player_description(model);
  PlayerSearchSize size;
  size.sims = s.simulations;
  std::string error;
  if (!set_player_search_size(&d, size, &error)) throw CommandError(error);
  if (s.prior_temperature >= 0.0f) {
    d.search.prior_temperature = s.prior_temperature;
    d.text += fmt::format(":temp={:g}", s.prior_temperature);
  }
  return d;
}

std::string setting_name(const LevelSetting& s) {
  return s.prior_temperature >= 0.0f ? fmt::format("policy, temperature {:g}", s.prior_temperature)
                                     : fmt::format("{} simulations", s.simulations);
}

struct Options {
  std::string model;
  std::string out;
  GameOptions game;  // size and pie rule only; the variant is the model's
  int games = 60;  // 40 chose on noise for quady-15.pt and quadhex-10.pt (docs/PLAY.md)
  int full_sims = 200;
  std::string results;
  bool resume = false;
  int parallel = 32;
  int checks = 3;
  uint64_t seed = 1;
  std::string device = "auto";
};

// The model and the game it is measured on (its own, with --size and --swap); refusals as
// one line.
LoadedModel load_measured_model(const Options& opt, GameSpec* spec) {
  LoadedModel model;
  try {
    model = load_model_file(opt.model);
  } catch (const std::exception& e) {
    throw CommandError(first_line(e.what()));
  }
  *spec = model.shape.spec;
  if (opt.game.size > 0) spec->size = opt.game.size;
  if (opt.game.swap != "default") spec->swap = opt.game.swap == "on";
  if (std::string error = check_spec(*spec); !error.empty()) throw CommandError(error);
  std::vector<std::string> warnings;
  if (std::string error = check_model_matches(model.shape, model.trained_sizes, *spec, opt.model, &warnings);
      !error.empty())
    throw CommandError(opt.model + ": " + error);
  for (const std::string& w : warnings) std::fprintf(stderr, "%s\n", w.c_str());
  return model;
}

// The games among the candidate settings, played or (--resume) taken from the results file.
class CandidateGames {
 public:
  CandidateGames(const Options& opt, const GameSpec& spec, Device device, std::vector<PlayerDescription> players)
      : opt_(opt), spec_(spec), device_(device), players_(std::move(players)) {
    for (const auto& p : players_) names_.push_back(p.text);
    if (opt.resume) take_held();
  }
  const std::vector<std::string>& names() const { return names_; }
  const std::vector<GameResult>& results() const { return results_; }

  // Plays `scheduled` (those held, taken instead) and adds them to the results, with progress.
  // An error or a stop throws, naming the games played; nothing is written then.
  void play(const std::vector<Pairing>& scheduled, uint64_t seed) {
    std::vector<Pairing> games;
    for (const Pairing& g : scheduled) {
      auto it = held_.find({names_[g.black], names_[g.white]});
      if (it == held_.end() || it->second.empty()) {
        games.push_back(g);
      } else {
        results_.push_back(std::move(it->second.front()));
        it->second.pop_front();
      }
    }
    if (games.size() < scheduled.size())
      fmt::print("  {} of {} games taken from {}\n", scheduled.size() - games.size(), scheduled.size(), opt_.results);
    if (games.empty()) return;
    const size_t before = results_.size();
    const auto start = std::chrono::steady_clock::now();
    auto on_result = [&](size_t, const GameResult& r) {
      if (!opt_.results.empty()) append_results(opt_.results, {r});
      results_.push_back(r);
      const size_t done = results_.size() - before;
      if (done % 20 == 0 || done == games.size()) {
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        fmt::print("  {}/{} games  [{:.2f} games/s, {:.0f}s left]\n", done, games.size(), done / secs,
                   (games.size() - done) * secs / done);
        std::fflush(stdout);
      }
    };
    ArenaGamesOptions ao;
    ao.parallel = opt_.parallel;
    ao.seed = seed;
    ao.device = device_;
    try {
      play_arena_games(spec_, names_, players_, games, ao, on_result, [&] { return signals_.flag()->load(); });
    } catch (const std::exception& e) {
      throw CommandError(fmt::format("{} ({} of {} games played; nothing written)", first_line(e.what()),
                                     results_.size() - before, games.size()));
    }
    if (results_.size() - before < games.size())
      throw CommandError(
          fmt::format("stopped after {} of {} games; nothing written", results_.size() - before, games.size()));
  }

 private:
  // --resume: the games of these settings that the results file holds, by (black, white), in
  // file order; each scheduled game of that pair and colours is taken from them instead of
  // played. The schedule is the same for the same options, so an interrupted calibration
  // goes on where it stopped, and one made again with another choice of levels plays only
  // the pairs it had not played. Games the schedule never asks for are left out.
  void take_held() {
    std::vector<GameResult> file;
    try {
      file = load_results(opt_.results, spec_);
    } catch (const std::exception& e) {
      throw CommandError(first_line(e.what()));
    }
    const std::set<std::string> known(names_.begin(), names_.end());
    for (GameResult& r : file)
      if (known.count(r.black) && known.count(r.white)) held_[{r.black, r.white}].push_back(std::move(r));
  }

  const Options& opt_;
  const GameSpec spec_;
  const Device device_;
  std::vector<PlayerDescription> players_;
  std::vector<std::string> names_;
  std::vector<GameResult> results_;
  std::map<std::pair<std::string, std::string>, std::deque<GameResult>> held_;
  StopOnSignal signals_;
};

// The levels chosen from the games, and the ratings and records they were chosen from.
struct LevelChoice {
  std::vector<double> elo;
  std::vector<int> chosen;
  std::vector<PairRecord> records;
  LevelGap gap;
};

// Chooses ten from the ratings; then plays each pair of neighbouring levels again, rates every
// game together, and chooses again with the pairs that failed their check kept apart, until
// every pair of neighbours has been played again (or --checks rounds).
LevelChoice choose_with_checks(const Options& opt, const std::vector<LevelSetting>& candidates, CandidateGames& games) {
  const int n = static_cast<int>(candidates.size());
  LevelChoice c;
  CandidatePairs checked, failed;
  for (int round = 0;; ++round) {
    c.records = tally(games.names(), games.results(), false, false).pairs;
    c.elo = ordered_within_kinds(pooled_elo(n, c.records), candidates);
    bool newly_failed = false;
    for (const auto& [lower, upper] : checked) {
      const int low = c.elo[upper] >= c.elo[lower] ? lower : upper, high = low == lower ? upper : lower;
      if (step_fails_check(c.records, c.elo, low, high) && failed.insert({lower, upper}).second) {
        newly_failed = true;
        const StepScore s = step_score(c.records, low, high);
        fmt::print("  {} against {}: {:.0f}% of {:g} games, rated {:.0f} Elo apart: kept apart\n",
                   setting_name(candidates[high]), setting_name(candidates[low]), 100 * s.score, s.games,
                   c.elo[high] - c.elo[low]);
      }
    }
    // A choice whose pairs all passed stays: choosing again from ratings that moved a little
    // would only trade checked pairs for unchecked ones.
    if (round == 0 || newly_failed) {
      c.chosen = choose_levels(c.elo, &c.gap, failed);
      if (c.chosen.empty() && !failed.empty()) {
        std::fprintf(stderr, "warning: no ten levels keep apart the pairs that failed their check; choosing without that\n");
        c.chosen = choose_levels(c.elo, &c.gap);
      }
    }
    CandidatePairs unchecked;
    for (const auto& pair : neighbouring_pairs(c.chosen))
      if (!checked.count(pair)) unchecked.insert(pair);
    if (c.chosen.empty() || unchecked.empty() || round == opt.checks) break;
    std::vector<Pairing> again;
    for (const Pairing& g : schedule_games(n, opt.games, Schedule::kRoundRobin))
      if (unchecked.count({std::min(g.black, g.white), std::max(g.black, g.white)})) again.push_back(g);
    fmt::print("check {}: {} pairs of neighbouring levels played again: {} games\n", round + 1, unchecked.size(),
               again.size());
    std::fflush(stdout);
    games.play(again, derive_seed(opt.seed, round + 1));
    checked.insert(unchecked.begin(), unchecked.end());
  }
  return c;
}

// The tables of every setting (Elo, its chain link, its level) and of each level against the
// one below; refuses when no ten levels were found, warns where levels are close.
void print_levels(const std::vector<LevelSetting>& candidates, const std::vector<PairRecord>& links,
                  const LevelChoice& c) {
  const int n = static_cast<int>(candidates.size());
  const double level_one = c.chosen.empty() ? c.elo.front() : c.elo[c.chosen.front()];  // the Elo printed as 0
  fmt::print("{:<28} {:>8} {:>14}  {}\n", "setting", "Elo", "vs the next", "level");
  for (int i = 0; i < n; ++i) {
    const std::string next =
        i + 1 < n ? fmt::format("{:g}-{:g}-{:g}", links[i].wins_i, links[i].draws, links[i].wins_j) : "";
    const auto at = std::find(c.chosen.begin(), c.chosen.end(), i);
    const std::string level = at == c.chosen.end()
                                  ? ""
                                  : fmt::format("{} ({})", at - c.chosen.begin() + 1, play_level_name(at - c.chosen.begin() + 1));
    fmt::print("{:<28} {:>8.0f} {:>14}  {}\n", setting_name(candidates[i]), c.elo[i] - level_one, next, level);
  }
  // After the ratings, which say why no table could be made.
  if (c.chosen.empty())
    throw CommandError(fmt::format("fewer than ten settings are rated apart up to the full search: play more "
                                   "games (--games) or a stronger full search (--full-sims); nothing written"));
  if (c.gap.used < c.gap.wanted)
    std::fprintf(stderr,
                 "warning: no ten settings are rated %.0f Elo apart; neighbouring levels are at least %.0f apart "
                 "(a level may not beat the one below): more games (--games) tell them apart better\n",
                 c.gap.wanted, c.gap.used);
  // Each level against the one below, over all their games.
  fmt::print("{:<6} {:<28} {:>16}\n", "level", "setting", "vs the one below");
  for (int k = 0; k < static_cast<int>(c.chosen.size()); ++k) {
    std::string below;
    if (k > 0) {
      const StepScore s = step_score(c.records, c.chosen[k - 1], c.chosen[k]);
      below = s.games > 0 ? fmt::format("{:.0f}% of {:g}", 100 * s.score, s.games) : "never met";
      if (s.games > 0 && s.score < kMinLevelStepScore)
        std::fprintf(stderr, "warning: level %d scored %.0f%% of %g games against level %d (under %.0f%%)\n", k + 1,
                     100 * s.score, s.games, k, 100 * kMinLevelStepScore);
    }
    fmt::print("{:<6} {:<28} {:>16}\n", k + 1, setting_name(candidates[c.chosen[k]]), below);
  }
}

// Writes the model again with the chosen levels in its description.
void write_levels_model(const Options& opt, const LoadedModel& model, const GameSpec& spec,
                        const std::vector<LevelSetting>& candidates, const LevelChoice& c) {
  ModelLevels levels;
  levels.size = spec.size;
  levels.swap = spec.swap;
  levels.games = opt.games;
  for (int k = 0; k < static_cast<int>(c.chosen.size()); ++k) {
    levels.table[k] = candidates[c.chosen[k]];
    levels.elo.push_back(c.elo[c.chosen[k]] - c.elo[c.chosen.front()]);
  }
  nlohmann::json description = model.description;
  description["levels"] = model_levels_json(levels);
  try {
    parse_model_description(description);  // what every loader will check
  } catch (const std::exception& e) {
    throw CommandError("the measured levels do not make a valid description: " + first_line(e.what()));
  }
  try {
    save_model_file(model.module, description, opt.out);
  } catch (const std::exception& e) {
    throw CommandError("cannot write '" + opt.out + "': " + first_line(e.what()));
  }
  fmt::print("wrote {}: its levels replace the default table wherever it plays at a level\n", opt.out);
  fmt::print("check: quax arena --variant {} --size {} --swap {} --chain --players {}:level=1,...,{}:level=10\n",
             variant_info(spec.variant).name, spec.size, spec.swap ? "on" : "off", opt.out, opt.out);
}

void run_levels(const Options& opt) {
  const Device device = device_from_option(opt.device);
  require_writable(opt.out);
  GameSpec spec;
  const LoadedModel model = load_measured_model(opt, &spec);
  const std::vector<LevelSetting> candidates = level_candidates(opt.full_sims);
  std::vector<PlayerDescription> players;
  for (const LevelSetting& c : candidates) players.push_back(setting_player(opt.model, c));
  CandidateGames games(opt, spec, device, std::move(players));
  const auto chain = schedule_games(static_cast<int>(candidates.size()), opt.games, Schedule::kChain);
  fmt::print("levels: {} settings of {} on {}, each against the next: {} games\n", candidates.size(), opt.model,
             describe(spec), chain.size());
  std::fflush(stdout);
  games.play(chain, opt.seed);
  // The chain's pairs, (0, 1), (1, 2), ...: its links in order, for the table.
  const std::vector<PairRecord> links = tally(games.names(), games.results(), false, false).pairs;
  const LevelChoice choice = choose_with_checks(opt, candidates, games);
  print_levels(candidates, links, choice);
  write_levels_model(opt, model, spec, candidates, choice);
}

void setup_levels(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "levels", "Measure a model's own difficulty levels (each setting against the next) and write the model with them");
  add_model_option(cmd, &opt->model, "The model file to measure")->required();
  cmd->add_option("--out", opt->out, "The model file to write with its levels (may be --model itself; atomically)")
      ->required();
  add_game_options(cmd, &opt->game, {false, "", "Board size of the games (0: the size the model was made for)", "the model's own"});
  cmd->add_option("--games", opt->games, "Games between each setting and the next (rounded up to even)")
      ->check(CLI::Range(2, 100000));
  cmd->add_option("--full-sims", opt->full_sims, "Simulations of level 10, the model at full strength")
      ->check(CLI::Range(2, kMaxLevelSimulations));
  cmd->add_option("--checks", opt->checks,
                  "Rounds of playing the chosen neighbouring levels again (--games each) and choosing again "
                  "without pairs under 70%; 0: choose from the chain alone")
      ->check(CLI::Range(0, 20));
  cmd->add_option("--results", opt->results, "Also append every game to this results file (JSON lines)");
  cmd->add_flag("--resume", opt->resume,
                "Take the games the --results file already holds for these settings instead of playing them again "
                "(an interrupted calibration goes on; one made again plays only what it lacks)")
      ->needs("--results");
  cmd->add_option("--parallel", opt->parallel, "Games in flight at once (one network batch per step)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--seed", opt->seed, "Random seed of the games");
  add_device_option(cmd, &opt->device);
  cmd->callback([opt] { run_levels(*opt); });
}

REGISTER_COMMAND("levels", setup_levels);

}  // namespace
}  // namespace quax
