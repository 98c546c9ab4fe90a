// Speed measurements of the LibTorch side, for `quax bench net` and BENCHMARKS.md: bare
// forward throughput, learner samples/s, and self-play evaluations/s against the bare
// forward pass at the same batch. Torch-free header.
#pragma once

#include <vector>

#include "train/config.h"

namespace quax {

struct ForwardFigures {
  int batch = 0;
  double plain_per_s = 0;   // trainable module in eval mode, no_grad
  double frozen_per_s = 0;  // frozen + optimize_for_inference, inference mode (what self-play uses)
};

// Positions per second through the network of `config` (random weights, planes of random
// positions), `seconds` per measurement, on the calling thread with `threads` intra-op threads,
// on selfplay.device (the plain module there too, its inputs already on it).
std::vector<ForwardFigures> bench_forward(const TrainConfig& config, const std::vector<int>& batches, double seconds,
                                          int threads);

// Learner samples per second at `batch` (forward, backward, SGD step), from batches sampled
// with symmetries out of random-play records (sampling included and reported separately).
struct LearnFigures {
  double samples_per_s = 0;
  double sampling_share = 0;  // of the time
};
LearnFigures bench_learner(const TrainConfig& config, int batch, double seconds, int threads);

// Self-play through the multi-game driver with the network evaluator for `seconds`:
// config.selfplay.threads drivers in parallel, each on its own thread with
// selfplay.inference_threads LibTorch threads, as training runs them (one driver with
// `threads` LibTorch threads when selfplay.threads is 1).
struct SelfplayFigures {
  double evals_per_s = 0;        // positions evaluated per wall second
  double mean_batch = 0;         // positions per evaluator call
  double network_share = 0;      // of wall time inside the forward pass
  double bare_per_s = 0;         // bare frozen forward at one driver's batch, `threads` threads
  double moves_per_s = 0;
};
SelfplayFigures bench_selfplay(const TrainConfig& config, double seconds, int threads);

}  // namespace quax
