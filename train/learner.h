// The learner: the trainable network, its optimizer (SGD with momentum and weight decay)
// and learning-rate schedule, one step per batch, checkpoints and published models.
// Torch-free header (the LibTorch state lives in learner.cpp).
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <map>
#include <string>
#include <vector>

#include "train/config.h"
#include "train/replay_windows.h"

namespace torch::jit {
struct Module;
}

namespace quax {

struct InferenceModel;

struct StepMetrics {
  // The loss or a gradient was NaN or inf: the step was skipped (no update of weights,
  // BN statistics, optimizer state or step count); only `loss` is then filled.
  bool skipped = false;
  double loss = 0, policy_loss = 0, value_loss = 0;
  double policy_entropy = 0;  // of the network's policy over the legal actions, nats
  double value_accuracy = 0;  // share of decisive positions whose value has the right sign
  double lr = 0;
  // The losses of the auxiliary heads the net has (net.ownership_head, net.soft_policy_head)
  // before their weights (LearnConfig), by the name of their metric ("ownership_loss", ...):
  // the learn records of metrics.jsonl carry each under that name.
  std::map<std::string, double> aux_losses;
  double aux_loss(const std::string& name) const {
    const auto it = aux_losses.find(name);
    return it == aux_losses.end() ? 0.0 : it->second;
  }
};

// What a checkpoint saves beside the network and optimizer: enough to continue exactly.
struct RunState {
  // The replay windows, one per size of the run (train/replay_windows.h). Checkpoints keep
  // the first size's where runs of one size always kept theirs, so old checkpoints resume.
  std::vector<WindowState> windows;
  uint64_t rng[4] = {0, 0, 0, 0};            // the learner's sampling generator
  int64_t samples_trained = 0;
  double train_seconds = 0;                  // learner wall time over all invocations
};

// learn.max_nonfinite_steps steps in a row were skipped: the training has diverged or its
// data is broken. The learner's state is that of its last good step.
struct NonFiniteTrainingError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Learner {
 public:
  // A fresh network initialised from config.run.seed (the same weights on every device), on
  // learn.device. Throws std::runtime_error (one line) for a learn.device this machine lacks
  // (resolve_device) or a learn.precision it cannot run (bf16 on a CPU without AVX-512).
  explicit Learner(const TrainConfig& config);
  ~Learner();
  Learner(const Learner&) = delete;
  Learner& operator=(const Learner&) = delete;

  // One SGD step on `batch`. A step whose loss or gradient is not finite is skipped (see
  // StepMetrics::skipped); the learn.max_nonfinite_steps-th skipped step in a row throws
  // NonFiniteTrainingError (one line). With an ownership head the batch must carry ownership
  // targets (ReplayWindow with ownership targets on); std::invalid_argument otherwise.
  StepMetrics train_step(const TrainingBatch& batch);
  // Skipped steps since the last good one.
  int nonfinite_steps_in_a_row() const;
  int64_t step() const;
  // The learning rate of a step at `step` (warm-up, drops) after `training_minutes` of the
  // run's clock (learn.lr_minutes' cosine; train_step uses the minutes last set).
  double lr_at(int64_t step) const;
  double lr_at(int64_t step, double training_minutes) const;
  void set_training_minutes(double minutes);

  // Atomic. The file holds the model, optimizer, step, config text, spec (and sizes), net
  // shape and `state`, all as CPU tensors whatever learn.device is (load_checkpoint reads
  // them onto the CPU and moves them to the learner's device).
  void save_checkpoint(const std::string& path, const RunState& state) const;
  // Restores model, optimizer and step; returns the saved RunState. Throws std::runtime_error
  // (one line) with a message naming both sides when the checkpoint is for another variant,
  // size (or list of sizes) or net; naming the file and the field when a field of its meta
  // record is missing, of another type or out of range (rng not four 64-bit words, a step
  // outside [0, 9999999999]); and when the step in its name (ckpt-<step>.pt) is not the step
  // it holds. Every field is checked before the learner changes.
  RunState load_checkpoint(const std::string& path);

  // A warm start: the network's weights and batch-norm statistics from `path`, a model file
  // (nets/model_file.h) or a learner checkpoint, of any size and of any variant whose planes
  // and action layout give the same tensor shapes; the step, the optimizer and the schedule
  // stay those of a fresh learner. Auxiliary heads the source lacks keep their fresh weights,
  // and so do residual blocks past the source's last: a deeper net starts as the source's
  // function (nets/model.h, residual_block_of). Returns what was read ("quax 9x9 model, step
  // 6714", and "; blocks 5 to 6 start as the identity" for a deeper net). Throws
  // std::runtime_error naming the file and the first tensor missing from it or of another
  // shape, or a source of more blocks; the learner is then unchanged.
  std::string init_from(const std::string& path);

  // Writes the model file self-play loads (nets/model_file.h), atomically, whatever its
  // outputs (train/model_publisher.h checks them first); from CPU tensors (device-free). Its
  // weights are the moving average of the weights when learn.ema_decay is set (train/config.h),
  // else the current ones; inference_model and the exported models take the same.
  void publish_model(const std::string& path) const;
  // An inference copy of the current weights (for in-process evaluation and benchmarks), in
  // the config's selfplay.precision on selfplay.device, or in `precision` on `device`.
  std::shared_ptr<const InferenceModel> inference_model() const;
  std::shared_ptr<const InferenceModel> inference_model(Precision precision, const Device& device = kCpuDevice) const;

  // All parameters, buffers, the moving average and the optimizer state flattened, for
  // bit-exactness tests.
  std::vector<float> flat_state() const;

 private:
  friend torch::jit::Module& learner_module(Learner& learner);  // train/learner_internal.h
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The training configuration a checkpoint was written with. Throws std::runtime_error
// naming the file when it is not a quax checkpoint.
TrainConfig checkpoint_config(const std::string& checkpoint);
// A learner on the CPU holding a checkpoint's weights and optimizer state, whatever
// learn.device its run trained on (reading weights needs no GPU): what export and reference
// outputs read a checkpoint with. Throws as checkpoint_config and load_checkpoint do.
std::unique_ptr<Learner> checkpoint_learner_on_cpu(const std::string& checkpoint);
// Writes the checkpoint's network as a model file (nets/model_file.h): what `quax export`
// ships and self-play loads. Atomic; returns the training step.
int64_t export_checkpoint_model(const std::string& checkpoint, const std::string& model_path);

// Checkpoint files of a run directory: <run>/checkpoints/ckpt-<step, 10 digits>.pt.
std::string checkpoint_path(const std::string& run_dir, int64_t step);
// The newest checkpoint of the run, or "" when there is none.
std::string latest_checkpoint(const std::string& run_dir);
// Deletes all but the newest `keep` checkpoints of steps up to `newest_step` (the one just
// written). A file named past it is not this run's (the learner writes its steps in order): it
// is left alone, where counting it would delete the run's own newest checkpoints.
void prune_checkpoints(const std::string& run_dir, int keep, int64_t newest_step);
// The newest checkpoint of the run other than `refused` whose meta record reads and holds the
// step of its name (a run to resume from instead of a damaged newest one), "" when none.
std::string older_readable_checkpoint(const std::string& run_dir, const std::string& refused);

}  // namespace quax
