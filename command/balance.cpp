// `quax balance`: the designer's balance lab (docs/BALANCE.md). For one game and a player
// (a model, or without any model the baselines uct:N and mcts:N), measures in order of use to
// a designer:
//   1. the opening map: every first move valued for its player (search, a few self-play
//      games, the solver where it proves it in time), drawn on the board;
//   2. the first player's score over --games self-play games, without and with the pie rule,
//      and how often the swap was taken;
//   3. game length, draws, how early games are decided, lead changes (from the games of 2);
//   4. skill depth: twice the simulations against once them, doubling from 8 to --skill-cap.
// Writes to --out: balance.json, openings.svg, report.txt (also printed). Each part is kept
// in balance.partial.json as soon as it is done, so a stopped run, started again with the
// same options, measures only what is missing.
#include <fmt/format.h>

#include <chrono>
#include <functional>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "arena/balance_games.h"
#include "arena/balance_map_svg.h"
#include "arena/balance_openings.h"
#include "arena/balance_report.h"
#include "arena/balance_skill.h"
#include "command/player_options.h"
#include "command/command.h"
#include "command/game_spec_option.h"
#include "core/bounded_json.h"
#include "core/machine_memory.h"
#include "core/json_error.h"
#include "mcts/search_tree.h"
#include "core/atomic_file.h"
#include "core/bounded_file.h"
#include "nets/default_model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "nets/players.h"
#include "mcts/baseline_agents.h"
#include "solve/book.h"
#include "solve/solver.h"

namespace quax {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Options {
  GameOptions game;
  std::string player;  // --player: the player syntax (nets/players.h)
  std::string model;   // --model: a model file, as --player takes one
  int sims = 200;
  bool sims_given = false;
  int games = 40;
  int opening_games = 4;
  int sampled_turns = 4;
  double solve_seconds = -1;  // < 0: 10 on boards of at most 36 cells, else 0
  int solve_memory_mb = 256;
  std::vector<std::string> books;
  int skill_cap = 512;
  int skill_games = 0;  // 0: --games
  int threads = 1;
  uint64_t seed = 1;
  std::string out;
};

// Who plays the lab's games: a model file (--model, --player FILE[:sims=N], or the variant's
// shipped model), or a baseline without any model (--player uct:N or mcts:N).
struct LabPlayer {
  std::string name;   // "uct:2000", or the model's path as given
  std::string model;  // the model's path; empty for a baseline
  bool baseline() const { return model.empty(); }
};

// The kind of a baseline lab player; nullopt for a model.
std::optional<BaselinePlayer::Kind> baseline_kind(const LabPlayer& player) {
  if (!player.baseline()) return std::nullopt;
  const auto b = parse_baseline(player.name, nullptr);
  return b ? std::optional<BaselinePlayer::Kind>(b->kind) : std::nullopt;
}

// The player of the options, with opt->sims set to its count; throws CommandError (one line)
// for bad input.
LabPlayer choose_player(Options* opt, const GameSpec& spec) {
  if (!opt->player.empty() && !opt->model.empty())
    throw CommandError("give --player or --model, not both (--model FILE is --player FILE)");
  const std::string text = opt->player.empty() ? opt->model : opt->player;
  if (text.empty()) {
    const std::string model = default_model_path(spec);
    if (model.empty())
      throw CommandError("no shipped model plays " + describe(spec) +
                         ": give --model <file.pt>, or --player uct:N (or mcts:N) for baseline play without a model");
    return {model, model};
  }
  if (!opt->model.empty()) return {text, text};  // --model takes a file as it is, ':' and all
  PlayerDescription d;
  std::string error;
  if (!parse_player_description(text, &d, &error)) throw CommandError(first_line(error));
  if (d.kind == PlayerDescription::Kind::kBaseline) {
    if (text == "random")
      throw CommandError("--player random: the balance lab needs a player whose search values positions "
                         "(uct:N, mcts:N or a model)");
    const auto baseline = parse_baseline(text, &error);
    if (!baseline) throw CommandError(first_line(error));
    if (opt->sims_given)
      throw CommandError("--sims is a model's simulations; " + text + " counts its own (give uct:N or mcts:N alone)");
    opt->sims = baseline->count;
    return {text, ""};
  }
  // A model: its file, and at most sims= (the rest of its search is the lab's own).
  const std::string path = text.substr(0, text.find(':'));
  for (size_t at = text.find(':'); at != std::string::npos;) {
    const size_t end = text.find(':', at + 1);
    const std::string key = text.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    if (key.rfind("sims=", 0) != 0)
      throw CommandError("bad player '" + text + "': the balance lab takes a model as FILE or FILE:sims=N, not '" + key +
                         "' (a player is uct:N, mcts:N or a model)");
    at = end;
  }
  if (d.size_given) {
    if (opt->sims_given) throw CommandError("bad player '" + text + "': give its simulations once, sims= or --sims");
    opt->sims = d.search.simulations;
  }
  if (const std::string missing = missing_model_file(d); !missing.empty()) throw CommandError(missing);
  return {path, path};
}

// What fixes the figures of a run: a resumed run must have asked for the same.
json run_header(const Options& opt, const GameSpec& spec, const LabPlayer& player) {
  return {{"variant", variant_info(spec.variant).name},
          {"size", spec.size},
          {"swap", spec.swap},
          {"model", player.baseline() ? json() : json(player.model)},
          {"player", player.name},
          {"baseline", player.baseline()},
          {"settings",
           {{"sims", opt.sims},
            {"games", opt.games},
            {"opening_games", opt.opening_games},
            {"sampled_turns", opt.sampled_turns},
            {"solve_seconds", opt.solve_seconds},
            {"books", opt.books},
            {"skill_cap", opt.skill_cap},
            {"skill_games", opt.skill_games > 0 ? opt.skill_games : opt.games},
            {"seed", opt.seed}}}};
}

// The player of a run's file; files written before "player" have the model alone.
json player_of(const json& run) {
  const json& model = run.is_object() && run.contains("model") ? run.at("model") : json();
  return run.is_object() && run.contains("player") ? run.at("player") : model;
}

bool same_run(const json& a, const json& b) {
  for (const char* key : {"variant", "size", "swap", "model", "settings"})
    if (a.value(key, json()) != b.value(key, json())) return false;
  return player_of(a) == player_of(b);
}

// One line refusing a run of other options on an output folder that holds `held`.
std::string other_run(const std::string& out, const json& held, const json& header, const char* what) {
  const json before = player_of(held), now = player_of(header);
  if (before != now)
    return fmt::format("'{}' holds {} of player {}, not {}; run it with --player {}, or choose another --out", out, what,
                       before.is_string() ? before.get<std::string>() : before.dump(), now.get<std::string>(),
                       before.is_string() ? before.get<std::string>() : before.dump());
  return "'" + out + "' holds " + what + " of other options (" +
         json{{"model", held.value("model", json())}, {"settings", held.value("settings", json())}}.dump() +
         "); run it with those options, or choose another --out";
}

// A JSON file of the output folder; null when it does not exist. Throws CommandError naming
// it when it cannot be read or parsed.
json read_json_file(const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) return json();
  try {
    return parse_json(read_regular_file(path, kMetricsFileLimit, "balance file"), "the file");
  } catch (const std::exception& e) {
    throw CommandError(path + ": " + first_line(e.what()) + " (delete it to measure again)");
  }
}

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

void write_outputs(const Options& opt, const GameSpec& spec, const json& report) {
  if (report.contains("openings") && report["openings"].is_array()) {
    const auto openings = openings_from_json(spec, report["openings"]);
    const bool baseline = report.value("baseline", false);
    const std::string title =
        baseline ? fmt::format("{}: first moves, {}", describe(spec), baseline_label(report))
                 : fmt::format("{}: first moves, {} simulations, {}", describe(spec), opt.sims,
                               fs::path(report.value("model", "")).filename().string());
    write_file_atomically(opt.out + "/openings.svg", opening_map_svg(spec, openings, title));
  }
  write_file_atomically(opt.out + "/balance.json", report.dump(2) + "\n");
  const std::string text = balance_text(report);
  write_file_atomically(opt.out + "/report.txt", text);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

// Sizes the machine cannot hold are refused before anything runs (a bare std::bad_alloc,
// minutes in, before).
void check_memory(const Options& opt, const GameSpec& spec) {
  const int sims = std::max(opt.sims, opt.skill_cap);
  for (const std::string& refused :
       {memory_refusal(static_cast<uint64_t>(opt.solve_memory_mb) << 20, fmt::format("--solve-memory-mb {}", opt.solve_memory_mb)),
        memory_refusal(search_memory_bytes(new_game(spec)->num_actions(), sims),
                       fmt::format("a search of {} simulations on {}", sims, describe(spec)))})
    if (!refused.empty()) throw CommandError(refused);
}

// The run's state in --out: the partial file of an interrupted run of the same settings, else
// a fresh one from `header`; null when a finished report of the same settings is there
// (`*finished` is then set to it). A file of other settings is refused.
json start_or_resume(const Options& opt, const json& header, json* finished) {
  std::error_code ec;
  fs::create_directories(opt.out, ec);
  if (ec) throw CommandError("cannot create '" + opt.out + "': " + ec.message());
  json partial = read_json_file(opt.out + "/balance.partial.json");
  if (!partial.is_null()) {
    if (!same_run(partial, header)) throw CommandError(other_run(opt.out, partial, header, "a balance run"));
    return partial;
  }
  const json done = read_json_file(opt.out + "/balance.json");
  if (!done.is_null()) {
    if (!same_run(done, header)) throw CommandError(other_run(opt.out, done, header, "a balance report"));
    if (done.value("complete", false)) {
      *finished = done;
      return json();
    }
  }
  partial = header;
  partial["parts"] = json::object();
  return partial;
}

// Who plays the lab's games, made when a part is still to be measured (a finished run only
// prints). Without a model: mcts:N is the same tree search over its random-playout evaluator,
// uct:N the players nets/players.h makes of it, at each part's simulations.
class LabPlayers {
 public:
  LabPlayers(const Options& opt, const GameSpec& spec, const LabPlayer& player)
      : opt_(opt), spec_(spec), player_(player) {}
  // `part_seed`: mcts:N's playouts are drawn afresh for each part, so that a resumed run
  // measures a part as a whole run does.
  const BalancePlayer& get(uint64_t part_seed) {
    const bool mcts = baseline_kind(player_) == BaselinePlayer::Kind::kMcts;
    if (lab_ && !mcts) return *lab_;
    if (baseline_kind(player_) == BaselinePlayer::Kind::kUct) {
      lab_ = std::make_unique<BalancePlayer>(
          [spec = spec_](int simulations, uint64_t seed) {
            std::string error;
            auto agent = make_player("uct:" + std::to_string(simulations), spec, seed, &error);
            if (!agent) throw CommandError(first_line(error));
            return agent;
          },
          opt_.threads);
    } else if (mcts) {
      playouts_ = make_mcts_baseline_evaluator(part_seed);
      lab_ = std::make_unique<BalancePlayer>(*playouts_);
    } else {
      set_torch_threads(opt_.threads);
      try {
        net_ = std::make_unique<NetEvaluator>(load_inference_model(player_.model, spec_));
      } catch (const std::exception& e) {
        throw CommandError(first_line(e.what()));
      }
      lab_ = std::make_unique<BalancePlayer>(*net_);
    }
    return *lab_;
  }

 private:
  const Options& opt_;
  const GameSpec spec_;
  const LabPlayer& player_;
  std::unique_ptr<NetEvaluator> net_;
  std::shared_ptr<Evaluator> playouts_;
  std::unique_ptr<BalancePlayer> lab_;
};

using Progress = std::function<void(const std::string&)>;

// The opening map, with the books' proven openings.
json measure_openings(const Options& opt, const GameSpec& spec, const SearchSettings& search, LabPlayers& lab,
                      const Progress& progress) {
  OpeningMapOptions om;
  om.search = search;
  om.games_per_opening = opt.opening_games;
  om.sampled_turns = std::min(opt.sampled_turns, 2);
  om.solve_seconds = opt.solve_seconds;
  om.solve_memory_bytes = static_cast<size_t>(opt.solve_memory_mb) << 20;
  om.seed = derive_seed(opt.seed, 1);
  std::vector<BookEntry> book;
  for (const std::string& path : opt.books) {
    try {
      const auto entries = read_book(path);
      book.insert(book.end(), entries.begin(), entries.end());
    } catch (const std::exception& e) {
      throw CommandError(first_line(e.what()));
    }
  }
  auto map = opening_map(spec, lab.get(om.seed), om, progress);
  if (!book.empty()) progress(fmt::format("openings: {} proven from the books", apply_books(spec, book, &map)));
  return openings_json(map);
}

// The parts still missing from `parts`, each saved as soon as it is measured: the opening map,
// the first player's games without and with the pie rule, the skill points.
void measure_parts(const Options& opt, const GameSpec& spec, const LabPlayer& player, json& parts,
                   const std::function<void()>& save, const Progress& progress) {
  LabPlayers lab(opt, spec, player);
  SearchSettings search;
  search.simulations = opt.sims;
  search.leaves_per_batch = 1;
  if (!parts.contains("openings")) {
    parts["openings"] = measure_openings(opt, spec, search, lab, progress);
    save();
  }
  for (const bool swap : {false, true}) {
    const char* key = swap ? "games_with_swap" : "games_without_swap";
    GameSpec s = spec;
    s.swap = swap;
    if (parts.contains(key) || !check_spec(s).empty()) continue;
    progress(fmt::format("first player: {} self-play games {}", opt.games,
                         swap ? "with the pie rule" : "without the pie rule"));
    const auto start = new_game(s);
    const std::vector<const GameState*> starts(static_cast<size_t>(opt.games), start.get());
    SelfPlayOptions so;
    so.search = search;
    so.sampled_turns = opt.sampled_turns;
    so.seed = derive_seed(opt.seed, swap ? 3 : 2);
    parts[key] = games_part_json(play_self_games(starts, lab.get(so.seed), so), can_draw(s));
    save();
  }
  if (!parts.contains("skill")) parts["skill"] = json::array();
  const int skill_games = opt.skill_games > 0 ? opt.skill_games : opt.games;
  for (int sims : skill_counts(8, opt.skill_cap)) {
    bool done = false;
    for (const json& p : parts["skill"]) done = done || p.value("sims", 0) == sims;
    if (done) continue;
    progress(baseline_kind(player) == BaselinePlayer::Kind::kUct
                 ? fmt::format("skill: {} games of uct:{} against uct:{}", skill_games, 2 * sims, sims)
                 : fmt::format("skill: {} games of {} against {} simulations", skill_games, 2 * sims, sims));
    const uint64_t seed = derive_seed(opt.seed, 100 + static_cast<uint64_t>(sims));
    parts["skill"].push_back(skill_point_json(skill_point(spec, lab.get(seed), search, sims, skill_games, seed)));
    save();
  }
}

void run_balance(Options opt) {
  const auto started = std::chrono::steady_clock::now();
  if (opt.out.empty()) throw CommandError("--out <directory> is required");
  const GameSpec spec = opt.game.spec();
  // The solver proves first moves within seconds up to about 5x5 (docs/SOLVE.md); on larger
  // boards its time would buy nothing.
  if (opt.solve_seconds < 0) opt.solve_seconds = spec.size * spec.size <= 36 ? 10 : 0;
  const LabPlayer player = choose_player(&opt, spec);
  check_memory(opt, spec);
  // What the terminal warns of (a size or pie rule the model was not trained with) goes into
  // the report too: its figures are those of a model playing untested.
  std::vector<std::string> model_warnings;
  try {
    if (!player.baseline()) model_warnings = model_file_warnings(player.model, spec);
  } catch (const std::exception& e) {
    throw CommandError(first_line(e.what()));
  }
  json finished;
  json partial = start_or_resume(opt, run_header(opt, spec, player), &finished);
  if (partial.is_null()) return write_outputs(opt, spec, finished);
  partial["model_warnings"] = model_warnings;
  // The time spent, over every run that measured a part of it.
  const double seconds_before = partial.value("seconds", 0.0);
  auto save = [&] {
    partial["seconds"] = seconds_before + seconds_since(started);
    write_file_atomically(opt.out + "/balance.partial.json", partial.dump(1) + "\n");
  };
  auto progress = [&](const std::string& line) {
    std::fprintf(stderr, "[%6.1f s] %s\n", seconds_since(started), line.c_str());
  };
  measure_parts(opt, spec, player, partial["parts"], save, progress);
  if (!partial.value("complete", false)) {
    partial["complete"] = true;
    save();
  }
  write_outputs(opt, spec, assemble_balance(partial));
}

void setup_balance(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "balance", "The designer's balance lab: opening map, first-player advantage, game length, skill depth");
  add_game_options(cmd, &opt->game);
  add_player_option(cmd, &opt->player,
                  "Who plays: uct:<playouts> or mcts:<sims> (baseline play, no model), or a model file[:sims=N] "
                  "(default: the variant's shipped model, as quax play picks it)");
  add_model_option(cmd, &opt->model, "Model file (the same as --player FILE)");
  auto* sims = add_sims_option(cmd, &opt->sims, "A model's simulations per move and per opening (default 200)");
  cmd->add_option("--games", opt->games, "Self-play games for the first-player figures, with and without swap")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--opening-games", opt->opening_games, "Self-play games from each class of first moves")
      ->check(CLI::Range(0, 10000));
  cmd->add_option("--sampled-turns,--sampled-plies", opt->sampled_turns,
                  "Turns (moves) at the start of each self-play game drawn from the visit counts; a turn of "
                  "several actions, as torax's auction turns, counts once")
      ->check(CLI::Range(0, 1000));
  cmd->add_option("--solve-seconds", opt->solve_seconds,
                  "The solver's time per class of first moves (0: no solver; default 10 on boards of at most 36 cells, "
                  "else 0)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_option("--solve-memory-mb", opt->solve_memory_mb, "The solver's table")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--book", opt->books,
                  "Solved-position book (quax solve --book) proving openings the solver does not prove in time "
                  "(repeatable)");
  cmd->add_option("--skill-cap", opt->skill_cap,
                  "Skill depth: 2x against 1x simulations from 8 while 2x is at most this (below 16: skipped)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--skill-games", opt->skill_games, "Games per doubling (0: --games)")->check(CLI::Range(0, 100000));
  cmd->add_option("--threads", opt->threads, "LibTorch threads; with uct:N, its searches side by side")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--seed", opt->seed, "Random seed");
  cmd->add_option("--out", opt->out, "Output directory (balance.json, openings.svg, report.txt)");
  cmd->callback([opt, cmd, sims] {
    if (cmd->got_subcommand("compare")) return;  // `quax balance compare` runs its own callback
    opt->sims_given = sims->count() > 0;
    try {
      run_balance(*opt);
    } catch (const nlohmann::json::exception& e) {
      // A field of the output folder's files of the wrong type (a crafted or damaged file):
      // named with the folder, and what to do.
      throw CommandError("'" + opt->out + "' holds a malformed balance file (" + json_error_text(e) +
                         "): delete its balance.partial.json and balance.json to measure again");
    }
  });
}

REGISTER_COMMAND("balance", setup_balance);

}  // namespace
}  // namespace quax
