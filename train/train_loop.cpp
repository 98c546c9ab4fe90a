#include "train/train_loop.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "core/atomic_file.h"
#include "core/host_name.h"
#include "env/rng.h"
#include "nets/evaluation_server.h"
#include "nets/net_evaluator.h"
#include "train/learner.h"
#include "train/learner_thread.h"
#include "train/metrics_file.h"
#include "train/model_follower.h"
#include "train/model_publisher.h"
#include "train/run_companion.h"
#include "train/run_control.h"
#include "train/run_progress.h"
#include "train/run_resume.h"
#include "train/run_files.h"
#include "train/selfplay_worker.h"
#include "train/shard.h"

namespace quax {

namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
// How often self-play without a learner in the process looks for a newer model.
constexpr int kModelWatchPolls = 20;  // of kWaitPoll: 2 s
// The main thread's check of the limits, the stop request and the progress clock.
constexpr std::chrono::milliseconds kMainLoopPoll{50};

std::string newest_model(const std::string& run_dir) {
  const auto models = list_models(run_dir);
  return models.empty() ? "" : models.back().path;
}

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

// The learner's side of a process, before any thread starts.
struct LearnerSide {
  std::unique_ptr<Learner> learner;
  std::unique_ptr<ReplayWindows> windows;
  Rng rng;
  RunState state;
};

// Makes the learner and its windows, resumed from `checkpoint` or started (from run.init_from
// when given); writes the configuration in force and publishes the first model for self-play.
void start_learner(const TrainConfig& config, const TrainOptions& options, const std::string& checkpoint,
                   LearnerSide& side, RunControl& control) {
  const std::string& run_dir = config.run.dir;
  set_torch_threads(config.learn.threads);
  side.learner = std::make_unique<Learner>(config);
  side.windows = std::make_unique<ReplayWindows>(config.game_specs(), config.game_weights(), config.replay,
                                                 config.net.ownership_head);
  if (options.resume) {
    side.state = resume_learner(config, checkpoint, options.quiet, *side.learner, *side.windows, side.rng, control);
  } else if (!config.run.init_from.empty()) {
    const std::string from = side.learner->init_from(config.run.init_from);
    if (!options.quiet) std::printf("initialised from %s (%s)\n", config.run.init_from.c_str(), from.c_str());
  }
  // The configuration in force, once the checkpoint accepted its shape (a resumed run may
  // change search or schedule keys).
  write_file_atomically(run_dir + "/config.yaml", dump_config(config));
  if (auto refused = publish_model_if_sound(*side.learner, model_path(run_dir, side.learner->step()),
                                            run_dir + "/model.pt", control.model);
      !refused.empty())
    throw std::runtime_error(refused);
  control.learner_running = options.selfplay;
}

// A thread whose first error stops the run through control.fail(); the run stops when it ends.
template <typename Body>
std::thread stopping_thread(RunControl& control, const std::string& what, Body body) {
  return std::thread([&control, what, body] {
    try {
      body();
    } catch (const std::exception& e) {
      control.fail(what + e.what());
    }
    control.stop = true;
  });
}

// Starts the companion's thread, a model watcher (self-play alone), the self-play threads and
// the learner's thread. `server`: self-play's shared network on a GPU, or null.
std::vector<std::thread> start_threads(const TrainConfig& config, const TrainOptions& options,
                                       const std::string& process_id, LearnerSide& side, RunControl& control,
                                       MetricsFile& metrics, EvaluationServer* server) {
  const std::string& run_dir = config.run.dir;
  std::vector<std::thread> threads;
  if (RunCompanion* companion = options.companion)
    threads.push_back(stopping_thread(control, "", [companion, &control, &metrics] { companion->run(control, metrics); }));
  if (options.selfplay) {
    // Without a learner in the process, models come from the run directory or the companion.
    if (!options.learn && !options.companion)
      threads.emplace_back(watch_models, run_dir, std::cref(config), std::ref(control));
    // A fresh seed per invocation (from the shards already there), so a resumed run does not
    // replay the games it played before.
    const uint64_t invocation = list_shards(run_dir + "/selfplay").size();
    for (int t = 0; t < config.selfplay.threads; ++t) {
      const std::string writer = fmt::format("{}t{}", process_id, t);
      const uint64_t seed = derive_seed(derive_seed(config.run.seed, invocation), static_cast<uint64_t>(t));
      threads.emplace_back(run_selfplay_worker, std::cref(config), run_dir, writer, seed, std::ref(control), server);
    }
  }
  if (options.learn)
    threads.push_back(stopping_thread(control, "learner: ", [&config, &options, &side, &control, &metrics] {
      set_torch_threads(config.learn.threads);
      LearnerThread(config, config.run.dir, *side.learner, *side.windows, side.rng, side.state, control, metrics,
                    options.keep_shards)
          .run();
    }));
  return threads;
}

// The main thread until the run stops: the limits, the stop request and the progress reports.
void watch_run(const TrainConfig& config, const TrainOptions& options, RunControl& control, RunProgress& progress) {
  const auto start = Clock::now();  // this invocation's: run.max_minutes
  while (!control.stop) {
    std::this_thread::sleep_for(kMainLoopPoll);
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (options.stop_requested && options.stop_requested->load()) control.stop = true;
    if (config.run.max_minutes > 0 && elapsed >= config.run.max_minutes * 60) control.stop = true;
    if (!options.learn && control.selfplay_done) control.stop = true;
    if (progress.due() || control.stop) progress.report(elapsed);
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
  const std::string checkpoint = latest_checkpoint(run_dir);
  if (options.learn) {
    if (options.resume && checkpoint.empty())
      throw std::runtime_error("no checkpoint in '" + run_dir + "/checkpoints' to resume");
    if (!options.resume && run_dir_in_use(run_dir))
      throw std::runtime_error("run directory '" + run_dir +
                               "' already holds a run; pass --resume to continue it, or choose another run.dir");
  }
  remove_leftover_temporaries(run_dir, options.quiet);
  fs::create_directories(run_dir + "/selfplay");

  RunControl control;
  MetricsFile metrics(run_dir + "/metrics.jsonl");
  LearnerSide side{nullptr, nullptr, Rng(config.run.seed ^ 0x5EED1EA4ULL), RunState{}};
  if (options.learn) start_learner(config, options, checkpoint, side, control);
  metrics.start_clock(side.state.train_seconds);

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
  const std::string process_id = process_writer_id();
  std::vector<std::thread> threads = start_threads(config, options, process_id, side, control, metrics, server.get());
  RunProgress progress(config, options, control, metrics, process_id);
  watch_run(config, options, control, progress);
  control.stop = true;
  for (auto& t : threads) t.join();
  if (options.companion) options.companion->finish(control.error);
  // Every game this process finished is in a shard now: the totals, to check against them.
  if (options.selfplay)
    metrics.write({{"kind", "selfplay_end"},
                   {"actor", process_id},
                   {"games", control.games.load()},
                   {"positions", control.positions_written.load()}});
  if (!control.error.empty()) throw std::runtime_error(control.error);
  if (!options.quiet && side.learner)
    std::printf("stopped at step %lld; checkpoint %s\n", (long long)side.learner->step(),
                latest_checkpoint(run_dir).c_str());
}

}  // namespace quax
