// The network behind the search's Evaluator interface: batched, no autograd (inference
// mode), on a frozen TorchScript copy passed through optimize_for_inference (the fastest
// path measured here). Torch-free header.
//
// Threading: an InferenceModel may be shared by several NetEvaluators in several threads
// (one driver per thread); each NetEvaluator belongs to one thread. set_model() may be
// called from any thread: the next evaluate() uses the new model.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "mcts/evaluator.h"
#include "nets/device.h"
#include "nets/net_config.h"

namespace quax {

struct InferenceModel;  // defined in nets/net_evaluator_internal.h (holds the torch module)
class HostStaging;     // nets/host_staging.h

// Loads a model file (nets/model_file.h) and prepares it for inference. Throws
// std::runtime_error (one line naming the file) when it cannot be read, cannot play `spec`
// (another variant: check_model_matches), or gives non-finite outputs on the probe positions
// (probe_model_outputs), or whose outputs on them are not policy logits [B, A] and values [B]
// (run_inference, which checks every later batch too). A size of the variant outside the model's trained sizes plays, with
// one warning line on stderr, and so does a pie rule other than its training's. The file is
// read onto the CPU and the inference copy placed on `device` (resolved by resolve_device,
// whose one-line error names "device" for a GPU this machine lacks). In int8, a model whose
// int8 copy fails compare_model_outputs against its float32 copy runs in float32, with one
// warning line on stderr.
std::shared_ptr<const InferenceModel> load_inference_model(const std::string& path, const GameSpec& spec,
                                                           Precision precision = Precision::kAuto,
                                                           const Device& device = kCpuDevice);
// check_model_matches (nets/model_file.h) of a loaded model against `spec`: "" when it can
// play it (after printing its warning lines on stderr - a size outside its trained sizes,
// once per model file and size in the process; a pie rule other than its training's, once
// per model file and setting), else one line naming both games.
std::string check_model_plays(const InferenceModel& model, const GameSpec& spec);
// Empty when the model's policy logits and values are all finite on its probe batch: the
// start position and 7 random legal positions of its game (a fixed seed, so the same
// positions every time); else one line (without the model's name) saying how many were not.
// A diverged run or a damaged file shows here; a model may still fail on other positions,
// which the search survives (mcts/search_tree.h).
std::string probe_model_outputs(const InferenceModel& model);
// Empty when `model` computes what `reference` computes (the same network, e.g. its float32
// copy on the CPU) on the probe positions: the policies (softmax over every action) within a
// total-variation distance of 0.1 and the values within 0.2 at every position; else one
// line (without the models' names) giving the largest differences. bfloat16 rounding stays
// well inside both (on the shipped models' probes at most 0.02 and 0.05); an inference path
// that computes something else (a device's fused kernel, a copy that never arrives) does
// not, and would otherwise spoil every self-play game of a run without an error
// (docs/GPU.md).
std::string compare_model_outputs(const InferenceModel& model, const InferenceModel& reference);
// The precision an inference model runs in (never kAuto).
Precision inference_model_precision(const InferenceModel& model);
// The device an inference model runs on (never kAuto).
Device inference_model_device(const InferenceModel& model);
// The training step recorded in the model.
int64_t inference_model_step(const InferenceModel& model);
// One line of a LibTorch error message: its first line, or for an error raised inside a
// TorchScript model (whose first line is a generic header) the "<Kind>Error: ..." line that
// says the cause.
std::string torch_error_line(const std::string& message);
// Whether `model` has an ownership head: a model file whose description says so (net
// "ownership_head", written by `quax export` and the learner for a net trained with one).
bool inference_model_has_ownership(const InferenceModel& model);
// The ownership head's owner plane for each of `states` (all of one game, none over): size()^2
// floats per state into `out`, each in [-1, 1] (tanh of the head's output), in the state's
// network frame (a board cell `c` at index to_net_action(c)): +1 where the player to move is
// predicted to hold the cell when the game ends, -1 where the opponent is, 0 for a cell left
// empty (env/ownership.h's owner plane, the head's training target). Throws
// std::runtime_error (one line naming the model) when it has no ownership head or fails.
void evaluate_ownership(const InferenceModel& model, const std::vector<const GameState*>& states, float* out);
// Sets LibTorch intra-op threads for the calling thread (OpenMP threads are per thread).
void set_torch_threads(int threads);

// An Evaluator backed by an inference model, whose model can be swapped and which counts
// its work: NetEvaluator (a thread's own network) and EvaluationServer::Client (a share of
// one network batch; nets/evaluation_server.h).
class NetworkEvaluator : public Evaluator {
 public:
  // The next evaluate() uses `model` (callable from any thread).
  virtual void set_model(std::shared_ptr<const InferenceModel> model) = 0;
  // Positions this evaluator evaluated, and the seconds its calls took.
  virtual int64_t positions_evaluated() const = 0;
  virtual double seconds_in_network() const = 0;
};

class NetEvaluator final : public NetworkEvaluator {
 public:
  explicit NetEvaluator(std::shared_ptr<const InferenceModel> model);
  ~NetEvaluator() override;
  void set_model(std::shared_ptr<const InferenceModel> model) override;
  std::shared_ptr<const InferenceModel> model() const;

  // The batch's game (its size, planes and actions) is that of states[0]; all states must be
  // of one game (any size of the model's variant). Null states: the model's own game.
  // Throws std::runtime_error (one line naming the model) when the model fails on the batch or
  // gives outputs of other shapes (nets/net_evaluator_internal.h: run_inference).
  // Outputs are passed on as the network gives them; the first NaN or inf a model gives
  // for a legal action or a value prints one warning line on stderr naming the model
  // (once per model in the process, whatever the number of evaluators sharing it).
  void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                float* policy_logits, float* values) override;

  int64_t positions_evaluated() const override { return positions_; }
  double seconds_in_network() const override { return seconds_; }

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const InferenceModel> model_;
  // The buffer planes go to a GPU through (nets/host_staging.h); unused on the CPU.
  std::unique_ptr<HostStaging> staging_;
  int64_t positions_ = 0;
  double seconds_ = 0;
};

}  // namespace quax
