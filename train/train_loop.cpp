#include "train/train_loop.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/atomic_file.h"
#include "core/host_name.h"
#include "env/rng.h"
#include "nets/evaluation_server.h"
#include "nets/net_evaluator.h"
#include "train/gating.h"
#include "train/learner.h"
#include "train/metrics_file.h"
#include "train/model_follower.h"
#include "train/model_publisher.h"
#include "train/progress_text.h"
#include "train/replay_windows.h"
#include "train/run_companion.h"
#include "train/run_control.h"
#include "train/run_files.h"
#include "train/selfplay_worker.h"
#include "train/shard.h"
#include "train/snapshots.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
// How often the learner lists the self-play directory while it has data to train on: new
// games reach the window within this, and listing costs nothing beside the steps between.
constexpr double kIngestEverySeconds = 2.0;
// How often self-play without a learner in the process looks for a newer model.
constexpr int kModelWatchPolls = 20;  // of kWaitPoll: 2 s
// The main thread's check of the limits, the stop request and the progress clock.
constexpr std::chrono::milliseconds kMainLoopPoll{50};

// What the learner's window must hold before it trains, besides the run's count reaching
// replay.min_positions: a run resumed without its shards (another machine, a kept learner
// state) restarts its window empty while the count it restored says it was filled long ago,
// and refills to what a fresh run starts from.
int64_t window_refill_positions(const ReplayConfig& replay) {
  return std::max<int64_t>(1, std::min<int64_t>(replay.min_positions, replay.window_min));
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string newest_model(const std::string& run_dir) {
  const auto models = list_models(run_dir);
  return models.empty() ? "" : models.back().path;
}

// On resume: models published after the checkpoint belong to a future that is replayed
// differently; self-play must not prefer them.
void remove_models_after(const std::string& run_dir, int64_t step) {
  std::error_code ec;
  for (const auto& m : list_models(run_dir))
    if (m.step > step) fs::remove(m.path, ec);
}

// Keeps the models at checkpoint steps (for ladders) and the newest two.
void prune_models(const std::string& run_dir, int checkpoint_every) {
  const auto models = list_models(run_dir);
  std::error_code ec;
  for (size_t i = 0; i + 2 < models.size(); ++i)
    if (models[i].step % checkpoint_every != 0) fs::remove(models[i].path, ec);
}

// For the progress line's estimate before any game has ended: the network evaluations one
// trainable position costs, about - its full search's simulations (one evaluation each)
// and, with playout cap randomization, the fast searches of the untrainable moves between
// full ones. Infinite when no move is trainable (full_search_fraction 0).
double evaluations_per_position(const TrainConfig& config, int64_t step) {
  const double full = config.selfplay.full_search_fraction;
  if (!(full > 0)) return std::numeric_limits<double>::infinity();
  return (full * config.simulations_at(step) + (1 - full) * config.selfplay.fast_simulations) / full;
}

// For the progress line: steps skipped so far for a NaN or inf loss or gradient.
std::string nonfinite_note(int64_t skipped) {
  return skipped > 0 ? fmt::format(" ({} skipped: non-finite)", skipped) : std::string();
}

struct LearnerThread {
  const TrainConfig& config;
  const std::string& run_dir;
  Learner& learner;
  ReplayWindows& window;
  Rng& rng;
  RunState& state;
  RunControl& control;
  MetricsFile& metrics;  // and the run's clock
  int keep_shards;  // TrainOptions::keep_shards

  void publish() {
    const auto path = model_path(run_dir, learner.step());
    // <run>/model.pt: the run's newest model under a name that does not change.
    if (auto refused = publish_model_if_sound(learner, path, run_dir + "/model.pt", control.model);
        !refused.empty()) {
      // Self-play goes on with the last good model; the learner may still recover.
      std::fprintf(stderr, "warning: %s\n", refused.c_str());
      metrics.write({{"kind", "publish_refused"}, {"step", learner.step()}, {"reason", refused}});
      return;
    }
    gate(path);
    prune_models(run_dir, config.learn.checkpoint_every);
  }

  // A step skipped for a NaN or inf loss or gradient: counted for the metrics and the
  // progress line. The learner throws on the learn.max_nonfinite_steps-th in a row; the
  // run then stops without a checkpoint of its own, so the last good one stays the newest.
  int64_t nonfinite_since_metrics = 0;
  StepMetrics train_step_counting_skips(const TrainingBatch& batch) {
    try {
      learner.set_training_minutes(metrics.run_seconds() / 60);
      const StepMetrics m = learner.train_step(batch);
      if (m.skipped) {
        ++nonfinite_since_metrics;
        ++control.nonfinite_steps;
      }
      return m;
    } catch (const NonFiniteTrainingError& e) {
      ++control.nonfinite_steps;
      metrics.write({{"kind", "nonfinite_stop"},
                     {"step", learner.step()},
                     {"nonfinite_steps", control.nonfinite_steps.load()}});
      const std::string last = latest_checkpoint(run_dir);
      throw std::runtime_error(std::string(e.what()) + "; " +
                               (last.empty() ? "no checkpoint was written" : "the last checkpoint is " + last));
    }
  }

  // Optional gating games of the new model (config.gating); the learner waits for them
  // while self-play goes on with the new model.
  std::string previous_model = {};
  int64_t publications = 0;
  void gate(const std::string& path) {
    const auto& g = config.gating;
    const bool due = g.games > 0 && publications++ % g.every == 0;
    if (due && (g.opponent != "previous" || !previous_model.empty())) {
      nlohmann::json j = play_gating_games(config, learner.step(), path, previous_model);
      metrics.write(j);
    }
    previous_model = path;
  }

  // run.snapshot_minutes: a copy of the model at every multiple of that much training time,
  // taken between steps, so that strength can be measured against time afterwards.
  double next_snapshot_s = -1;
  void keep_snapshot_if_due() {
    const double period = config.run.snapshot_minutes * 60;
    if (period <= 0) return;
    const double now = metrics.run_seconds();
    if (now < next_snapshot_s) return;
    const int64_t mark = std::llround(next_snapshot_s);
    const std::string path = snapshot_path(run_dir, mark);
    learner.publish_model(path);
    metrics.write({{"kind", "snapshot"}, {"mark_s", mark}, {"step", learner.step()}, {"path", path}});
    while (next_snapshot_s <= now) next_snapshot_s += period;
  }

  void checkpoint() {
    state.windows = window.state();
    rng.get_state(state.rng);
    state.samples_trained = control.samples_trained.load();
    state.train_seconds = metrics.run_seconds();
    learner.save_checkpoint(checkpoint_path(run_dir, learner.step()), state);
    prune_checkpoints(run_dir, config.learn.keep_checkpoints, learner.step());
    // Right after the checkpoint: a resume from it reads none of the shards deleted here.
    window.prune_shards(run_dir + "/selfplay", keep_shards);
  }

  void run() {
    // The first mark after what the run had trained before (state is not updated yet).
    if (const double period = config.run.snapshot_minutes * 60; period > 0)
      next_snapshot_s = (std::floor(state.train_seconds / period) + 1) * period;
    const auto& l = config.learn;
    const std::string shard_dir = run_dir + "/selfplay";
    TrainingBatch batch;
    std::vector<int64_t> batches_by_window(window.count(), 0);
    StepMetrics sum;
    int in_sum = 0;
    auto last_ingest = Clock::now() - std::chrono::seconds(10);
    auto last_metrics = Clock::now();
    int64_t games_at_metrics = control.games.load(), evals_at_metrics = control.evaluations.load();
    int64_t positions_at_metrics = control.positions_written.load();
    int64_t last_checkpoint_step = learner.step();
    // The window itself must hold positions too, not only the run's count.
    const int64_t refill = window_refill_positions(config.replay);
    while (!control.stop) {
      if (config.run.max_steps > 0 && learner.step() >= config.run.max_steps) break;
      const double ratio = config.replay.train_ratio;
      auto is_starved = [&] {
        const bool refilling = window.window_positions() < refill;
        control.window_refilling = refilling;  // self-play must not wait for a learner that waits for it
        return window.total_positions() < config.replay.min_positions || refilling ||
               control.samples_trained.load() + l.batch_size > ratio * window.total_positions();
      };
      bool starved = is_starved();
      if (starved || seconds_since(last_ingest) > kIngestEverySeconds) {
        window.ingest_new(shard_dir);
        control.positions_ingested = window.total_positions();
        control.window_positions = window.window_positions();
        last_ingest = Clock::now();
        starved = is_starved();
      }
      if (starved) {
        // Self-play has finished for good and everything was used: the run is over.
        if (control.selfplay_done) break;
        std::this_thread::sleep_for(kWaitPoll);
        continue;
      }
      const size_t batch_window = window.sample(l.batch_size, rng, &batch);
      const StepMetrics m = train_step_counting_skips(batch);
      ++batches_by_window[batch_window];
      control.samples_trained += l.batch_size;
      if (m.skipped) continue;
      control.step = learner.step();
      control.last_loss = m.loss;
      sum.loss += m.loss;
      sum.policy_loss += m.policy_loss;
      sum.value_loss += m.value_loss;
      sum.policy_entropy += m.policy_entropy;
      sum.value_accuracy += m.value_accuracy;
      sum.ownership_loss += m.ownership_loss;
      sum.soft_policy_loss += m.soft_policy_loss;
      sum.lr = m.lr;
      ++in_sum;
      const int64_t step = learner.step();
      keep_snapshot_if_due();
      if (step % l.publish_every == 0) publish();
      if (step % l.checkpoint_every == 0) {
        checkpoint();
        last_checkpoint_step = step;
      }
      if (step % config.run.metrics_every == 0) {
        const double dt = std::max(1e-9, seconds_since(last_metrics));
        const GameStats gs = window.take_game_stats();
        nlohmann::json j;
        j["kind"] = "learn";
        j["step"] = step;
        j["loss"] = sum.loss / in_sum;
        j["policy_loss"] = sum.policy_loss / in_sum;
        j["value_loss"] = sum.value_loss / in_sum;
        j["policy_entropy"] = sum.policy_entropy / in_sum;
        j["value_accuracy"] = sum.value_accuracy / in_sum;
        if (config.net.ownership_head) j["ownership_loss"] = sum.ownership_loss / in_sum;
        if (config.net.soft_policy_head) j["soft_policy_loss"] = sum.soft_policy_loss / in_sum;
        j["lr"] = sum.lr;
        j["nonfinite_steps"] = nonfinite_since_metrics;  // skipped since the last line
        j["samples_per_s"] = in_sum * l.batch_size / dt;
        j["positions_total"] = window.total_positions();
        j["window"] = window.window_positions();
        j["games_read"] = gs.games;
        // A run of several sizes: each size's positions and batches since the last line.
        if (window.count() > 1) {
          for (size_t i = 0; i < window.count(); ++i)
            j["by_size"].push_back({{"size", window.spec(i).size},
                                    {"positions_total", window.window(i).total_positions()},
                                    {"window", window.window(i).window_positions()},
                                    {"batches", batches_by_window[i]}});
          std::fill(batches_by_window.begin(), batches_by_window.end(), 0);
        }
        if (gs.games > 0) {
          j["mean_game_length"] = static_cast<double>(gs.plies) / gs.games;
          j["black_win_rate"] = static_cast<double>(gs.black_wins) / gs.games;
          j["draw_rate"] = static_cast<double>(gs.draws) / gs.games;
          j["resign_rate"] = static_cast<double>(gs.resigned) / gs.games;
          if (gs.played_out_would_resign > 0)
            j["false_resign_rate"] = static_cast<double>(gs.false_resignations) / gs.played_out_would_resign;
        }
        // This process's self-play since the last line (absent when learning alone).
        if (control.games.load() > 0) {
          j["selfplay_games_per_s"] = (control.games.load() - games_at_metrics) / dt;
          j["selfplay_positions_per_s"] = (control.positions_written.load() - positions_at_metrics) / dt;
          j["evals_per_s"] = (control.evaluations.load() - evals_at_metrics) / dt;
        }
        games_at_metrics = control.games.load();
        evals_at_metrics = control.evaluations.load();
        positions_at_metrics = control.positions_written.load();
        metrics.write(j);
        nonfinite_since_metrics = 0;
        sum = StepMetrics{};
        in_sum = 0;
        last_metrics = Clock::now();
      }
    }
    // Shards that arrived since the last listing join the window before the last checkpoint,
    // so a resume does not count them as new; the record sums up what was read.
    window.ingest_new(shard_dir);
    control.positions_ingested = window.total_positions();
    control.window_positions = window.window_positions();
    metrics.write({{"kind", "learn_end"},
                   {"step", learner.step()},
                   {"positions_total", window.total_positions()},
                   {"games_read", window.take_game_stats().games}});
    if (learner.step() != last_checkpoint_step || learner.step() == 0) publish();
    // Always: the window may have grown since the last one.
    checkpoint();
    control.learner_running = false;
  }
};

// Temporaries of writes a killed process left (it can no longer finish them).
void remove_leftover_temporaries(const std::string& run_dir, bool quiet) {
  const int removed = remove_stale_run_temporaries(run_dir);
  if (removed > 0 && !quiet) std::printf("removed %d temporary files of interrupted writes\n", removed);
}

// Names this process in shard names and metrics: host and pid, so that processes on several
// machines sharing one run directory never choose the same name.
std::string process_writer_id() { return fmt::format("{}p{}", host_name_token(), ::getpid()); }

bool run_dir_in_use(const std::string& run_dir) {
  return !latest_checkpoint(run_dir).empty() || !list_shards(run_dir + "/selfplay").empty();
}

// Self-play alone: picks up newer models from <run>/models every couple of seconds.
void watch_models(const std::string& run_dir, const TrainConfig& config, RunControl& control) {
  ModelFollower follower(config.game, config.selfplay.precision, config.selfplay.device);
  bool told = false;
  while (!control.stop) {
    const auto newest = newest_model(run_dir);
    if (newest.empty() && !told) {
      std::printf("waiting for a first model in %s/models (start `quax learn --run %s`)\n", run_dir.c_str(),
                  run_dir.c_str());
      std::fflush(stdout);
      told = true;
    }
    follower.offer(newest, control.model);
    for (int i = 0; i < kModelWatchPolls && !control.stop; ++i) std::this_thread::sleep_for(kWaitPoll);
  }
}

}  // namespace

TrainConfig load_run_config(const std::string& run_dir) {
  const std::string path = run_dir + "/config.yaml";
  if (!fs::exists(path)) throw std::runtime_error("'" + run_dir + "' is not a run directory (no config.yaml)");
  TrainConfig c = load_config(path);
  c.run.dir = run_dir;
  return c;
}

void run_training(const TrainConfig& config, const TrainOptions& options) {
  check_config(config, "configuration");
  // A GPU this machine lacks is refused before anything starts, naming the key.
  const bool selfplay_on_gpu = options.selfplay && resolve_device(config.selfplay.device, "selfplay.device").is_cuda();
  if (options.learn) resolve_device(config.learn.device, "learn.device");
  const std::string run_dir = config.run.dir;
  const std::string ckpt = latest_checkpoint(run_dir);
  const bool resume = options.resume;
  if (options.learn) {
    if (options.resume && ckpt.empty())
      throw std::runtime_error("no checkpoint in '" + run_dir + "/checkpoints' to resume");
    if (!resume && run_dir_in_use(run_dir))
      throw std::runtime_error("run directory '" + run_dir +
                               "' already holds a run; pass --resume to continue it, or choose another run.dir");
  }
  remove_leftover_temporaries(run_dir, options.quiet);
  fs::create_directories(run_dir + "/selfplay");

  RunControl control;
  MetricsFile metrics(run_dir + "/metrics.jsonl");
  std::unique_ptr<Learner> learner;
  std::unique_ptr<ReplayWindows> window;
  Rng learn_rng(config.run.seed ^ 0x5EED1EA4ULL);
  RunState state;
  if (options.learn) {
    set_torch_threads(config.learn.threads);
    learner = std::make_unique<Learner>(config);
    window = std::make_unique<ReplayWindows>(config.game_specs(), config.game_weights(), config.replay,
                                             config.net.ownership_head);
    if (resume) {
      try {
        state = learner->load_checkpoint(ckpt);
      } catch (const std::exception& e) {
        // Say which checkpoint would resume: the user decides whether to drop the newest.
        const std::string older = older_readable_checkpoint(run_dir, ckpt);
        throw std::runtime_error(std::string(e.what()) +
                                 (older.empty() ? "; no older checkpoint of the run reads either"
                                                : "; the older checkpoint '" + older + "' reads: move '" + ckpt +
                                                      "' away to resume from it"));
      }
      window->restore(run_dir + "/selfplay", state.windows);
      learn_rng.set_state(state.rng);
      control.samples_trained = state.samples_trained;
      control.step = learner->step();
      control.positions_ingested = window->total_positions();
      control.window_positions = window->window_positions();
      control.window_refilling = window->window_positions() < window_refill_positions(config.replay);
      // Self-play's lead over the learner counts from the positions already trained on.
      control.positions_written = window->total_positions();
      control.positions_played = window->total_positions();
      remove_models_after(run_dir, learner->step());
      if (!options.quiet) {
        std::printf("resumed from %s at step %lld\n", ckpt.c_str(), (long long)learner->step());
        // Said at once: on a small board the window can refill before the first progress line.
        if (control.window_refilling)
          std::printf("%s\n", window_filling_text(window->window_positions(), window_refill_positions(config.replay),
                                                   0, false, -1)
                                   .c_str());
      }
    } else if (!config.run.init_from.empty()) {
      const std::string from = learner->init_from(config.run.init_from);
      if (!options.quiet) std::printf("initialised from %s (%s)\n", config.run.init_from.c_str(), from.c_str());
    }
    // The configuration in force, once the checkpoint accepted its shape (a resumed run may
    // change search or schedule keys).
    write_file_atomically(run_dir + "/config.yaml", dump_config(config));
    if (auto refused = publish_model_if_sound(*learner, model_path(run_dir, learner->step()), run_dir + "/model.pt",
                                               control.model);
        !refused.empty())
      throw std::runtime_error(refused);
    control.learner_running = options.selfplay;
  }

  metrics.start_clock(state.train_seconds);
  const auto start = Clock::now();  // this invocation's: run.max_minutes, the progress line

  // On a GPU the self-play threads share one network batch (nets/evaluation_server.h); on the
  // CPU each thread evaluates on its own (the fastest way measured there). Declared before
  // the threads that use it, so that it outlives them.
  std::unique_ptr<EvaluationServer> server;
  if (selfplay_on_gpu) {
    EvaluationServer::Options so;
    so.max_positions = std::max(1, config.selfplay.threads * config.selfplay.parallel_games *
                                       config.search.leaves_per_batch);
    so.torch_threads = config.selfplay.inference_threads;
    server = std::make_unique<EvaluationServer>(control.model.get(), so);
  }
  std::vector<std::thread> threads;
  RunCompanion* companion = options.companion;
  if (companion)
    threads.emplace_back([&] {
      try {
        companion->run(control, metrics);
      } catch (const std::exception& e) {
        control.fail(e.what());
      }
      control.stop = true;
    });
  const std::string process_id = process_writer_id();
  if (options.selfplay) {
    // Without a learner in the process, models come from the run directory or the companion.
    if (!options.learn && !companion)
      threads.emplace_back(watch_models, run_dir, std::cref(config), std::ref(control));
    // A fresh seed per invocation (from the shards already there), so a resumed run does not
    // replay the games it played before.
    const uint64_t invocation = list_shards(run_dir + "/selfplay").size();
    for (int t = 0; t < config.selfplay.threads; ++t) {
      const std::string writer = fmt::format("{}t{}", process_id, t);
      const uint64_t seed = derive_seed(derive_seed(config.run.seed, invocation), static_cast<uint64_t>(t));
      threads.emplace_back(run_selfplay_worker, std::cref(config), run_dir, writer, seed, std::ref(control), server.get());
    }
  }
  std::thread learn_thread;
  if (options.learn) {
    learn_thread = std::thread([&] {
      set_torch_threads(config.learn.threads);
      LearnerThread lt{config, run_dir, *learner, *window, learn_rng, state, control, metrics,
                       options.keep_shards};
      try {
        lt.run();
      } catch (const std::exception& e) {
        control.fail(std::string("learner: ") + e.what());
      }
      control.stop = true;
    });
  }

  // The main thread watches limits and prints progress.
  auto last_progress = Clock::now();
  int64_t games0 = control.games, pos0 = control.positions_written, evals0 = control.evaluations;
  int64_t step0 = control.step;
  auto progress_start = Clock::now();
  int64_t last_games = games0, last_pos = pos0, last_evals = evals0, last_moves = 0, last_net_micros = 0;
  int64_t last_played = control.positions_played;
  // What the learner's window holds or will as soon as the shards are written: this process's
  // finished games, or (self-play in other processes) what the learner has read.
  auto window_filled = [&] { return std::max<int64_t>(control.positions_ingested, control.positions_played); };
  const int64_t filled0 = window_filled();
  while (!control.stop) {
    std::this_thread::sleep_for(kMainLoopPoll);
    const double elapsed = seconds_since(start);
    if (options.stop_requested && options.stop_requested->load()) control.stop = true;
    if (config.run.max_minutes > 0 && elapsed >= config.run.max_minutes * 60) control.stop = true;
    if (!options.learn && control.selfplay_done) control.stop = true;
    if (seconds_since(last_progress) >= config.run.progress_seconds || control.stop) {
      const double dt = std::max(1e-9, seconds_since(last_progress));
      const int64_t games = control.games, pos = control.positions_written, evals = control.evaluations;
      const int64_t step = control.step, moves = control.moves, net_micros = control.network_micros;
      const int64_t played = control.positions_played;
      if (options.selfplay && games > last_games) {
        nlohmann::json j;
        j["kind"] = "selfplay";
        j["games"] = games;
        j["positions"] = pos;
        j["games_per_s"] = (games - last_games) / dt;
        j["positions_per_s"] = (pos - last_pos) / dt;
        j["evals_per_s"] = (evals - last_evals) / dt;
        j["moves_per_s"] = (moves - last_moves) / dt;
        j["network_share"] = (net_micros - last_net_micros) * 1e-6 / dt / config.selfplay.threads;
        // Which self-play process this is and how far its model is behind the newest
        // (`quax selfplay` processes sharing a run directory each write these lines).
        j["actor"] = process_id;
        if (const auto model = control.model.get()) {
          const int64_t model_step = inference_model_step(*model);
          j["model_step"] = model_step;
          if (!options.learn && !companion) {
            const auto models = list_models(run_dir);
            if (!models.empty()) j["lag_steps"] = std::max<int64_t>(0, models.back().step - model_step);
          }
        }
        if (control.cache_lookups.load() > 0)
          j["cache_hit_rate"] = static_cast<double>(control.cache_hits.load()) / control.cache_lookups.load();
        metrics.write(j);
      }
      last_moves = moves;
      last_net_micros = net_micros;
      double left = -1;
      if (config.run.max_minutes > 0) left = config.run.max_minutes * 60 - elapsed;
      const double seconds_left_by_time = left;  // before the step limit joins in
      if (config.run.max_steps > 0 && step > step0) {
        const double rate = (step - step0) / std::max(1e-9, seconds_since(progress_start));
        const double by_steps = (config.run.max_steps - step) / rate;
        left = left < 0 ? by_steps : std::min(left, by_steps);
      }
      std::string line = fmt::format("[{}]", duration_text(elapsed));
      if (options.selfplay)
        line += fmt::format(" games {} | positions {} ({}/s) | evals {}/s", games, short_count(played),
                            short_count((played - last_played) / dt), short_count((evals - last_evals) / dt));
      if (options.selfplay && control.cache_lookups.load() > 0)
        line += fmt::format(" | cache {:.0f}%", 100.0 * control.cache_hits.load() / control.cache_lookups.load());
      const bool first_fill = control.positions_ingested < config.replay.min_positions;
      if (options.learn && (first_fill || control.window_refilling)) {
        // Before its first step the learner waits for replay.min_positions, and a run resumed
        // without its shards for its window to refill: say so, and how long at the rate seen
        // since the start.
        const int64_t need = first_fill ? config.replay.min_positions : window_refill_positions(config.replay);
        // A refilling window counts what the learner has read: its shards are all it trains on.
        const int64_t filled = first_fill ? window_filled() : control.window_positions.load();
        const double since = std::max(1e-9, seconds_since(progress_start));
        double rate = (window_filled() - filled0) / since;
        // The rate the searches so far stand for, when it is the higher: before the first
        // games end (minutes on a medium board) the finished games say nothing, and while the
        // first wave of parallel games ends their average since the start is far too low
        // (measured on quickway 9x9: 2 hours to fill at 1m15s, 6 minutes in fact).
        const double search_rate =
            options.selfplay ? (evals - evals0) / since / evaluations_per_position(config, step) : 0.0;
        const bool from_searches = search_rate > rate;
        if (from_searches) rate = search_rate;
        line += " | " + window_filling_text(filled, need, rate, from_searches, seconds_left_by_time);
      } else if (options.learn) {
        line += fmt::format(" | step {} loss {:.3f}{} | window {}", step, control.last_loss.load(),
                            nonfinite_note(control.nonfinite_steps.load()),
                            short_count(static_cast<double>(control.window_positions)));
      }
      if (companion) line += companion->progress_text();
      line += " | left " + (left < 0 ? std::string("-") : duration_text(left));
      if (!options.quiet) {
        std::printf("%s\n", line.c_str());
        std::fflush(stdout);
      }
      last_games = games;
      last_pos = pos;
      last_played = played;
      last_evals = evals;
      last_progress = Clock::now();
    }
  }
  control.stop = true;
  for (auto& t : threads) t.join();
  if (learn_thread.joinable()) learn_thread.join();
  if (companion) companion->finish(control.error);
  // Every game this process finished is in a shard now: the totals, to check against them.
  if (options.selfplay)
    metrics.write({{"kind", "selfplay_end"},
                   {"actor", process_id},
                   {"games", control.games.load()},
                   {"positions", control.positions_written.load()}});
  if (!control.error.empty()) throw std::runtime_error(control.error);
  if (!options.quiet && learner)
    std::printf("stopped at step %lld; checkpoint %s\n", (long long)learner->step(),
                latest_checkpoint(run_dir).c_str());
}

}  // namespace quax
