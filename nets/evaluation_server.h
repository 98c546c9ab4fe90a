// One network for many search threads, as KataGo's NNEvaluator serves its self-play threads:
// each thread evaluates through its own EvaluationServer::Client, which hands its batch to the
// server and waits; the server's thread joins the batches waiting at that moment (those of one
// board game: the same planes, size and actions) into one forward pass, and hands each client
// its rows back. On a GPU, where a forward pass costs about the same for 64 positions as for
// 1024, this is what keeps the device busy: selfplay.threads x selfplay.parallel_games games
// in flight feed one batch per pass. The joined batch crosses to the device through one pinned
// host buffer (nets/host_staging.h). Torch-free header.
//
// A pass starts as soon as every registered client is waiting, or `max_positions` are
// gathered, or `max_wait_us` after the first request, whichever is first; it takes the oldest
// request's game, and a request passed over for another game's pass goes in the next one
// without waiting again. A client's batch is never split.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "mcts/evaluator.h"
#include "nets/net_evaluator.h"

namespace quax {

class EvaluationServer;

// The evaluator of one search thread evaluating `model`: a client of `server` (which it then
// gives the model) when there is one, else a NetEvaluator of its own. What self-play and its
// benchmark choose between: one batch for all threads on a GPU, one per thread on the CPU.
std::unique_ptr<NetworkEvaluator> thread_evaluator(EvaluationServer* server, std::shared_ptr<const InferenceModel> model);

class EvaluationServer {
 public:
  struct Options {
    int max_positions = 4096;  // positions of one pass at most (a larger client batch runs alone)
    int max_wait_us = 2000;    // how long the first request of a pass waits for others
    int torch_threads = 1;     // LibTorch intra-op threads of the server's thread (CPU inference)
  };
  // Starts the server's thread, evaluating with `model` (an InferenceModel on any device; may
  // be null until set_model, before the first evaluation).
  EvaluationServer(std::shared_ptr<const InferenceModel> model, Options options);
  // Stops the thread; every client must be gone by then.
  ~EvaluationServer();
  EvaluationServer(const EvaluationServer&) = delete;
  EvaluationServer& operator=(const EvaluationServer&) = delete;

  // Later passes use `model` (from any thread; a pass under way finishes with the old one).
  void set_model(std::shared_ptr<const InferenceModel> model);
  std::shared_ptr<const InferenceModel> model() const;

  // The Evaluator of one search thread (NetEvaluator's contract: one thread, one call at a
  // time; the outputs equal NetEvaluator's on the same model). It registers with the server
  // while it lives.
  class Client final : public NetworkEvaluator {
   public:
    explicit Client(EvaluationServer& server);
    ~Client() override;
    // Sets the server's model: every client's next pass uses it.
    void set_model(std::shared_ptr<const InferenceModel> model) override { server_.set_model(std::move(model)); }
    // Throws std::runtime_error (NetEvaluator's one line) when the pass of this batch failed.
    void evaluate(const std::vector<const GameState*>& states, const float* planes, const uint8_t* masks,
                  float* policy_logits, float* values) override;
    int64_t positions_evaluated() const override { return positions_; }
    // Seconds this client waited for its outputs (the network's share of its thread's time).
    double seconds_in_network() const override { return seconds_; }

   private:
    EvaluationServer& server_;
    int64_t positions_ = 0;
    double seconds_ = 0;
  };

  // Counts so far: forward passes run, and positions evaluated (their ratio is the mean batch).
  int64_t passes() const;
  int64_t positions() const;

 private:
  struct Request;
  void serve();
  // Runs one pass over `batch` (requests of one game); delivers outputs or the error to each.
  void run_pass(const std::vector<Request*>& batch);

  Options options_;
  mutable std::mutex mu_;
  std::condition_variable wake_server_, wake_clients_;
  std::shared_ptr<const InferenceModel> model_;
  std::deque<Request*> queue_;
  int clients_ = 0;
  bool stopping_ = false;
  int64_t passes_ = 0, positions_ = 0;
  std::unique_ptr<HostStaging> staging_;
  std::thread thread_;
};

}  // namespace quax
