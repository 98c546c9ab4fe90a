#include "train/learn_record.h"

#include <algorithm>

#include "core/thread_time.h"

namespace quax {

LearnRecord::LearnRecord(const TrainConfig& config, const ReplayWindows& windows, const RunControl& control)
    : config_(config), control_(control), batches_by_window_(windows.count(), 0) {
  restart(std::chrono::steady_clock::now(), thread_cpu_seconds());
}

void LearnRecord::restart(std::chrono::steady_clock::time_point now, double cpu_now) {
  sum_ = StepMetrics{};
  steps_ = 0;
  skipped_ = 0;
  since_ = now;
  phase_seconds_.fill(0);
  cpu_at_ = cpu_now;
  games_at_ = control_.games.load();
  evals_at_ = control_.evaluations.load();
  positions_at_ = control_.positions_written.load();
}

void LearnRecord::add_step(const StepMetrics& m, size_t window) {
  sum_.loss += m.loss;
  sum_.policy_loss += m.policy_loss;
  sum_.value_loss += m.value_loss;
  sum_.policy_entropy += m.policy_entropy;
  sum_.value_accuracy += m.value_accuracy;
  for (const auto& [name, loss] : m.aux_losses) sum_.aux_losses[name] += loss;
  sum_.lr = m.lr;
  ++steps_;
  ++batches_by_window_[window];
}

nlohmann::json LearnRecord::take(int64_t step, ReplayWindows& windows) {
  // The next span starts here: the time taken below is the next record's, as the caller times it.
  const auto now = std::chrono::steady_clock::now();
  const double cpu_now = thread_cpu_seconds();
  const double dt = std::max(1e-9, std::chrono::duration<double>(now - since_).count());
  const double n = std::max(1, steps_);
  const GameStats gs = windows.take_game_stats();
  nlohmann::json j;
  j["kind"] = "learn";
  j["step"] = step;
  j["loss"] = sum_.loss / n;
  j["policy_loss"] = sum_.policy_loss / n;
  j["value_loss"] = sum_.value_loss / n;
  j["policy_entropy"] = sum_.policy_entropy / n;
  j["value_accuracy"] = sum_.value_accuracy / n;
  for (const auto& [name, loss] : sum_.aux_losses) j[name] = loss / n;
  j["lr"] = sum_.lr;
  j["nonfinite_steps"] = skipped_;  // skipped since the last record
  j["samples_per_s"] = steps_ * config_.learn.batch_size / dt;
  j["positions_total"] = windows.total_positions();
  j["window"] = windows.window_positions();
  j["games_read"] = gs.games;
  // Shares of the span: a thread that trains slower than `quax bench net` says here whether it
  // waited for a core (cpu below the busy shares), for self-play (wait) or for upkeep.
  const auto& t = phase_seconds_;
  j["learner_time"] = {{"sample", t[0] / dt}, {"train", t[1] / dt}, {"upkeep", t[2] / dt}, {"wait", t[3] / dt},
                       {"cpu", (cpu_now - cpu_at_) / dt}};
  // A run of several sizes: each size's positions and batches since the last record.
  if (windows.count() > 1) {
    for (size_t i = 0; i < windows.count(); ++i)
      j["by_size"].push_back({{"size", windows.spec(i).size},
                              {"positions_total", windows.window(i).total_positions()},
                              {"window", windows.window(i).window_positions()},
                              {"batches", batches_by_window_[i]}});
    std::fill(batches_by_window_.begin(), batches_by_window_.end(), 0);
  }
  if (gs.games > 0) {
    j["mean_game_length"] = static_cast<double>(gs.plies) / gs.games;
    j["black_win_rate"] = static_cast<double>(gs.black_wins) / gs.games;
    j["draw_rate"] = static_cast<double>(gs.draws) / gs.games;
    j["resign_rate"] = static_cast<double>(gs.resigned) / gs.games;
    if (gs.played_out_would_resign > 0)
      j["false_resign_rate"] = static_cast<double>(gs.false_resignations) / gs.played_out_would_resign;
  }
  // This process's self-play since the last record (absent when learning alone).
  if (control_.games.load() > 0) {
    j["selfplay_games_per_s"] = (control_.games.load() - games_at_) / dt;
    j["selfplay_positions_per_s"] = (control_.positions_written.load() - positions_at_) / dt;
    j["evals_per_s"] = (control_.evaluations.load() - evals_at_) / dt;
  }
  restart(now, cpu_now);
  return j;
}

}  // namespace quax
