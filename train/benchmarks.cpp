#include "train/benchmarks.h"

#include <torch/torch.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "core/remove_tree.h"
#include "env/game_state.h"
#include "mcts/selfplay_driver.h"
#include "nets/device_torch.h"
#include "nets/evaluation_server.h"
#include "nets/model.h"
#include "nets/net_evaluator.h"
#include "nets/net_evaluator_internal.h"
#include "train/learner.h"
#include "train/replay_window.h"
#include "train/shard.h"

namespace quax {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Calls f until `seconds` passed (after one warm-up call); returns calls per second.
template <typename F>
double rate(double seconds, F f) {
  f();
  f();
  int calls = 0;
  const auto t0 = Clock::now();
  do {
    f();
    ++calls;
  } while (since(t0) < seconds);
  return calls / since(t0);
}

double frozen_rate(InferenceModel& m, const torch::Tensor& x, double seconds) {
  c10::InferenceMode guard;
  return x.size(0) * rate(seconds, [&] { run_inference(m, x); });
}

}  // namespace

std::vector<ForwardFigures> bench_forward(const TrainConfig& config, const std::vector<int>& batches, double seconds,
                                          int threads) {
  torch::set_num_threads(threads);
  const ModelShape shape = model_shape_for(config.game);
  const auto device = torch_device(resolve_device(config.selfplay.device, "selfplay.device"));
  auto model = build_model(config.net, shape, 1);
  model.eval();
  model.to(device);
  auto fast = std::const_pointer_cast<InferenceModel>(make_inference_model(model, shape, 0, config.selfplay.precision, config.selfplay.device));
  std::vector<ForwardFigures> out;
  for (int b : batches) {
    const auto x = random_position_planes(shape, b, 7);
    const auto x_on_device = x.to(device);
    ForwardFigures f;
    f.batch = b;
    {
      torch::NoGradGuard no_grad;
      // The copy of the outputs to the CPU waits for a GPU's work, as run_inference's does.
      f.plain_per_s = b * rate(seconds, [&] { run_model(model, x_on_device).first.to(torch::kCPU); });
    }
    f.frozen_per_s = frozen_rate(*fast, x, seconds);
    out.push_back(f);
  }
  return out;
}

LearnFigures bench_learner(const TrainConfig& config, int batch, double seconds, int threads) {
  torch::set_num_threads(threads);
  // Records of random games with a uniform policy target over the legal moves.
  std::vector<GameRecord> games;
  Rng rng(5);
  std::vector<int> legal;
  int64_t positions = 0;
  while (positions < 4 * batch) {
    GameRecord g;
    g.spec = config.game;
    auto s = new_game(config.game);
    while (!s->is_over()) {
      s->legal_actions(&legal);
      MoveRecord m;
      m.mover = s->to_move();
      for (int a : legal) m.policy.emplace_back(s->to_net_action(a), 1.0f / legal.size());
      std::sort(m.policy.begin(), m.policy.end());
      m.action = legal[rng.below(static_cast<uint32_t>(legal.size()))];
      s->apply(m.action);
      g.moves.push_back(std::move(m));
      ++positions;
    }
    g.outcome = s->outcome();
    games.push_back(std::move(g));
  }
  const std::string dir = "/tmp/quax_bench_learner_" + std::to_string(::getpid());
  write_shard(new_shard_path(dir, "b", 0), games);
  ReplayWindow window(config.game, config.replay, config.net.ownership_head);
  window.ingest_new(dir);
  remove_tree(dir);

  TrainConfig c = config;
  c.learn.batch_size = batch;
  Learner learner(c);
  TrainingBatch tb;
  double sampling = 0;
  auto step = [&] {
    const auto t0 = Clock::now();
    window.sample(batch, rng, &tb);
    sampling += since(t0);
    learner.train_step(tb);
  };
  step();
  step();
  sampling = 0;
  int steps = 0;
  const auto t0 = Clock::now();
  do {
    step();
    ++steps;
  } while (since(t0) < seconds);
  const double total = since(t0);
  return LearnFigures{steps * batch / total, sampling / total};
}

SelfplayFigures bench_selfplay(const TrainConfig& config, double seconds, int threads) {
  torch::set_num_threads(threads);
  Learner learner(config);
  auto model = learner.inference_model();
  const int workers = config.selfplay.threads;
  // One driver and evaluator per self-play thread, as the training loop runs them: on a GPU
  // clients of one evaluation server, on the CPU a network each.
  std::unique_ptr<EvaluationServer> server;
  if (inference_model_device(*model).is_cuda()) {
    EvaluationServer::Options so;
    so.max_positions = std::max(1, workers * config.selfplay.parallel_games * config.search.leaves_per_batch);
    server = std::make_unique<EvaluationServer>(model, so);
  }
  std::vector<std::unique_ptr<NetworkEvaluator>> evaluators;
  std::vector<std::unique_ptr<GameDriver>> drivers;
  for (int w = 0; w < workers; ++w) {
    evaluators.push_back(thread_evaluator(server.get(), model));
    drivers.push_back(std::make_unique<GameDriver>(config.driver_options(3 + w), std::vector<Evaluator*>{evaluators[w].get()}));
  }
  auto run_all = [&](auto body) {
    std::vector<std::thread> pool;
    for (int w = 0; w < workers; ++w)
      pool.emplace_back([&, w] {
        set_torch_threads(workers > 1 ? config.selfplay.inference_threads : threads);
        body(w);
      });
    for (auto& t : pool) t.join();
  };
  run_all([&](int w) {
    for (int i = 0; i < 3; ++i) drivers[w]->step();  // warm-up
  });
  // The bare forward at the self-play batch, measured before and after (other jobs on a
  // shared machine move both figures; the mean of the two brackets the self-play run).
  const ModelShape shape = model_shape_for(config.game);
  const int batch = config.selfplay.parallel_games * config.search.leaves_per_batch;
  auto& module = *std::const_pointer_cast<InferenceModel>(model);
  const auto bare_planes = random_position_planes(shape, batch, 9);
  const double bare_before = frozen_rate(module, bare_planes, seconds / 2);
  std::vector<int64_t> evals0(workers), steps0(workers), moves0(workers);
  std::vector<double> net0(workers);
  for (int w = 0; w < workers; ++w) {
    evals0[w] = evaluators[w]->positions_evaluated();
    steps0[w] = drivers[w]->stats().steps;
    moves0[w] = drivers[w]->stats().moves;
    net0[w] = evaluators[w]->seconds_in_network();
  }
  const auto t0 = Clock::now();
  run_all([&](int w) {
    do {
      drivers[w]->step();
      drivers[w]->take_finished();
    } while (since(t0) < seconds);
  });
  const double wall = since(t0);
  SelfplayFigures f;
  int64_t evals = 0, steps = 0, moves = 0;
  double net = 0;
  for (int w = 0; w < workers; ++w) {
    evals += evaluators[w]->positions_evaluated() - evals0[w];
    steps += drivers[w]->stats().steps - steps0[w];
    moves += drivers[w]->stats().moves - moves0[w];
    net += evaluators[w]->seconds_in_network() - net0[w];
  }
  f.evals_per_s = evals / wall;
  f.mean_batch = static_cast<double>(evals) / std::max<int64_t>(1, steps);
  f.network_share = net / wall / workers;
  f.moves_per_s = moves / wall;
  f.bare_per_s = 0.5 * (bare_before + frozen_rate(module, bare_planes, seconds / 2));
  return f;
}

}  // namespace quax
