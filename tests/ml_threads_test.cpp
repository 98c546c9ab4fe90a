// Threads as the shipped configs use them: self-play with selfplay.threads: 2 delivers
// complete, legal games from both threads; a loaded model shared by two threads (one
// evaluator each, as self-play does) gives each the results it gives one thread alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <thread>

#include "core/host_name.h"
#include "mcts/search_agent.h"
#include "nets/model.h"
#include "nets/model_file.h"
#include "nets/net_evaluator.h"
#include "train/shard.h"
#include "train/train_loop.h"
#include "watchdog.h"
#include "ml_tiny_config.h"
#include "net_positions.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

// The writer part of a shard name: shard-<13-digit time>-<writer>-<6-digit counter>.qxs.
std::string shard_writer(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  const size_t start = std::string("shard-").size() + 13 + 1;
  const size_t end = name.rfind('-');
  return name.substr(start, end - start);
}

// The game replays legally from the start to the recorded result.
void expect_complete_and_legal(const GameRecord& g) {
  auto state = new_game(g.spec);
  for (const MoveRecord& m : g.moves) {
    ASSERT_FALSE(state->is_over());
    ASSERT_EQ(m.mover, state->to_move());
    ASSERT_TRUE(state->is_legal(m.action));
    state->apply(m.action);
  }
  if (g.resigned) {
    EXPECT_EQ(g.outcome, win_for(opponent(g.resigner)));
  } else if (g.truncated) {
    EXPECT_EQ(g.outcome, Outcome::kDraw);
  } else {
    EXPECT_TRUE(state->is_over());
    EXPECT_EQ(g.outcome, state->outcome());
  }
}

TEST(SelfplayThreads, TwoThreadsBothDeliverCompleteLegalGames) {
  TrainConfig c = tiny_net_config();
  c.search.simulations = 8;
  c.selfplay.threads = 2;
  c.selfplay.parallel_games = 4;
  c.selfplay.games_per_shard = 4;
  c.selfplay.precision = Precision::kFloat32;
  c.run.max_games = 48;
  c.run.progress_seconds = 1000;
  c.run.dir = (fs::temp_directory_path() / ("quax_threads_" + std::to_string(::getpid()))).string();
  fs::remove_all(c.run.dir);
  const ModelShape shape = model_shape_for(c.game);
  save_model_file(build_model(c.net, shape, 1), model_description(shape, c.net, 0),
                  c.run.dir + "/models/model-0000000000.pt");
  TrainOptions self_play_only;
  self_play_only.learn = false;
  self_play_only.quiet = true;
  within(120, "self-play with two threads", [&] {
    run_training(c, self_play_only);
    return 0;
  });

  std::map<std::string, std::set<int64_t>> games_by_writer;
  int64_t total = 0;
  for (const auto& shard : list_shards(c.run.dir + "/selfplay")) {
    const std::string writer = shard_writer(shard);
    for (const GameRecord& g : read_shard(shard, c.game)) {
      SCOPED_TRACE(shard + " game " + std::to_string(g.game_index));
      EXPECT_EQ(g.spec, c.game);
      expect_complete_and_legal(g);
      EXPECT_TRUE(games_by_writer[writer].insert(g.game_index).second) << "game index repeated";
      ++total;
    }
  }
  ASSERT_EQ(games_by_writer.size(), 2u);
  const std::string pid = host_name_token() + "p" + std::to_string(::getpid());  // the writer names this process
  EXPECT_EQ(games_by_writer.begin()->first, pid + "t0");
  EXPECT_EQ(games_by_writer.rbegin()->first, pid + "t1");
  for (const auto& [writer, games] : games_by_writer) EXPECT_GT(games.size(), 0u) << writer;
  EXPECT_GE(total, c.run.max_games);
  fs::remove_all(c.run.dir);
}

struct Outputs {
  std::vector<float> logits, values;
  std::vector<int> game;  // the moves of a searched game from the start
};

// What one thread computes with the shared model: the outputs on `p` (`repeats` times, the
// largest difference between repeats in *spread) and a game of 6 searched moves.
Outputs compute(std::shared_ptr<const InferenceModel> model, const Positions& p, int repeats, float* spread) {
  set_torch_threads(1);
  NetEvaluator ev(model);
  const size_t a = static_cast<size_t>(p.states[0]->num_actions());
  Outputs out;
  *spread = 0.0f;
  for (int r = 0; r < repeats; ++r) {
    std::vector<float> logits(a * p.states.size()), values(p.states.size());
    ev.evaluate(p.pointers, p.planes.data(), p.masks.data(), logits.data(), values.data());
    if (r == 0) {
      out.logits = logits;
      out.values = values;
    }
    for (size_t i = 0; i < logits.size(); ++i) *spread = std::max(*spread, std::fabs(logits[i] - out.logits[i]));
    for (size_t i = 0; i < values.size(); ++i) *spread = std::max(*spread, std::fabs(values[i] - out.values[i]));
  }
  SearchSettings s;
  s.simulations = 24;
  s.leaves_per_batch = 4;
  SearchAgent agent("shared", std::make_shared<NetEvaluator>(model), s, 9);
  auto state = new_game(p.states[0]->spec());
  for (int m = 0; m < 6 && !state->is_over(); ++m) {
    out.game.push_back(agent.choose_action(*state));
    state->apply(out.game.back());
  }
  return out;
}

TEST(SharedModel, TwoThreadsGetWhatOneThreadGets) {
  const GameSpec spec{Variant::kQuax, 5, true};
  const auto model = load_inference_model(std::string(QUAX_SOURCE_DIR) + "/checkpoints/quax-5.pt", spec);
  const Positions p = random_positions(spec, 12, 3);
  float spread = 0.0f;
  const Outputs alone = compute(model, p, 1, &spread);
  Outputs shared[2];
  float spreads[2] = {0.0f, 0.0f};
  within(120, "two threads sharing a model", [&] {
    std::thread t0([&] { shared[0] = compute(model, p, 30, &spreads[0]); });
    std::thread t1([&] { shared[1] = compute(model, p, 30, &spreads[1]); });
    t0.join();
    t1.join();
    return 0;
  });
  for (int t = 0; t < 2; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t));
    EXPECT_EQ(spreads[t], 0.0f);  // the same outputs at every repeat
    ASSERT_EQ(shared[t].logits.size(), alone.logits.size());
    for (size_t i = 0; i < alone.logits.size(); ++i) ASSERT_NEAR(shared[t].logits[i], alone.logits[i], 1e-5) << i;
    for (size_t i = 0; i < alone.values.size(); ++i) ASSERT_NEAR(shared[t].values[i], alone.values[i], 1e-5) << i;
    EXPECT_EQ(shared[t].game, alone.game);
    auto state = new_game(spec);
    for (int a : shared[t].game) {
      ASSERT_TRUE(state->is_legal(a));
      state->apply(a);
    }
  }
}

}  // namespace
}  // namespace quax
