// `quax bench search`: simulations per second of the search itself (uniform evaluator, so
// no network cost), through the multi-game driver as self-play runs it, and the cost split
// of one tree (select / env copy+apply / expand / backup / evaluator) from a profiled run.
#include <chrono>
#include <cstdio>
#include <memory>

#include "command/player_options.h"
#include "command/command.h"
#include "command/game_spec_option.h"
#include "mcts/search_agent.h"
#include "mcts/selfplay_driver.h"
#include "mcts/simple_evaluators.h"
#include "nets/players.h"

namespace quax {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Counts the time spent inside the wrapped evaluator.
class TimedEvaluator final : public Evaluator {
 public:
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* logits, float* values) override {
    const auto t0 = Clock::now();
    inner.evaluate(states, planes, masks, logits, values);
    seconds += since(t0);
  }
  bool needs_planes() const override { return false; }
  UniformEvaluator inner;
  double seconds = 0;
};

void setup_bench_search(CLI::App& app) {
  struct Options {
    GameOptions game{"quax", 9};
    int sims = 800;
    int games = 16;
    int leaves = 8;
    double seconds = 3.0;
    bool gumbel = false;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* parent = app.get_subcommand("bench");
  auto* cmd = parent->add_subcommand("search", "Search speed with the uniform evaluator, and its cost split");
  add_game_options(cmd, &opt->game, {true, "quax", "Board size (default 9)", ""});
  add_sims_option(cmd, &opt->sims, "Simulations per move");
  cmd->add_option("--games", opt->games, "Games searched side by side")->check(CLI::Range(1, 100000));
  cmd->add_option("--leaves", opt->leaves, "Leaves per tree per batch (virtual loss)")->check(CLI::Range(1, 1024));
  cmd->add_option("--seconds", opt->seconds, "Time per measurement")->check(CLI::Range(0.1, 3600.0));
  cmd->add_flag("--gumbel", opt->gumbel, "Gumbel root search instead of PUCT");
  cmd->add_option("--seed", opt->seed, "Random seed");
  cmd->callback([opt] {
    const GameSpec spec = opt->game.spec();
    SearchSettings search;
    search.simulations = opt->sims;
    search.leaves_per_batch = opt->leaves;
    search.root_rule = opt->gumbel ? RootRule::kGumbel : RootRule::kPuct;
    search.dirichlet_fraction = 0.25f;
    std::printf("search bench: %s, %d simulations per move, %s, %d leaves per tree per batch\n",
                describe(spec).c_str(), opt->sims, opt->gumbel ? "gumbel" : "puct", opt->leaves);

    // 1. The driver as self-play uses it: games side by side, one evaluator call per step.
    {
      DriverOptions d;
      d.spec = spec;
      d.parallel_games = opt->games;
      d.players[0].search = search;
      d.players[0].temperature_moves = 10;
      d.players[0].record_policy = true;
      d.seed = opt->seed;
      UniformEvaluator ev;
      GameDriver driver(d, {&ev});
      const auto t0 = Clock::now();
      double elapsed = 0;
      while ((elapsed = since(t0)) < opt->seconds) driver.step();
      const auto& st = driver.stats();
      std::printf("driver: %d games in parallel: %.0f simulations/s, %.0f evaluations/s, mean batch %.1f, "
                  "%.1f moves/s, %lld games finished\n",
                  opt->games, st.simulations / elapsed, st.evaluations / elapsed,
                  st.steps ? static_cast<double>(st.evaluations) / st.steps : 0.0, st.moves / elapsed,
                  static_cast<long long>(st.games_finished));
    }

    // 2. One tree, profiled: searches from the positions of a random game.
    {
      SearchTree tree(spec);
      tree.set_profiling(true);
      TimedEvaluator ev;
      Rng rng(opt->seed);
      EvaluationBatch batch;
      auto game = new_game(spec);
      long sims = 0;
      std::vector<int> legal;
      const auto t0 = Clock::now();
      double elapsed = 0;
      while ((elapsed = since(t0)) < opt->seconds) {
        if (game->is_over() || game->move_number() > 20) game = new_game(spec);
        tree.set_root(*game);
        run_search(tree, ev, search, true, rng, &batch);
        sims += tree.simulations_done();
        game->legal_actions(&legal);
        game->apply(legal[rng.below(static_cast<uint32_t>(legal.size()))]);
      }
      const auto& p = tree.profile();
      const double rest = elapsed - p.select_s - p.env_s - p.expand_s - p.backup_s - ev.seconds;
      auto pct = [&](double x) { return 100.0 * x / elapsed; };
      std::printf("one tree (profiled, clock reads included): %.0f simulations/s\n", sims / elapsed);
      std::printf("  split: select %.0f%%, env copy+apply+legal %.0f%%, expand %.0f%%, backup %.0f%%, "
                  "evaluator %.0f%%, other (masks, batching, move choice) %.0f%%\n",
                  pct(p.select_s), pct(p.env_s), pct(p.expand_s), pct(p.backup_s), pct(ev.seconds), pct(rest));
      std::printf("  per simulation: select %.2f us, env %.2f us, expand %.2f us, backup %.2f us\n",
                  1e6 * p.select_s / sims, 1e6 * p.env_s / sims, 1e6 * p.expand_s / sims, 1e6 * p.backup_s / sims);
    }
  });
}

REGISTER_COMMAND("bench.search", setup_bench_search);

}  // namespace
}  // namespace quax
