#include "train/learner_thread.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include "train/gating.h"
#include "train/model_publisher.h"
#include "train/pacing.h"
#include "train/run_files.h"
#include "train/snapshots.h"

namespace quax {

namespace {

using Clock = std::chrono::steady_clock;
// How often the learner lists the self-play directory while it has data to train on: new
// games reach the window within this, and listing costs nothing beside the steps between.
constexpr double kIngestEverySeconds = 2.0;

// Keeps the models at checkpoint steps (for ladders) and the newest two.
void prune_models(const std::string& run_dir, int checkpoint_every) {
  const auto models = list_models(run_dir);
  std::error_code ec;
  for (size_t i = 0; i + 2 < models.size(); ++i)
    if (models[i].step % checkpoint_every != 0) std::filesystem::remove(models[i].path, ec);
}

}  // namespace

LearnerThread::LearnerThread(const TrainConfig& config, const std::string& run_dir, Learner& learner,
                             ReplayWindows& windows, Rng& rng, RunState& state, RunControl& control,
                             MetricsFile& metrics, int keep_shards)
    : config_(config),
      run_dir_(run_dir),
      learner_(learner),
      windows_(windows),
      rng_(rng),
      state_(state),
      control_(control),
      metrics_(metrics),
      keep_shards_(keep_shards),
      record_(config, windows, control),
      last_ingest_(Clock::now() - std::chrono::seconds(10)),
      last_checkpoint_step_(learner.step()) {
  // The first mark after what the run had trained before (state is not updated yet).
  if (const double period = config.run.snapshot_minutes * 60; period > 0)
    next_snapshot_s_ = (std::floor(state.train_seconds / period) + 1) * period;
}

void LearnerThread::ingest() {
  windows_.ingest_new(run_dir_ + "/selfplay");
  control_.positions_ingested = windows_.total_positions();
  control_.window_positions = windows_.window_positions();
  last_ingest_ = Clock::now();
}

bool LearnerThread::starved() {
  auto feed = [&] {
    const LearnerFeed f =
        learner_feed(config_, windows_.total_positions(), windows_.window_positions(), control_.samples_trained.load());
    control_.window_refilling = f.refilling;  // self-play must not wait for a learner that waits for it
    return f.starved;
  };
  bool starved = feed();
  if (starved || std::chrono::duration<double>(Clock::now() - last_ingest_).count() > kIngestEverySeconds) {
    ingest();
    starved = feed();
  }
  return starved;
}

void LearnerThread::run() {
  using Phase = LearnRecord::Phase;
  TrainingBatch batch;
  auto mark = Clock::now();
  // The time since the last mark goes to `phase`.
  auto spent = [&](Phase phase) {
    const auto now = Clock::now();
    record_.add_time(phase, std::chrono::duration<double>(now - mark).count());
    mark = now;
  };
  while (!control_.stop) {
    if (config_.run.max_steps > 0 && learner_.step() >= config_.run.max_steps) break;
    const bool waiting = starved();
    spent(Phase::kUpkeep);  // the listing of new shards
    if (waiting) {
      // Self-play has finished for good and everything was used: the run is over.
      if (control_.selfplay_done) break;
      std::this_thread::sleep_for(kWaitPoll);
      spent(Phase::kWait);
      continue;
    }
    const size_t window = windows_.sample(config_.learn.batch_size, rng_, &batch);
    spent(Phase::kSample);
    const StepMetrics m = train_step_counting_skips(batch);
    spent(Phase::kTrain);
    control_.samples_trained += config_.learn.batch_size;
    if (m.skipped) {
      record_.add_skipped(window);
      continue;
    }
    record_.add_step(m, window);
    control_.step = learner_.step();
    control_.last_loss = m.loss;
    after_step(learner_.step());
    spent(Phase::kUpkeep);
    // Last, so that the record holds this step's upkeep.
    if (learner_.step() % config_.run.metrics_every == 0) metrics_.write(record_.take(learner_.step(), windows_));
  }
  // Shards that arrived since the last listing join the window before the last checkpoint,
  // so a resume does not count them as new; the record sums up what was read.
  ingest();
  metrics_.write({{"kind", "learn_end"},
                  {"step", learner_.step()},
                  {"positions_total", windows_.total_positions()},
                  {"games_read", windows_.take_game_stats().games}});
  if (learner_.step() != last_checkpoint_step_ || learner_.step() == 0) publish();
  // Always: the window may have grown since the last one.
  checkpoint();
  control_.learner_running = false;
}

void LearnerThread::after_step(int64_t step) {
  keep_snapshot_if_due();
  if (step % config_.learn.publish_every == 0) publish();
  if (step % config_.learn.checkpoint_every == 0) {
    checkpoint();
    last_checkpoint_step_ = step;
  }
}

// The learner throws on the learn.max_nonfinite_steps-th skipped step in a row; the run then
// stops without a checkpoint of its own, so the last good one stays the newest.
StepMetrics LearnerThread::train_step_counting_skips(const TrainingBatch& batch) {
  try {
    learner_.set_training_minutes(metrics_.run_seconds() / 60);
    const StepMetrics m = learner_.train_step(batch);
    if (m.skipped) ++control_.nonfinite_steps;
    return m;
  } catch (const NonFiniteTrainingError& e) {
    ++control_.nonfinite_steps;
    metrics_.write(
        {{"kind", "nonfinite_stop"}, {"step", learner_.step()}, {"nonfinite_steps", control_.nonfinite_steps.load()}});
    const std::string last = latest_checkpoint(run_dir_);
    throw std::runtime_error(std::string(e.what()) + "; " +
                             (last.empty() ? "no checkpoint was written" : "the last checkpoint is " + last));
  }
}

void LearnerThread::publish() {
  const auto path = model_path(run_dir_, learner_.step());
  // <run>/model.pt: the run's newest model under a name that does not change.
  if (auto refused = publish_model_if_sound(learner_, path, run_dir_ + "/model.pt", control_.model); !refused.empty()) {
    // Self-play goes on with the last good model; the learner may still recover.
    std::fprintf(stderr, "warning: %s\n", refused.c_str());
    metrics_.write({{"kind", "publish_refused"}, {"step", learner_.step()}, {"reason", refused}});
    return;
  }
  gate(path);
  prune_models(run_dir_, config_.learn.checkpoint_every);
}

void LearnerThread::gate(const std::string& path) {
  const auto& g = config_.gating;
  const bool due = g.games > 0 && publications_++ % g.every == 0;
  if (due && (g.opponent != "previous" || !previous_model_.empty()))
    metrics_.write(play_gating_games(config_, learner_.step(), path, previous_model_));
  previous_model_ = path;
}

void LearnerThread::keep_snapshot_if_due() {
  const double period = config_.run.snapshot_minutes * 60;
  if (period <= 0) return;
  const double now = metrics_.run_seconds();
  if (now < next_snapshot_s_) return;
  const int64_t mark = std::llround(next_snapshot_s_);
  const std::string path = snapshot_path(run_dir_, mark);
  learner_.publish_model(path);
  metrics_.write({{"kind", "snapshot"}, {"mark_s", mark}, {"step", learner_.step()}, {"path", path}});
  while (next_snapshot_s_ <= now) next_snapshot_s_ += period;
}

void LearnerThread::checkpoint() {
  state_.windows = windows_.state();
  rng_.get_state(state_.rng);
  state_.samples_trained = control_.samples_trained.load();
  state_.train_seconds = metrics_.run_seconds();
  learner_.save_checkpoint(checkpoint_path(run_dir_, learner_.step()), state_);
  prune_checkpoints(run_dir_, config_.learn.keep_checkpoints, learner_.step());
  // Right after the checkpoint: a resume from it reads none of the shards deleted here.
  windows_.prune_shards(run_dir_ + "/selfplay", keep_shards_);
}

}  // namespace quax
