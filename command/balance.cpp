// `quax balance`: the designer's balance lab (docs/BALANCE.md). For one game and a model
// that plays it, measures in order of use to a designer:
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
#include <cstdio>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "arena/balance_games.h"
#include "arena/balance_map_svg.h"
#include "arena/balance_openings.h"
#include "arena/balance_report.h"
#include "arena/balance_skill.h"
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
#include "solve/book.h"
#include "solve/solver.h"

namespace quax {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Options {
  std::string variant = "quax";
  int size = 0;
  std::string swap = "default";
  std::string model;
  int sims = 200;
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

// What fixes the figures of a run: a resumed run must have asked for the same.
json run_header(const Options& opt, const GameSpec& spec, const std::string& model) {
  return {{"variant", variant_info(spec.variant).name},
          {"size", spec.size},
          {"swap", spec.swap},
          {"model", model},
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

bool same_run(const json& a, const json& b) {
  for (const char* key : {"variant", "size", "swap", "model", "settings"})
    if (a.value(key, json()) != b.value(key, json())) return false;
  return true;
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
    write_file_atomically(opt.out + "/openings.svg",
                          opening_map_svg(spec, openings,
                                          fmt::format("{}: first moves, {} simulations, {}", describe(spec), opt.sims,
                                                      fs::path(report.value("model", "")).filename().string())));
  }
  write_file_atomically(opt.out + "/balance.json", report.dump(2) + "\n");
  const std::string text = balance_text(report);
  write_file_atomically(opt.out + "/report.txt", text);
  std::fputs(text.c_str(), stdout);
  std::fflush(stdout);
}

void run_balance(Options opt) {
  const auto started = std::chrono::steady_clock::now();
  if (opt.out.empty()) throw CommandError("--out <directory> is required");
  const GameSpec spec = game_spec_from_options(opt.variant, opt.size, opt.swap);
  // The solver proves first moves within seconds up to about 5x5 (docs/SOLVE.md); on larger
  // boards its time would buy nothing.
  if (opt.solve_seconds < 0) opt.solve_seconds = spec.size * spec.size <= 36 ? 10 : 0;
  const std::string model = opt.model.empty() ? default_model_path(spec) : opt.model;
  if (model.empty()) throw CommandError("no shipped model plays " + describe(spec) + ": give --model <file.pt>");
  // Sizes the machine cannot hold are refused before anything runs (a bare std::bad_alloc,
  // minutes in, before).
  for (const std::string& refused :
       {memory_refusal(static_cast<uint64_t>(opt.solve_memory_mb) << 20, fmt::format("--solve-memory-mb {}", opt.solve_memory_mb)),
        memory_refusal(search_memory_bytes(new_game(spec)->num_actions(), std::max(opt.sims, opt.skill_cap)),
                       fmt::format("a search of {} simulations on {}", std::max(opt.sims, opt.skill_cap), describe(spec)))})
    if (!refused.empty()) throw CommandError(refused);
  // What the terminal warns of (a size or pie rule the model was not trained with) goes into
  // the report too: its figures are those of a model playing untested.
  std::vector<std::string> model_warnings;
  try {
    model_warnings = model_file_warnings(model, spec);
  } catch (const std::exception& e) {
    throw CommandError(first_line(e.what()));
  }
  const json header = run_header(opt, spec, model);
  std::error_code ec;
  fs::create_directories(opt.out, ec);
  if (ec) throw CommandError("cannot create '" + opt.out + "': " + ec.message());
  const std::string partial_path = opt.out + "/balance.partial.json";

  json partial = read_json_file(partial_path);
  if (partial.is_null()) {
    const json done = read_json_file(opt.out + "/balance.json");
    if (!done.is_null()) {
      if (!same_run(done, header))
        throw CommandError("'" + opt.out + "' holds a balance report of other options; choose another --out");
      if (done.value("complete", false)) {
        write_outputs(opt, spec, done);
        return;
      }
    }
    partial = header;
    partial["parts"] = json::object();
  } else if (!same_run(partial, header)) {
    throw CommandError(
        "'" + opt.out + "' holds a balance run of other options (" +
        json{{"model", partial.value("model", json())}, {"settings", partial.value("settings", json())}}.dump() +
        "); run it with those options, or choose another --out");
  }
  partial["model_warnings"] = model_warnings;
  json& parts = partial["parts"];
  // The time spent, over every run that measured a part of it.
  const double seconds_before = partial.value("seconds", 0.0);
  auto save = [&] {
    partial["seconds"] = seconds_before + seconds_since(started);
    write_file_atomically(partial_path, partial.dump(1) + "\n");
  };
  auto progress = [&](const std::string& line) {
    std::fprintf(stderr, "[%6.1f s] %s\n", seconds_since(started), line.c_str());
  };

  // The model is loaded when a part is still to be measured (a finished run only prints).
  std::unique_ptr<NetEvaluator> net;
  auto evaluator = [&]() -> Evaluator& {
    if (!net) {
      set_torch_threads(opt.threads);
      try {
        net = std::make_unique<NetEvaluator>(load_inference_model(model, spec));
      } catch (const std::exception& e) {
        throw CommandError(first_line(e.what()));
      }
    }
    return *net;
  };
  SearchSettings search;
  search.simulations = opt.sims;
  search.leaves_per_batch = 1;

  if (!parts.contains("openings")) {
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
    auto map = opening_map(spec, evaluator(), om, progress);
    if (!book.empty()) progress(fmt::format("openings: {} proven from the books", apply_books(spec, book, &map)));
    parts["openings"] = openings_json(map);
    save();
  }
  for (const bool swap : {false, true}) {
    const char* key = swap ? "games_with_swap" : "games_without_swap";
    if (parts.contains(key)) continue;
    GameSpec s = spec;
    s.swap = swap;
    if (!check_spec(s).empty()) continue;
    progress(fmt::format("first player: {} self-play games {}", opt.games,
                         swap ? "with the pie rule" : "without the pie rule"));
    const auto start = new_game(s);
    const std::vector<const GameState*> starts(static_cast<size_t>(opt.games), start.get());
    SelfPlayOptions so;
    so.search = search;
    so.sampled_turns = opt.sampled_turns;
    so.seed = derive_seed(opt.seed, swap ? 3 : 2);
    parts[key] = games_part_json(play_self_games(starts, evaluator(), so), can_draw(s));
    save();
  }
  if (!parts.contains("skill")) parts["skill"] = json::array();
  const int skill_games = opt.skill_games > 0 ? opt.skill_games : opt.games;
  for (int sims : skill_counts(8, opt.skill_cap)) {
    bool done = false;
    for (const json& p : parts["skill"]) done = done || p.value("sims", 0) == sims;
    if (done) continue;
    progress(fmt::format("skill: {} games of {} against {} simulations", skill_games, 2 * sims, sims));
    parts["skill"].push_back(skill_point_json(skill_point(spec, evaluator(), search, sims, skill_games,
                                                          derive_seed(opt.seed, 100 + static_cast<uint64_t>(sims)))));
    save();
  }
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
  cmd->add_option("--variant", opt->variant, "Variant name");
  cmd->add_option("--size", opt->size, "Board size (0: the variant's default)");
  cmd->add_option("--swap", opt->swap, "Pie rule: on, off, or default (the variant's)")
      ->check(CLI::IsMember({"on", "off", "default"}));
  cmd->add_option("--model", opt->model, "Model file (default: the variant's shipped model, as quax play picks it)");
  cmd->add_option("--sims", opt->sims, "Simulations per move and per opening")->check(CLI::Range(1, 1000000));
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
  cmd->add_option("--threads", opt->threads, "LibTorch threads")->check(CLI::Range(1, 256));
  cmd->add_option("--seed", opt->seed, "Random seed");
  cmd->add_option("--out", opt->out, "Output directory (balance.json, openings.svg, report.txt)");
  cmd->callback([opt, cmd] {
    if (cmd->got_subcommand("compare")) return;  // `quax balance compare` runs its own callback
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
