// `quax solve`: the exact value of a position with all its winning moves, or with --book a
// solved-positions file of every position up to a depth (solve/book.h for the format).
#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <new>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "command/player_options.h"
#include "command/command.h"
#include "command/game_spec_option.h"
#include "command/stop_signal.h"
#include "core/bounded_json.h"
#include "core/machine_memory.h"
#include "core/bounded_file.h"
#include "core/steady_time.h"
#include "env/notation.h"
#include "mcts/evaluation_batch.h"
#include "nets/net_evaluator.h"
#include "solve/book.h"
#include "solve/proof_search.h"
#include "solve/solver.h"

namespace quax {
namespace {

// A progress line; `who` names the thread when there are several.
void print_progress(const ProofStats& s, const std::string& who) {
  std::fprintf(stderr, "  %s%.0f s: %lld nodes, %.0f nodes/s, table %.1f%% full (%zu entries)\n", who.c_str(), s.seconds,
               static_cast<long long>(s.nodes), s.seconds > 0 ? s.nodes / s.seconds : 0.0,
               100.0 * static_cast<double>(s.tt_used) / static_cast<double>(s.tt_capacity), s.tt_used);
  std::fflush(stderr);
}

// A line on stderr for each move as it is proven, when --progress (seconds) asks for lines: the
// seconds since it was made, the move, its value for the mover.
MoveSolved move_lines(double progress, const GameState& state) {
  if (progress <= 0) return {};
  return [&state, start = std::chrono::steady_clock::now()](int action, GameValue v) {
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "  %.0f s: %s %s\n", seconds, state.action_to_string(action).c_str(), value_name(v).c_str());
    std::fflush(stderr);
  };
}

// The searches' figures together: nodes and table entries summed, the first one's seconds
// (all run side by side).
ProofStats total_stats(const std::vector<ProofSearch*>& searches) {
  ProofStats st = searches[0]->stats();
  for (size_t t = 1; t < searches.size(); ++t) {
    const ProofStats more = searches[t]->stats();
    st.nodes += more.nodes;
    st.evaluations += more.evaluations;
    st.tt_used += more.tt_used;
    st.tt_capacity += more.tt_capacity;
  }
  return st;
}

// The games of a records file (a regular file of at most kResultsFileLimit bytes: arena
// results files are its usual source), checked against `spec`; CommandError names the line.
std::vector<std::vector<int>> read_records(const std::string& path, const GameSpec& spec) {
  std::istringstream in;
  try {
    in.str(read_regular_file(path, kResultsFileLimit, "records file"));
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
  std::vector<std::vector<int>> out;
  std::string line, error;
  for (int n = 1; std::getline(in, line); ++n) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string text = line;
    if (line[0] == '{') {
      const auto j = parse_json_or_discarded(line, path);
      if (j.is_discarded() || !j.contains("record") || !j["record"].is_string())
        throw CommandError(fmt::format("{}:{}: a JSON line without a 'record' string", path, n));
      text = j["record"].get<std::string>();
    }
    ParsedRecord record;
    std::vector<int> actions;
    if (!parse_record(text, &record, &error) || !replay_record(spec, record, &error, &actions))
      throw CommandError(fmt::format("{}:{}: {}", path, n, error));
    out.push_back(std::move(actions));
  }
  return out;
}

// The search with its --memory-mb table. A table the machine cannot hold is refused by name
// before it is tried: allocating it would fail with a bare std::bad_alloc, or succeed and be
// killed by the kernel as its pages are touched.
std::unique_ptr<ProofSearch> make_search(const GameSpec& spec, int memory_mb) {
  const uint64_t bytes = static_cast<uint64_t>(memory_mb) << 20;
  if (const std::string refused = memory_refusal(bytes, fmt::format("--memory-mb {}", memory_mb)); !refused.empty())
    throw CommandError(refused);
  try {
    return std::make_unique<ProofSearch>(spec, static_cast<size_t>(bytes));
  } catch (const std::bad_alloc&) {
    throw CommandError(fmt::format("--memory-mb {}: cannot allocate a transposition table of {} MiB", memory_mb,
                                   memory_mb));
  }
}

// The move prior of --model: the network's policy (a softmax over the legal actions, in the
// board frame) of each position the search asks about. One position per call: the search
// asks for one expansion at a time.
ProofSearch::MovePrior model_prior(const std::string& path, const GameSpec& spec) {
  std::shared_ptr<const InferenceModel> model;
  try {
    model = load_inference_model(path, spec);
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
  auto net = std::make_shared<NetEvaluator>(model);
  auto batch = std::make_shared<EvaluationBatch>();
  auto legal = std::make_shared<std::vector<uint8_t>>();
  return [net, batch, legal](const GameState& state, float* prior) {
    batch->clear();
    batch->add_position(state);
    batch->run(*net);
    const float* logits = batch->logits(0);
    legal->resize(static_cast<size_t>(state.num_actions()));
    state.legal_mask(legal->data());
    float top = -1e30f;
    for (int a = 0; a < state.num_actions(); ++a)
      if ((*legal)[a]) top = std::max(top, logits[state.to_net_action(a)]);
    for (int a = 0; a < state.num_actions(); ++a)
      prior[a] = (*legal)[a] ? std::exp(logits[state.to_net_action(a)] - top) : 0.0f;
  };
}

// The positions of a --book, within --seconds and --memory-mb; CommandError saying which
// limit stopped the listing, where, and what to change.
std::vector<std::vector<int>> book_positions(const GameSpec& spec, const std::vector<int>& start, int depth,
                                             const std::vector<std::vector<int>>* records, int min_ply, int max_ply,
                                             const ListingLimits& limits, double seconds, int memory_mb) {
  PositionList list;
  try {
    list = records ? positions_along(spec, *records, min_ply, max_ply, limits)
                   : positions_up_to_depth(spec, start, depth, limits);
  } catch (const std::bad_alloc&) {
    throw CommandError(fmt::format("--book: out of memory listing the positions (--memory-mb {})", memory_mb));
  }
  if (list.stop == PositionList::Stop::kComplete) return std::move(list.positions);
  const std::string where = records ? fmt::format("along the records ({} positions listed)", list.positions.size())
                                    : fmt::format("up to depth {} (ply {} reached, {} positions listed)", depth,
                                                  list.plies + 1, list.positions.size());
  if (list.stop == PositionList::Stop::kDeadline)
    throw CommandError(fmt::format("--book: listing the positions {} used up --seconds {:g}; lower {} or raise "
                                   "--seconds",
                                   where, seconds, records ? "--max-ply" : "--depth"));
  throw CommandError(fmt::format("--book: the positions {} need more than --memory-mb {}; lower {} or raise "
                                 "--memory-mb",
                                 where, memory_mb, records ? "--max-ply" : "--depth"));
}

// Solves a --book into `out`: a progress line every `progress` seconds (positions done, time
// each, an upper bound on the time left: positions alike by symmetry are solved once, so fewer
// may remain), the book rewritten atomically at most every `save_seconds` (a failed rewrite is a
// warning: the run goes on), and once at the end or when Ctrl-C stops it (then exit 2, as for
// an unknown value: the book is not complete). CommandError when the last write fails.
void solve_book_to_file(const std::vector<ProofSearch*>& searches, const std::vector<std::vector<int>>& positions,
                        BookOptions book,
                        const std::string& out, double progress, double save_seconds) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto next_line = start;
  auto next_save = seconds_from_now(save_seconds);
  book.progress = [&](const BookRun& run) {
    const auto now = Clock::now();
    if (progress > 0 && now >= next_line) {
      next_line = seconds_from_now(progress);
      const double each = std::chrono::duration<double>(now - start).count() / static_cast<double>(run.solved);
      std::fprintf(stderr, "  book: %zu of at most %zu positions solved, %.2f s each, at most %.0f s left\n",
                   run.listed_done, positions.size(), each, each * static_cast<double>(positions.size() - run.listed_done));
      std::fflush(stderr);
    }
    if (now < next_save) return;
    try {
      write_book(out, run.entries);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "quax solve: warning: %s; the run goes on and tries again\n", e.what());
    }
    next_save = seconds_from_now(save_seconds);
  };
  BookRun run;
  try {
    run = solve_book(searches, positions, book);
  } catch (const std::runtime_error& e) {
    throw CommandError(std::string("--resume: ") + out + ": " + e.what());
  }
  try {
    write_book(out, run.entries);
  } catch (const std::exception& e) {
    throw CommandError(e.what());
  }
  size_t win = 0, loss = 0, draw = 0, unknown = 0;
  for (const auto& e : run.entries)
    (e.value == GameValue::kWin ? win : e.value == GameValue::kLoss ? loss : e.value == GameValue::kDraw ? draw : unknown)++;
  const ProofStats st = total_stats(searches);
  std::printf("%s: %zu positions (%zu win, %zu loss, %zu draw, %zu unknown) in %s\n", describe(searches[0]->spec()).c_str(),
              run.entries.size(), win, loss, draw, unknown, out.c_str());
  std::printf("solved now: %zu; kept from the book before: %zu\n", run.solved, run.entries.size() - run.solved);
  std::printf("nodes: %lld\ntime: %.2f s\n", static_cast<long long>(st.nodes), st.seconds);
  if (run.stopped) {
    std::fprintf(stderr, "quax solve: stopped with %zu of at most %zu listed positions done; the same command with "
                 "--resume solves the rest\n", run.listed_done, positions.size());
    set_exit_code(2);
  }
  if (unknown > 0) set_exit_code(2);
}

struct Options {
  GameOptions game;
  std::string position;
  int memory_mb = 1024;
  double seconds = 0;
  bool book = false;
  int depth = 2;
  std::string out;
  bool symmetry = false;
  bool value_only = false;
  bool no_virtual_connections = false;
  bool inferior_moves = false;
  bool no_proof_sets = false;
  std::string model;
  double prior_weight = 2;
  int prior_depth = 4;
  double progress = 10;
  std::string records;
  int min_ply = 0, max_ply = 1000;
  bool resume = false;
  double save_seconds = 60;
  int threads = 1;
};

// The position of --position (the start when empty), with the actions leading to it.
std::unique_ptr<GameState> start_position(const GameSpec& spec, const std::string& position, std::vector<int>* actions) {
  std::unique_ptr<GameState> state = new_game(spec);
  if (position.find_first_not_of(" \t,") != std::string::npos) {
    ParsedRecord record;
    std::string error;
    if (!parse_record(position, &record, &error)) throw CommandError("--position: " + error);
    if (record.resigned != Player::kNone) throw CommandError("--position: a resignation is not a position");
    state = replay_record(spec, record, &error, actions);
    if (!state) throw CommandError("--position: " + error);
  }
  if (state->is_over()) throw CommandError("--position: the game is over (" + outcome_name(state->outcome()) + " won)");
  return state;
}

// --book: the positions up to --depth from `actions` (or along --records), solved into --out.
void solve_book_command(const Options& opt, const GameSpec& spec, const std::vector<int>& actions,
                        const std::vector<ProofSearch*>& searches,
                        const ListingLimits& limits, const std::atomic<bool>* stop) {
  std::vector<std::vector<int>> positions;
  if (opt.records.empty()) {
    positions = book_positions(spec, actions, opt.depth, nullptr, 0, 0, limits, opt.seconds, opt.memory_mb);
  } else {
    if (!actions.empty()) throw CommandError("--records and --position do not go together");
    const auto records = read_records(opt.records, spec);
    positions =
        book_positions(spec, {}, 0, &records, opt.min_ply, opt.max_ply, limits, opt.seconds, opt.memory_mb);
  }
  BookOptions book;
  book.symmetry = opt.symmetry;
  book.stop = stop;
  if (opt.resume && std::filesystem::exists(opt.out)) {
    try {
      book.known = read_book(opt.out);
    } catch (const std::exception& e) {
      throw CommandError(std::string("--resume: ") + e.what());
    }
  }
  solve_book_to_file(searches, positions, book, opt.out, opt.progress, opt.save_seconds);
}

// One position: its value and (unless --value-only) every winning move, printed. The moves
// are shared among `searches`, one thread each.
void solve_position(const Options& opt, const GameState& state, const std::vector<ProofSearch*>& searches) {
  ProofSearch& search = *searches[0];
  // --value-only stops after the position's own proof; otherwise every move is tried too.
  Solution sol;
  if (opt.value_only)
    sol.value = solve_value(search, state);
  else
    sol = solve_moves(searches, state, opt.symmetry, move_lines(opt.progress, state));
  const ProofStats st = total_stats(searches);
  int64_t prior_calls = 0;
  for (const ProofSearch* s : searches) prior_calls += s->prior_calls();
  std::printf("%s, %s to move after %d moves\n", describe(search.spec()).c_str(), player_name(state.to_move()).c_str(),
              state.move_number());
  std::printf("value: %s\n", value_name(sol.value).c_str());
  // A search stopped by --seconds has not answered: exit 2 tells scripts so.
  if (sol.value == GameValue::kUnknown) set_exit_code(2);
  if (opt.value_only) {
    std::printf("nodes: %lld\ntime: %.2f s\n", static_cast<long long>(st.nodes), st.seconds);
    return;
  }
  std::vector<std::string> wins, unknown;
  for (int a : sol.winning_moves) wins.push_back(state.action_to_string(a));
  for (int a : sol.unknown_moves) unknown.push_back(state.action_to_string(a));
  std::printf("winning moves: %s\n", wins.empty() ? "none" : fmt::format("{}", fmt::join(wins, " ")).c_str());
  if (!unknown.empty()) std::printf("unsolved moves: %s\n", fmt::format("{}", fmt::join(unknown, " ")).c_str());
  std::printf("moves: %d (%d searched%s)\n", sol.moves, sol.moves_solved, opt.symmetry ? ", one per symmetry class" : "");
  std::printf("nodes: %lld\ntime: %.2f s\n", static_cast<long long>(st.nodes), st.seconds);
  if (!opt.model.empty()) std::printf("model evaluations: %lld\n", static_cast<long long>(prior_calls));
  std::printf("table: %zu of %zu entries (%d MiB)\n", st.tt_used, st.tt_capacity, opt.memory_mb);
}

void run_solve(const Options& opt) {
  const GameSpec spec = opt.game.spec();
  if (opt.book && opt.out.empty()) throw CommandError("--book needs --out FILE");
  if (!opt.book && !opt.out.empty()) throw CommandError("--out is only for --book");
  if (!opt.book && !opt.records.empty()) throw CommandError("--records is only for --book");
  if (!opt.book && opt.resume) throw CommandError("--resume is only for --book");
  std::vector<int> actions;
  const std::unique_ptr<GameState> state = start_position(spec, opt.position, &actions);

  if (opt.threads > 1 && opt.value_only)
    throw CommandError("--threads shares a position's moves among threads: not for --value-only");
  if (opt.memory_mb < opt.threads) throw CommandError("--memory-mb: less than 1 MiB a thread");
  // The tables together, refused before any is made (make_search checks each one alone).
  if (const std::string refused = memory_refusal(static_cast<uint64_t>(opt.memory_mb) << 20,
                                                 fmt::format("--memory-mb {}", opt.memory_mb));
      !refused.empty())
    throw CommandError(refused);
  ListingLimits limits;
  limits.max_bytes = static_cast<size_t>(opt.memory_mb) << 20;
  if (opt.seconds > 0) limits.deadline = seconds_from_now(opt.seconds);
  // Ctrl-C ends a proof as the deadline does: one position's value is then 'unknown', a
  // book keeps what it solved.
  const StopOnSignal signals;
  // One search a thread, the table's memory shared among them.
  std::vector<std::unique_ptr<ProofSearch>> searchers;
  std::vector<ProofSearch*> searches;
  for (int t = 0; t < opt.threads; ++t) {
    searchers.push_back(make_search(spec, opt.memory_mb / opt.threads));
    ProofSearch& search = *searchers.back();
    searches.push_back(&search);
    if (opt.no_virtual_connections) search.set_virtual_connections(false);
    if (opt.inferior_moves) search.set_inferior_moves(true);
    if (opt.no_proof_sets) search.set_proof_sets(false);
    if (!opt.model.empty()) search.set_move_prior(model_prior(opt.model, spec), opt.prior_weight, opt.prior_depth);
    if (opt.seconds > 0) search.set_deadline(limits.deadline);
    const std::string who = opt.threads > 1 ? fmt::format("thread {}: ", t + 1) : "";
    if (opt.progress > 0) search.set_progress([who](const ProofStats& s) { print_progress(s, who); }, opt.progress);
    search.set_stop_flag(signals.flag());
  }
  if (opt.book)
    solve_book_command(opt, spec, actions, searches, limits, signals.flag());
  else
    solve_position(opt, *state, searches);
}

void setup_solve(CLI::App& app) {
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("solve", "Prove the value of a position and list every winning move");
  add_game_options(cmd, &opt->game);
  cmd->add_option("--position", opt->position, "Moves from the start ('c3 b2 ...'); empty: the start");
  cmd->add_option("--memory-mb", opt->memory_mb,
                  "Transposition table size in MiB (at most the machine's memory); --book's list of positions may "
                  "take as much again")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--seconds", opt->seconds,
                  "Give up after this long (0: no limit); the value is then 'unknown' (a --book whose positions "
                  "cannot be listed in time is refused)")
      ->check(CLI::Range(0.0, 1e7));
  cmd->add_flag("--book", opt->book, "Solve every position up to --depth plies and write them to --out");
  cmd->add_option("--depth", opt->depth, "Book depth in plies from the position")->check(CLI::Range(0, 40));
  cmd->add_option("--out", opt->out, "Book file (JSON lines, see README)");
  cmd->add_option("--records", opt->records,
                  "Book of the positions along these games instead: one record per line, or JSON lines with a "
                  "'record' field (quax arena's results)");
  cmd->add_flag("--resume", opt->resume,
                "With --book: keep the solved positions of the book already in --out (an interrupted run's) and "
                "solve the rest");
  cmd->add_option("--save-seconds", opt->save_seconds,
                  "With --book: rewrite --out with what is solved at most this often (0: after each position), so an "
                  "interrupted run loses at most this much")
      ->check(CLI::Range(0.0, 1e7));
  cmd->add_option("--min-ply", opt->min_ply, "With --records: first ply to solve")->check(CLI::Range(0, 100000));
  cmd->add_option("--max-ply", opt->max_ply, "With --records: last ply to solve")->check(CLI::Range(0, 100000));
  cmd->add_flag("--value-only", opt->value_only, "Prove the value only, without trying every move");
  cmd->add_flag("--no-virtual-connections", opt->no_virtual_connections,
                "Quax, link, quickway, crossway, quadrex and hex: search without the bridge, join and template "
                "rules (docs/SOLVE.md), to compare");
  cmd->add_flag("--inferior-moves", opt->inferior_moves,
                "Quax, link, quickway and hex: skip the moves that act as a pass (docs/SOLVE.md); values are the same");
  cmd->add_flag("--no-proof-sets", opt->no_proof_sets,
                "Hex up to 8x8: search without pruning the moves outside a refuted sibling's proof set "
                "(docs/SOLVE.md), to compare");
  add_model_option(cmd, &opt->model,
                  "Order the moves by this model's policy (docs/SOLVE.md): values are the same, the work differs");
  cmd->add_option("--prior-weight", opt->prior_weight,
                  "With --model: how strongly the policy orders the moves (a move's proof number grows by "
                  "1 + weight * ln(p_best / p))")
      ->check(CLI::Range(0.0, 100.0));
  cmd->add_option("--prior-depth", opt->prior_depth,
                  "With --model: ask the model only this many plies deep into each proof (deeper, the centre-first "
                  "order; a model evaluation costs more than many nodes)")
      ->check(CLI::Range(1, 1000));
  cmd->add_flag("--symmetry", opt->symmetry,
                "Solve one move (and book position) per class of symmetric ones; images get the same value");
  cmd->add_option("--threads", opt->threads,
                  "Threads sharing the position's moves, each with its own table (--memory-mb split among them)")
      ->check(CLI::Range(1, 256));
  cmd->add_option("--progress", opt->progress, "Seconds between progress lines on stderr (0: none)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->callback([opt] { run_solve(*opt); });
}

REGISTER_COMMAND("solve", setup_solve);

}  // namespace
}  // namespace quax
