// nets/evaluation_server.h on the CPU, through the code path a GPU takes (one host buffer for
// the joined batch, one forward pass, rows handed back): outputs equal to each thread's own
// NetEvaluator, batches of waiting clients joined into one pass, games kept apart, errors
// reaching every client of a failed pass, and self-play threads sharing one server.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <thread>

#include "nets/evaluation_server.h"
#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator_internal.h"
#include "train/run_control.h"
#include "train/selfplay_worker.h"
#include "train/shard.h"
#include "ml_tiny_config.h"
#include "net_positions.h"
#include "watchdog.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<const InferenceModel> tiny_model(const GameSpec& spec, uint64_t seed = 1) {
  TrainConfig c = tiny_net_config(spec.size);
  c.game = spec;
  const ModelShape shape = model_shape_for(spec);
  return make_inference_model(build_model(c.net, shape, seed), shape, 0, Precision::kFloat32, kCpuDevice);
}

struct Outputs {
  std::vector<float> logits, values;
};

Outputs evaluate_with(Evaluator& e, const Positions& p) {
  const size_t a = static_cast<size_t>(p.states[0]->num_actions());
  Outputs o{std::vector<float>(a * p.states.size()), std::vector<float>(p.states.size())};
  e.evaluate(p.pointers, p.planes.data(), p.masks.data(), o.logits.data(), o.values.data());
  return o;
}

void expect_near(const Outputs& got, const Outputs& want) {
  ASSERT_EQ(got.logits.size(), want.logits.size());
  for (size_t i = 0; i < got.logits.size(); ++i) ASSERT_NEAR(got.logits[i], want.logits[i], 1e-4) << "logit " << i;
  for (size_t i = 0; i < got.values.size(); ++i) ASSERT_NEAR(got.values[i], want.values[i], 1e-5) << "value " << i;
}

EvaluationServer::Options patient(int max_positions = 4096) {
  EvaluationServer::Options o;
  o.max_positions = max_positions;
  o.max_wait_us = 20'000'000;  // 20 s: only clients arriving (or leaving) start a pass
  return o;
}

TEST(EvaluationServer, ThreadsWaitingTogetherShareOnePassAndGetTheirOwnRows) {
  const GameSpec spec{Variant::kQuax, 5, true};
  const auto model = tiny_model(spec);
  EvaluationServer server(model, patient());
  constexpr int kThreads = 3;
  std::vector<Positions> batches;
  std::vector<Outputs> want, got(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    batches.push_back(random_positions(spec, 5 + 3 * t, 100 + t));
    NetEvaluator own(model);
    want.push_back(evaluate_with(own, batches.back()));
  }
  {
    // Every client registered before any submits: the pass waits for all three.
    std::vector<std::unique_ptr<EvaluationServer::Client>> clients;
    for (int t = 0; t < kThreads; ++t) clients.push_back(std::make_unique<EvaluationServer::Client>(server));
    within(60, "three clients of one server", [&] {
      std::vector<std::thread> threads;
      for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] { got[t] = evaluate_with(*clients[t], batches[t]); });
      for (auto& th : threads) th.join();
      return 0;
    });
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(clients[t]->positions_evaluated(), 5 + 3 * t);
  }
  EXPECT_EQ(server.passes(), 1) << "the three batches were not joined";
  EXPECT_EQ(server.positions(), 5 + 8 + 11);
  for (int t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(t);
    expect_near(got[t], want[t]);
  }
}

TEST(EvaluationServer, APassHoldsAtMostMaxPositionsAndNeverSplitsABatch) {
  const GameSpec spec{Variant::kQuax, 5, true};
  const auto model = tiny_model(spec);
  EvaluationServer server(model, patient(10));
  const Positions a = random_positions(spec, 8, 1), b = random_positions(spec, 8, 2), big = random_positions(spec, 13, 3);
  EvaluationServer::Client ca(server), cb(server), cbig(server);
  within(60, "batches above max_positions", [&] {
    std::thread t1([&] { evaluate_with(ca, a); }), t2([&] { evaluate_with(cb, b); }),
        t3([&] { evaluate_with(cbig, big); });
    t1.join(), t2.join(), t3.join();
    return 0;
  });
  EXPECT_EQ(server.passes(), 3) << "8 + 8 > 10, and 13 runs alone";
  EXPECT_EQ(server.positions(), 29);
}

TEST(EvaluationServer, BatchesOfAnotherBoardGoInTheirOwnPass) {
  const auto model = tiny_model(GameSpec{Variant::kQuax, 5, true});
  EvaluationServer server(model, patient());
  const Positions five = random_positions(GameSpec{Variant::kQuax, 5, true}, 6, 1);
  const Positions seven = random_positions(GameSpec{Variant::kQuax, 7, true}, 4, 2);
  NetEvaluator own(model);
  const Outputs want5 = evaluate_with(own, five), want7 = evaluate_with(own, seven);
  Outputs got5, got7;
  EvaluationServer::Client c5(server), c7(server);
  const auto start = std::chrono::steady_clock::now();
  within(60, "two boards", [&] {
    std::thread t5([&] { got5 = evaluate_with(c5, five); }), t7([&] { got7 = evaluate_with(c7, seven); });
    t5.join(), t7.join();
    return 0;
  });
  EXPECT_EQ(server.passes(), 2);
  // The batch passed over for the other board's pass went next, without waiting for its client.
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  expect_near(got5, want5);
  expect_near(got7, want7);
}

TEST(EvaluationServer, AClientThatLeavesIsNotWaitedFor) {
  const GameSpec spec{Variant::kQuax, 5, true};
  EvaluationServer server(tiny_model(spec), patient());
  EvaluationServer::Client stays(server);
  auto leaves = std::make_unique<EvaluationServer::Client>(server);
  const Positions p = random_positions(spec, 4, 1);
  const auto start = std::chrono::steady_clock::now();
  std::thread t([&] { evaluate_with(stays, p); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  leaves.reset();  // the only other client: the waiting batch is all there is
  t.join();
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10.0);
  EXPECT_EQ(server.passes(), 1);
}

TEST(EvaluationServer, AFailedPassIsEachClientsOneLineError) {
  // A model of another layout (hex) asked for quax positions: the forward pass fails.
  const auto hex = tiny_model(GameSpec{Variant::kHex, 5, false});
  EvaluationServer server(hex, patient());
  const Positions p = random_positions(GameSpec{Variant::kQuax, 5, true}, 3, 1);
  auto a = std::make_unique<EvaluationServer::Client>(server), b = std::make_unique<EvaluationServer::Client>(server);
  std::string error_a, error_b;
  auto run = [&](EvaluationServer::Client& c, std::string* error) {
    try {
      evaluate_with(c, p);
    } catch (const std::runtime_error& e) {
      *error = e.what();
    }
  };
  std::thread ta([&] { run(*a, &error_a); }), tb([&] { run(*b, &error_b); });
  ta.join(), tb.join();
  EXPECT_NE(error_a.find("the model of step 0"), std::string::npos) << error_a;
  EXPECT_EQ(error_a.find('\n'), std::string::npos) << error_a;
  EXPECT_EQ(error_b, error_a);
  // The server goes on serving a model that fits (to the one client left: not waited for).
  b.reset();
  server.set_model(tiny_model(GameSpec{Variant::kQuax, 5, true}));
  EXPECT_NO_THROW(evaluate_with(*a, p));
}

TEST(EvaluationServer, AThreadsEvaluatorIsItsOwnNetworkOrAClient) {
  const GameSpec spec{Variant::kQuax, 5, true};
  const auto first = tiny_model(spec, 1), second = tiny_model(spec, 2);
  const Positions p = random_positions(spec, 6, 1);
  auto own = thread_evaluator(nullptr, first);
  ASSERT_NE(dynamic_cast<NetEvaluator*>(own.get()), nullptr);
  NetEvaluator reference(second);
  const Outputs want = evaluate_with(reference, p);
  EvaluationServer server(nullptr, EvaluationServer::Options{});
  {
    auto client = thread_evaluator(&server, first);
    ASSERT_NE(dynamic_cast<EvaluationServer::Client*>(client.get()), nullptr);
    EXPECT_EQ(server.model(), first) << "a client gives the server its model";
    client->set_model(second);  // every client's next pass
    EXPECT_EQ(server.model(), second);
    expect_near(evaluate_with(*client, p), want);
    EXPECT_EQ(client->positions_evaluated(), 6);
    EXPECT_GT(client->seconds_in_network(), 0.0);
  }
  own->set_model(second);
  expect_near(evaluate_with(*own, p), want);
  EXPECT_EQ(own->positions_evaluated(), 6);
}

TEST(EvaluationServer, SelfPlayThreadsSharingOneServerPlayCompleteGames) {
  TrainConfig c = tiny_net_config();
  c.search.simulations = 8;
  c.selfplay.parallel_games = 4;
  c.selfplay.games_per_shard = 4;
  c.selfplay.precision = Precision::kFloat32;
  c.selfplay.device = kCpuDevice;
  c.run.max_games = 16;
  c.run.dir = (fs::temp_directory_path() / ("quax_server_" + std::to_string(::getpid()))).string();
  fs::remove_all(c.run.dir);
  fs::create_directories(c.run.dir + "/selfplay");
  RunControl control;
  control.model.set(tiny_model(c.game));
  EvaluationServer::Options so;
  so.max_wait_us = 1000;
  EvaluationServer server(nullptr, so);
  within(120, "two self-play threads on one server", [&] {
    std::thread t0([&] { run_selfplay_worker(c, c.run.dir, "t0", 1, control, &server); });
    std::thread t1([&] { run_selfplay_worker(c, c.run.dir, "t1", 2, control, &server); });
    t0.join(), t1.join();
    return 0;
  });
  EXPECT_EQ(control.error, "");
  EXPECT_GE(control.games.load(), c.run.max_games);
  std::map<std::string, int> games_by_writer;  // shard-<time>-<writer>-<counter>.qxs
  for (const auto& shard : list_shards(c.run.dir + "/selfplay"))
    for (const char* writer : {"t0", "t1"})
      if (fs::path(shard).filename().string().find(std::string("-") + writer + "-") != std::string::npos)
        games_by_writer[writer] += static_cast<int>(read_shard(shard, c.game).size());
  EXPECT_GT(games_by_writer["t0"], 0);
  EXPECT_GT(games_by_writer["t1"], 0);
  // Every evaluation of both threads went through the server.
  EXPECT_GT(server.passes(), 0);
  EXPECT_EQ(server.positions(), control.evaluations.load());
  fs::remove_all(c.run.dir);
}

}  // namespace
}  // namespace quax
