// `quax perfect-check`: how often a model plays a proven winning move, with its search and
// with its raw policy alone, and how often its value head has the sign of the proven value,
// over a solved-positions file (solve/book.h; `quax solve --book` writes them).
//
// The game comes from the file and must be the model's variant and size (the loader refuses
// others). The pie rule may differ between the two, but only where it cannot matter: from
// ply 2 on swap is never available again and the rest of the game is the same with or
// without it; positions before ply 2 are then skipped (and counted) because there the two
// games differ (White's swap at ply 1, and Black's choice at ply 0 that depends on it).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <vector>

#include "command/player_options.h"
#include "command/command.h"
#include "nets/players.h"
#include "mcts/evaluation_batch.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "solve/book.h"

namespace quax {
namespace {

struct Tally {
  int right = 0, total = 0;
  std::string line(const std::string& what) const {
    return fmt::format("{}: {}/{} = {:.1f}%", what, right, total, total ? 100.0 * right / total : 0.0);
  }
};

void setup_perfect_check(CLI::App& app) {
  struct Options {
    std::string model;
    std::string positions;
    int sims = 200;
    int limit = 0;
    int threads = 1;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("perfect-check",
                                 "Score a model's moves and values against proven values (a solved-positions file)");
  add_model_option(cmd, &opt->model, "Model file (.pt)")->required();
  cmd->add_option("--positions", opt->positions, "Solved-positions file (quax solve --book)")->required();
  add_sims_option(cmd, &opt->sims, "Simulations of the model's search per move");
  cmd->add_option("--limit", opt->limit, "Check only the first N usable positions (0: all)")->check(CLI::Range(0, 100000000));
  cmd->add_option("--threads", opt->threads, "LibTorch threads")->check(CLI::Range(1, 64));
  cmd->add_option("--seed", opt->seed, "Seed of the model's search");
  cmd->callback([opt] {
    std::vector<BookEntry> book;
    try {
      book = read_book(opt->positions);
    } catch (const std::exception& e) {
      throw CommandError(e.what());
    }
    if (book.empty()) throw CommandError("'" + opt->positions + "' holds no positions");
    const GameSpec spec = book.front().spec;
    for (size_t i = 1; i < book.size(); ++i)
      if (book[i].spec != spec)
        throw CommandError(fmt::format("{}: line {} is {}, the first line {}: one game per file", opt->positions, i + 1,
                                       describe(book[i].spec), describe(spec)));
    set_torch_threads(opt->threads);
    bool model_swap = spec.swap;
    std::shared_ptr<const InferenceModel> model;
    try {
      model_swap = load_model_file(opt->model).shape.spec.swap;
      model = load_inference_model(opt->model, spec);
    } catch (const std::exception& e) {
      throw CommandError(e.what());
    }
    std::string error;
    PlayerDescription description = model_player_description(opt->model);
    PlayerSearchSize size;
    size.sims = opt->sims;
    if (!set_player_search_size(&description, size, &error)) throw CommandError(error);
    auto player = make_player(description, spec, opt->seed, &error);
    if (!player) throw CommandError(error);
    NetEvaluator net(model);

    Tally search_move, policy_move, value_sign;
    int skipped_pie = 0, skipped_unknown = 0, checked = 0;
    double random_rate = 0;
    std::vector<int> legal;
    EvaluationBatch batch;
    for (size_t i = 0; i < book.size(); ++i) {
      const BookEntry& e = book[i];
      if (opt->limit > 0 && checked >= opt->limit) break;
      // read_book checked that every record replays, to the player to move, with legal winning moves.
      auto state = book_position(e, &error);
      if (!state) throw CommandError(fmt::format("{}: line {}: {}", opt->positions, i + 1, error));
      if (e.value == GameValue::kUnknown || e.value == GameValue::kDraw) {
        ++skipped_unknown;
        continue;
      }
      if (model_swap != spec.swap && state->move_number() < 2) {
        ++skipped_pie;
        continue;
      }
      ++checked;
      // The raw network: one position, the policy's best legal action and the value's sign.
      batch.clear();
      batch.add_position(*state);
      batch.run(net);
      const float* logits = batch.logits(0);
      state->legal_actions(&legal);
      int best = -1;
      for (int action : legal)
        if (best < 0 || logits[state->to_net_action(action)] > logits[state->to_net_action(best)]) best = action;
      const bool says_win = batch.value(0) > 0;
      value_sign.total++;
      if (says_win == (e.value == GameValue::kWin)) value_sign.right++;
      if (e.value != GameValue::kWin) continue;
      auto wins = [&](int action) {
        const std::string m = state->action_to_string(action);
        return std::find(e.winning_moves.begin(), e.winning_moves.end(), m) != e.winning_moves.end();
      };
      // What a uniformly random legal move would score, for scale: often most moves win.
      random_rate += static_cast<double>(e.winning_moves.size()) / static_cast<double>(legal.size());
      policy_move.total++;
      if (wins(best)) policy_move.right++;
      player->reset();
      search_move.total++;
      if (wins(player->choose_action(*state))) search_move.right++;
    }
    std::printf("%s: %zu positions in %s, %d checked", describe(spec).c_str(), book.size(), opt->positions.c_str(),
                checked);
    if (skipped_unknown) std::printf(", %d skipped (value unknown or draw)", skipped_unknown);
    if (skipped_pie) std::printf(", %d skipped (before ply 2: the model's pie rule differs)", skipped_pie);
    std::printf("\n%s\n%s\n%s\n",
                search_move.line(fmt::format("search move wins (sims={}, positions with a win)", opt->sims)).c_str(),
                policy_move.line("raw policy move wins (positions with a win)").c_str(),
                value_sign.line("value sign matches the proven value").c_str());
    if (policy_move.total > 0)
      std::printf("a uniformly random legal move would win: %.1f%%\n", 100.0 * random_rate / policy_move.total);
  });
}

REGISTER_COMMAND("perfect-check", setup_perfect_check);

}  // namespace
}  // namespace quax
