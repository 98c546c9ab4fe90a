#include "train/run_resume.h"

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "train/pacing.h"
#include "train/progress_text.h"
#include "train/run_files.h"

namespace quax {

namespace {

void remove_models_after(const std::string& run_dir, int64_t step) {
  std::error_code ec;
  for (const auto& m : list_models(run_dir))
    if (m.step > step) std::filesystem::remove(m.path, ec);
}

}  // namespace

RunState resume_learner(const TrainConfig& config, const std::string& path, bool quiet, Learner& learner,
                        ReplayWindows& windows, Rng& rng, RunControl& control) {
  const std::string& run_dir = config.run.dir;
  RunState state;
  try {
    state = learner.load_checkpoint(path);
  } catch (const std::exception& e) {
    // Say which checkpoint would resume: the user decides whether to drop the newest.
    const std::string older = older_readable_checkpoint(run_dir, path);
    throw std::runtime_error(
        std::string(e.what()) +
        (older.empty() ? "; no older checkpoint of the run reads either"
                       : "; the older checkpoint '" + older + "' reads: move '" + path + "' away to resume from it"));
  }
  windows.restore(run_dir + "/selfplay", state.windows);
  rng.set_state(state.rng);
  control.samples_trained = state.samples_trained;
  control.step = learner.step();
  control.positions_ingested = windows.total_positions();
  control.window_positions = windows.window_positions();
  const int64_t refill = window_refill_positions(config.replay);
  control.window_refilling = windows.window_positions() < refill;
  // Self-play's lead over the learner counts from the positions already trained on.
  control.positions_written = windows.total_positions();
  control.positions_played = windows.total_positions();
  remove_models_after(run_dir, learner.step());
  if (!quiet) {
    std::printf("resumed from %s at step %lld\n", path.c_str(), (long long)learner.step());
    // Said at once: on a small board the window can refill before the first progress line.
    if (control.window_refilling)
      std::printf("%s\n", window_filling_text(windows.window_positions(), refill, 0, false, -1).c_str());
  }
  return state;
}

}  // namespace quax
