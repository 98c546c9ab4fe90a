#include "nets/evaluation_server.h"

#include <torch/torch.h>

#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "nets/host_staging.h"
#include "nets/net_evaluator_internal.h"

namespace quax {

// A client's batch while it waits: where its inputs are and where its outputs go.
struct EvaluationServer::Request {
  int64_t b = 0, c = 0, n = 0, a = 0;
  const float* planes = nullptr;
  const uint8_t* masks = nullptr;
  float* logits = nullptr;
  float* values = nullptr;
  bool done = false;
  bool passed_over = false;  // a pass of another game ran while it waited: it waits no more
  std::string error;  // the pass failed for this batch

  bool same_game(const Request& o) const { return c == o.c && n == o.n && a == o.a; }
};

std::unique_ptr<NetworkEvaluator> thread_evaluator(EvaluationServer* server, std::shared_ptr<const InferenceModel> model) {
  if (!server) return std::make_unique<NetEvaluator>(std::move(model));
  server->set_model(std::move(model));
  return std::make_unique<EvaluationServer::Client>(*server);
}

EvaluationServer::EvaluationServer(std::shared_ptr<const InferenceModel> model, Options options)
    : options_(options), model_(std::move(model)), staging_(std::make_unique<HostStaging>()) {
  thread_ = std::thread([this] { serve(); });
}

EvaluationServer::~EvaluationServer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_server_.notify_all();
  thread_.join();
}

void EvaluationServer::set_model(std::shared_ptr<const InferenceModel> model) {
  std::lock_guard<std::mutex> lock(mu_);
  model_ = std::move(model);
}

std::shared_ptr<const InferenceModel> EvaluationServer::model() const {
  std::lock_guard<std::mutex> lock(mu_);
  return model_;
}

int64_t EvaluationServer::passes() const {
  std::lock_guard<std::mutex> lock(mu_);
  return passes_;
}

int64_t EvaluationServer::positions() const {
  std::lock_guard<std::mutex> lock(mu_);
  return positions_;
}

void EvaluationServer::serve() {
  set_torch_threads(options_.torch_threads);
  c10::InferenceMode inference;
  std::unique_lock<std::mutex> lock(mu_);
  auto queued_positions = [&] {
    int64_t total = 0;
    for (const Request* r : queue_) total += r->b;
    return total;
  };
  for (;;) {
    wake_server_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left to serve
    // Wait for the other clients' batches, unless waiting would gain nothing.
    wake_server_.wait_for(lock, std::chrono::microseconds(options_.max_wait_us), [&] {
      return stopping_ || queue_.front()->passed_over || static_cast<int>(queue_.size()) >= clients_ ||
             queued_positions() >= options_.max_positions;
    });
    // The first request's game, in order of arrival, up to max_positions (the first always).
    std::vector<Request*> batch;
    int64_t total = 0;
    const Request first = *queue_.front();
    for (auto it = queue_.begin(); it != queue_.end();) {
      Request* r = *it;
      if (r->same_game(first) && (batch.empty() || total + r->b <= options_.max_positions)) {
        batch.push_back(r);
        total += r->b;
        it = queue_.erase(it);
      } else {
        (*it)->passed_over = true;
        ++it;
      }
    }
    lock.unlock();
    run_pass(batch);
    lock.lock();
    for (Request* r : batch) r->done = true;
    ++passes_;
    positions_ += total;
    wake_clients_.notify_all();
  }
}

void EvaluationServer::run_pass(const std::vector<Request*>& batch) {
  const auto model = this->model();
  const Request& first = *batch.front();
  int64_t total = 0;
  for (const Request* r : batch) total += r->b;
  try {
    // One buffer for the joined batch: pinned for a GPU, so its copy there is asynchronous.
    auto x = staging_->buffer({total, first.c, first.n, first.n}, model->device);
    float* dst = x.data_ptr<float>();
    for (const Request* r : batch) {
      const int64_t floats = r->b * r->c * r->n * r->n;
      std::memcpy(dst, r->planes, sizeof(float) * floats);
      dst += floats;
    }
    const auto [logits, values] = run_inference(*model, x);
    int64_t row = 0;
    for (Request* r : batch) {
      try {
        deliver_outputs(*model, logits, values, row, r->b, r->a, r->masks, r->logits, r->values);
      } catch (const std::exception& e) {
        r->error = e.what();
      }
      row += r->b;
    }
  } catch (const std::exception& e) {
    for (Request* r : batch) r->error = e.what();
  }
}

EvaluationServer::Client::Client(EvaluationServer& server) : server_(server) {
  std::lock_guard<std::mutex> lock(server_.mu_);
  ++server_.clients_;
}

EvaluationServer::Client::~Client() {
  {
    std::lock_guard<std::mutex> lock(server_.mu_);
    --server_.clients_;
  }
  // One client fewer may be what the server waits for.
  server_.wake_server_.notify_all();
}

void EvaluationServer::Client::evaluate(const std::vector<const GameState*>& states, const float* planes,
                                        const uint8_t* masks, float* policy_logits, float* values) {
  if (states.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  // The batch's game is that of states[0], a null state the model's own (NetEvaluator's rule).
  const GameState* g = states[0];
  const auto model = g ? nullptr : server_.model();
  Request r;
  r.b = static_cast<int64_t>(states.size());
  r.c = g ? g->num_planes() : model->shape.planes;
  r.n = g ? g->size() : model->shape.size;
  r.a = g ? g->num_actions() : model->shape.num_actions();
  r.planes = planes;
  r.masks = masks;
  r.logits = policy_logits;
  r.values = values;
  {
    std::unique_lock<std::mutex> lock(server_.mu_);
    server_.queue_.push_back(&r);
    server_.wake_server_.notify_all();
    server_.wake_clients_.wait(lock, [&] { return r.done; });
  }
  if (!r.error.empty()) throw std::runtime_error(r.error);
  positions_ += r.b;
  seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace quax
