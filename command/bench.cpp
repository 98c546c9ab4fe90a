// `quax bench`: speed measurements, one subcommand per layer. This file registers the parent
// (other files add `bench search`, `bench net`, ... as "bench.<name>") and `bench env`:
// random playouts per second on one thread, and the vectorized environment's step+encode
// throughput, the figures BENCHMARKS.md records.
#include <chrono>
#include <cstdio>
#include <memory>
#include <vector>

#include "command/command.h"
#include "command/game_spec_option.h"
#include "core/thread_time.h"
#include "env/game_state.h"
#include "env/vector_env.h"

namespace quax {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Both clocks from one starting point: the rates below are per second of one core's work, so
// that they mean the same on a machine other jobs are sharing (wall-clock rates are printed too).
struct Stopwatch {
  Clock::time_point wall0 = Clock::now();
  double cpu0 = thread_cpu_seconds();
  double cpu() const { return thread_cpu_seconds() - cpu0; }
  double wall() const { return seconds_since(wall0); }
};


struct PlayoutFigures {
  double games_per_second = 0, plies_per_second = 0, average_length = 0;
  double wall_games_per_second = 0;
};

// Copy the start position, play uniformly random moves to the end; repeat for `seconds`.
PlayoutFigures measure_playouts(const GameSpec& spec, double seconds, Rng& rng) {
  const auto start = new_game(spec);
  auto state = new_game(spec);
  long games = 0, plies = 0;
  const Stopwatch watch;
  double elapsed = 0;
  do {
    for (int i = 0; i < 256; ++i) {
      state->copy_from(*start);
      state->play_random_to_end(rng);
      plies += state->move_number();
    }
    games += 256;
    elapsed = watch.cpu();
  } while (elapsed < seconds);
  return {games / elapsed, plies / elapsed, static_cast<double>(plies) / games, games / watch.wall()};
}

struct VectorFigures {
  double boards_per_second = 0, step_share = 0;
  long finished_games = 0;
  double wall_boards_per_second = 0;
};

// One iteration: a random legal network-frame action per game (drawn from the last mask),
// step, then encode and mask the whole batch, as self-play does around each network call.
VectorFigures measure_vector_env(const GameSpec& spec, int batch, double seconds, Rng& rng) {
  VectorEnv env(spec, batch);
  const int A = env.num_actions();
  std::vector<float> planes(static_cast<size_t>(batch) * env.planes_per_game());
  std::vector<uint8_t> masks(static_cast<size_t>(batch) * A);
  std::vector<int> actions(batch);
  std::vector<VectorEnv::StepResult> results(batch);
  env.encode(planes.data());
  env.legal_masks(masks.data());
  long boards = 0, finished = 0;
  double step_time = 0, elapsed = 0;
  const Stopwatch watch;
  do {
    const double s0 = thread_cpu_seconds();
    for (int i = 0; i < batch; ++i) actions[i] = sample_legal(masks.data() + static_cast<size_t>(i) * A, A, rng);
    env.step(actions.data(), results.data());
    step_time += thread_cpu_seconds() - s0;
    env.encode(planes.data());
    env.legal_masks(masks.data());
    for (const auto& r : results) finished += r.finished;
    boards += batch;
    elapsed = watch.cpu();
  } while (elapsed < seconds);
  return {boards / elapsed, step_time / elapsed, finished, boards / watch.wall()};
}

void setup_bench(CLI::App& app) {
  auto* cmd = app.add_subcommand("bench", "Measure the speed of the engine's layers");
  cmd->require_subcommand(1);
}

void setup_bench_env(CLI::App& app) {
  struct Options {
    GameOptions game;
    double seconds = 2.0;
    int batch = 256;
    uint64_t seed = 1;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.get_subcommand("bench")->add_subcommand(
      "env", "Random playouts per second and vectorized step+encode boards per second, one thread");
  add_game_options(cmd, &opt->game, {true, "quax", "Board size (0: the variant's default)", ""});
  cmd->add_option("--seconds", opt->seconds, "Time per measurement")->check(CLI::Range(0.01, 3600.0));
  cmd->add_option("--batch", opt->batch, "Games in the vectorized environment")->check(CLI::Range(1, 65536));
  cmd->add_option("--seed", opt->seed, "Random seed");
  cmd->callback([opt] {
    const GameSpec spec = opt->game.spec();
    Rng rng(opt->seed);
    std::printf("%s, one thread, %.1f CPU s per measurement; rates per CPU second (wall-clock rate after)\n",
                describe(spec).c_str(), opt->seconds);
    const PlayoutFigures p = measure_playouts(spec, opt->seconds, rng);
    std::printf("random playouts: %.0f games/s, average length %.1f plies, %.2f M plies/s (wall: %.0f games/s)\n",
                p.games_per_second, p.average_length, p.plies_per_second / 1e6, p.wall_games_per_second);
    const VectorFigures v = measure_vector_env(spec, opt->batch, opt->seconds, rng);
    std::printf("step+encode, B=%d: %.0f boards/s (%.0f%% of the time in action choice and step, the rest in "
                "encode and mask; %ld games finished) (wall: %.0f boards/s)\n",
                opt->batch, v.boards_per_second, 100.0 * v.step_share, v.finished_games, v.wall_boards_per_second);
    std::fflush(stdout);
  });
}

REGISTER_COMMAND("bench", setup_bench);
REGISTER_COMMAND("bench.env", setup_bench_env);

}  // namespace
}  // namespace quax
