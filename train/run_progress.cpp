#include "train/run_progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>

#include "nets/net_evaluator.h"
#include "train/pacing.h"
#include "train/progress_text.h"
#include "train/run_companion.h"
#include "train/run_files.h"

namespace quax {

namespace {

// For the estimate before any game has ended: the network evaluations one trainable position
// costs, about - its full search's simulations (one evaluation each) and, with playout cap
// randomization, the fast searches of the untrainable moves between full ones. Infinite when
// no move is trainable (full_search_fraction 0).
double evaluations_per_position(const TrainConfig& config, int64_t step) {
  const double full = config.selfplay.moves.full_search_fraction;
  if (!(full > 0)) return std::numeric_limits<double>::infinity();
  return (full * config.simulations_at(step) + (1 - full) * config.selfplay.moves.fast_simulations) / full;
}

// Steps skipped so far for a NaN or inf loss or gradient.
std::string nonfinite_note(int64_t skipped) {
  return skipped > 0 ? fmt::format(" ({} skipped: non-finite)", skipped) : std::string();
}

}  // namespace

RunProgress::RunProgress(const TrainConfig& config, const TrainOptions& options, const RunControl& control,
                         MetricsFile& metrics, const std::string& process_id)
    : config_(config),
      options_(options),
      control_(control),
      metrics_(metrics),
      process_id_(process_id),
      start_(Clock::now()),
      step0_(control.step),
      evals0_(control.evaluations),
      filled0_(window_filled()),
      last_(start_),
      at_last_(read(control)) {
  at_last_.moves = 0;
  at_last_.net_micros = 0;
}

RunProgress::Counts RunProgress::read(const RunControl& control) {
  return {control.games, control.positions_written, control.evaluations,
          control.moves, control.network_micros,    control.positions_played};
}

int64_t RunProgress::window_filled() const {
  return std::max<int64_t>(control_.positions_ingested, control_.positions_played);
}

bool RunProgress::due() const {
  return std::chrono::duration<double>(Clock::now() - last_).count() >= config_.run.progress_seconds;
}

void RunProgress::write_selfplay_record(const Counts& now, double dt) {
  nlohmann::json j;
  j["kind"] = "selfplay";
  j["games"] = now.games;
  j["positions"] = now.positions;
  j["games_per_s"] = (now.games - at_last_.games) / dt;
  j["positions_per_s"] = (now.positions - at_last_.positions) / dt;
  j["evals_per_s"] = (now.evals - at_last_.evals) / dt;
  j["moves_per_s"] = (now.moves - at_last_.moves) / dt;
  j["network_share"] = (now.net_micros - at_last_.net_micros) * 1e-6 / dt / config_.selfplay.threads;
  // Which self-play process this is and how far its model is behind the newest
  // (`quax selfplay` processes sharing a run directory each write these lines).
  j["actor"] = process_id_;
  if (const auto model = control_.model.get()) {
    const int64_t model_step = inference_model_step(*model);
    j["model_step"] = model_step;
    if (!options_.learn && !options_.companion) {
      const auto models = list_models(config_.run.dir);
      if (!models.empty()) j["lag_steps"] = std::max<int64_t>(0, models.back().step - model_step);
    }
  }
  if (control_.cache_lookups.load() > 0)
    j["cache_hit_rate"] = static_cast<double>(control_.cache_hits.load()) / control_.cache_lookups.load();
  metrics_.write(j);
}

std::string RunProgress::learner_text(double seconds_left_by_time) const {
  const bool first_fill = control_.positions_ingested < config_.replay.min_positions;
  if (!first_fill && !control_.window_refilling)
    return fmt::format(" | step {} loss {:.3f}{} | window {}", control_.step.load(), control_.last_loss.load(),
                       nonfinite_note(control_.nonfinite_steps.load()),
                       short_count(static_cast<double>(control_.window_positions)));
  // Before its first step the learner waits for replay.min_positions, and a run resumed
  // without its shards for its window to refill: say so, and how long at the rate seen since
  // the start.
  const int64_t need = first_fill ? config_.replay.min_positions : window_refill_positions(config_.replay);
  // A refilling window counts what the learner has read: its shards are all it trains on.
  const int64_t filled = first_fill ? window_filled() : control_.window_positions.load();
  const double since = std::max(1e-9, std::chrono::duration<double>(Clock::now() - start_).count());
  double rate = (window_filled() - filled0_) / since;
  // The rate the searches so far stand for, when it is the higher: before the first games end
  // (minutes on a medium board) the finished games say nothing, and while the first wave of
  // parallel games ends their average since the start is far too low (measured on quickway
  // 9x9: 2 hours to fill at 1m15s, 6 minutes in fact).
  const double search_rate = options_.selfplay ? (control_.evaluations - evals0_) / since /
                                                     evaluations_per_position(config_, control_.step.load())
                                               : 0.0;
  const bool from_searches = search_rate > rate;
  if (from_searches) rate = search_rate;
  return " | " + window_filling_text(filled, need, rate, from_searches, seconds_left_by_time);
}

void RunProgress::report(double elapsed) {
  const double dt = std::max(1e-9, std::chrono::duration<double>(Clock::now() - last_).count());
  const Counts now = read(control_);
  if (options_.selfplay && now.games > at_last_.games) write_selfplay_record(now, dt);
  double left = config_.run.max_minutes > 0 ? config_.run.max_minutes * 60 - elapsed : -1;
  const double seconds_left_by_time = left;  // before the step limit joins in
  if (const int64_t step = control_.step; config_.run.max_steps > 0 && step > step0_) {
    const double rate = (step - step0_) / std::max(1e-9, std::chrono::duration<double>(Clock::now() - start_).count());
    const double by_steps = (config_.run.max_steps - step) / rate;
    left = left < 0 ? by_steps : std::min(left, by_steps);
  }
  std::string line = fmt::format("[{}]", duration_text(elapsed));
  if (options_.selfplay)
    line +=
        fmt::format(" games {} | positions {} ({}/s) | evals {}/s", now.games, short_count(now.played),
                    short_count((now.played - at_last_.played) / dt), short_count((now.evals - at_last_.evals) / dt));
  if (options_.selfplay && control_.cache_lookups.load() > 0)
    line += fmt::format(" | cache {:.0f}%", 100.0 * control_.cache_hits.load() / control_.cache_lookups.load());
  if (options_.learn) line += learner_text(seconds_left_by_time);
  if (options_.companion) line += options_.companion->progress_text();
  line += " | left " + (left < 0 ? std::string("-") : duration_text(left));
  if (!options_.quiet) {
    std::printf("%s\n", line.c_str());
    std::fflush(stdout);
  }
  at_last_ = now;
  last_ = Clock::now();
}

}  // namespace quax
