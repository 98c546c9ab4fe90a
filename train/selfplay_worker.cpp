#include "train/selfplay_worker.h"

#include <fmt/format.h>

#include <chrono>
#include <memory>
#include <thread>

#include "mcts/evaluation_cache.h"
#include "mcts/mixed_driver.h"
#include "nets/evaluation_server.h"
#include "nets/net_evaluator.h"
#include "train/shard.h"

namespace quax {

int64_t selfplay_lead_allowed(const TrainConfig& config) {
  const double per_publish = config.learn.batch_size * config.learn.publish_every / config.replay.train_ratio;
  return std::max<int64_t>(config.replay.min_positions / 2, static_cast<int64_t>(per_publish));
}

namespace {

// The wait of a self-play thread that is ahead of the learner: shorter than kWaitPoll, as the
// learner frees room with every step.
constexpr std::chrono::milliseconds kThrottlePoll{20};

bool should_wait(const TrainConfig& config, const RunControl& c) {
  if (!c.learner_running.load() || c.window_refilling.load()) return false;
  const int64_t written = c.positions_written.load();
  if (written < config.replay.min_positions) return false;
  const double consumed = c.samples_trained.load() / config.replay.train_ratio;
  return static_cast<double>(written) - consumed > static_cast<double>(selfplay_lead_allowed(config));
}

size_t spec_index(const std::vector<GameSpec>& specs, const GameSpec& spec) {
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i] == spec) return i;
  throw std::logic_error("self-play finished a game of " + describe(spec) + ", which is none of the run's");
}

}  // namespace

void run_selfplay_worker(const TrainConfig& config, const std::string& run_dir, const std::string& writer,
                         uint64_t seed, RunControl& control, EvaluationServer* server) {
  try {
    set_torch_threads(config.selfplay.inference_threads);
    while (!control.stop && !control.model.get()) std::this_thread::sleep_for(kWaitPoll);
    if (control.stop) return;
    int64_t model_version = control.model.version();
    // One evaluator for every size (each call holds one size's positions; nets/net_evaluator.h),
    // one cache and one driver per size of the run (game.sizes), and one shard stream per size.
    // The evaluator is the thread's own network, or its client of the shared server.
    const std::unique_ptr<NetworkEvaluator> network = thread_evaluator(server, control.model.get());
    NetworkEvaluator& evaluator = *network;
    const auto specs = config.game_specs();
    std::vector<std::unique_ptr<CachingEvaluator>> caches;
    std::vector<DriverOptions> options;
    std::vector<std::vector<Evaluator*>> evaluators;
    for (size_t i = 0; i < specs.size(); ++i) {
      if (config.selfplay.cache_entries > 0) {
        const auto probe = new_game(specs[i]);
        caches.push_back(std::make_unique<CachingEvaluator>(&evaluator, config.selfplay.cache_entries,
                                                            probe->num_planes() * probe->size() * probe->size(),
                                                            probe->num_actions()));
      }
      options.push_back(config.driver_options(seed + 0x632BE59BD9B4E019ULL * i));
      options.back().spec = specs[i];
      evaluators.push_back({caches.empty() ? static_cast<Evaluator*>(&evaluator) : caches.back().get()});
    }
    MixedDriver driver(options, evaluators, config.game_weights());
    driver.set_simulations(config.simulations_at(inference_model_step(*control.model.get())));
    int64_t lookups_reported = 0, hits_reported = 0;
    const std::string dir = run_dir + "/selfplay";
    struct ShardStream {
      std::string writer;
      std::vector<GameRecord> pending;
      int64_t shards = 0, positions_pending = 0;
    };
    std::vector<ShardStream> streams(specs.size());
    for (size_t i = 0; i < specs.size(); ++i)
      streams[i].writer = specs.size() == 1 ? writer : fmt::format("{}n{}", writer, specs[i].size);
    int64_t evals_reported = 0;
    double net_seconds_reported = 0;
    auto flush = [&](ShardStream& s) {
      if (s.pending.empty()) return;
      write_shard(new_shard_path(dir, s.writer, s.shards++), s.pending);
      control.positions_written += s.positions_pending;
      s.pending.clear();
      s.positions_pending = 0;
    };
    while (!control.stop) {
      if (config.run.max_games > 0 && control.games.load() >= config.run.max_games) {
        control.selfplay_done = true;
        break;
      }
      if (should_wait(config, control)) {
        std::this_thread::sleep_for(kThrottlePoll);
        continue;
      }
      if (control.model.version() != model_version) {
        model_version = control.model.version();
        evaluator.set_model(control.model.get());
        for (auto& c : caches) c->clear();
        driver.set_simulations(config.simulations_at(inference_model_step(*control.model.get())));
      }
      driver.step();
      for (auto& g : driver.take_finished()) {
        control.games += 1;
        control.moves += static_cast<int64_t>(g.moves.size());
        ShardStream& s = streams[spec_index(specs, g.spec)];
        const int64_t positions = trainable_positions(g);
        s.positions_pending += positions;
        control.positions_played += positions;
        s.pending.push_back(std::move(g));
      }
      for (auto& s : streams)
        if (static_cast<int>(s.pending.size()) >= config.selfplay.games_per_shard) flush(s);
      control.evaluations += evaluator.positions_evaluated() - evals_reported;
      evals_reported = evaluator.positions_evaluated();
      control.network_micros += static_cast<int64_t>((evaluator.seconds_in_network() - net_seconds_reported) * 1e6);
      net_seconds_reported = evaluator.seconds_in_network();
      if (!caches.empty()) {
        int64_t lookups = 0, hits = 0;
        for (const auto& c : caches) {
          lookups += c->lookups();
          hits += c->hits();
        }
        control.cache_lookups += lookups - lookups_reported;
        control.cache_hits += hits - hits_reported;
        lookups_reported = lookups;
        hits_reported = hits;
      }
    }
    // Games still in flight are dropped: a finished shard is worth more than waiting.
    for (auto& s : streams) flush(s);
  } catch (const std::exception& e) {
    control.fail("self-play " + writer + ": " + e.what());
  }
}

}  // namespace quax
