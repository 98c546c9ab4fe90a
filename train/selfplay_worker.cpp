#include "train/selfplay_worker.h"

#include <chrono>
#include <memory>
#include <thread>

#include "mcts/evaluation_cache.h"
#include "nets/net_evaluator.h"
#include "train/shard.h"

namespace quax {

int64_t selfplay_lead_allowed(const TrainConfig& config) {
  const double per_publish = config.learn.batch_size * config.learn.publish_every / config.replay.train_ratio;
  return std::max<int64_t>(config.replay.min_positions / 2, static_cast<int64_t>(per_publish));
}

namespace {

bool should_wait(const TrainConfig& config, const RunControl& c) {
  if (!c.learner_running.load()) return false;
  const int64_t written = c.positions_written.load();
  if (written < config.replay.min_positions) return false;
  const double consumed = c.samples_trained.load() / config.replay.train_ratio;
  return static_cast<double>(written) - consumed > static_cast<double>(selfplay_lead_allowed(config));
}

}  // namespace

void run_selfplay_worker(const TrainConfig& config, const std::string& run_dir, const std::string& writer,
                         uint64_t seed, RunControl& control) {
  try {
    set_torch_threads(config.selfplay.inference_threads);
    while (!control.stop && !control.model.get()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (control.stop) return;
    int64_t model_version = control.model.version();
    NetEvaluator evaluator(control.model.get());
    std::unique_ptr<CachingEvaluator> cache;
    if (config.selfplay.cache_entries > 0) {
      const auto probe = new_game(config.game);
      cache = std::make_unique<CachingEvaluator>(&evaluator, config.selfplay.cache_entries,
                                                 probe->num_planes() * probe->size() * probe->size(),
                                                 probe->num_actions());
    }
    GameDriver driver(config.driver_options(seed), {cache ? static_cast<Evaluator*>(cache.get()) : &evaluator});
    int64_t lookups_reported = 0, hits_reported = 0;
    const std::string dir = run_dir + "/selfplay";
    std::vector<GameRecord> pending;
    int64_t shards = 0, positions_pending = 0, evals_reported = 0;
    double net_seconds_reported = 0;
    auto flush = [&] {
      if (pending.empty()) return;
      write_shard(new_shard_path(dir, writer, shards++), pending);
      control.positions_written += positions_pending;
      pending.clear();
      positions_pending = 0;
    };
    while (!control.stop) {
      if (config.run.max_games > 0 && control.games.load() >= config.run.max_games) {
        control.selfplay_done = true;
        break;
      }
      if (should_wait(config, control)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        continue;
      }
      if (control.model.version() != model_version) {
        model_version = control.model.version();
        evaluator.set_model(control.model.get());
        if (cache) cache->clear();
      }
      driver.step();
      for (auto& g : driver.take_finished()) {
        control.games += 1;
        control.moves += static_cast<int64_t>(g.moves.size());
        positions_pending += trainable_positions(g);
        pending.push_back(std::move(g));
      }
      if (static_cast<int>(pending.size()) >= config.selfplay.games_per_shard) flush();
      control.evaluations += evaluator.positions_evaluated() - evals_reported;
      evals_reported = evaluator.positions_evaluated();
      control.network_micros += static_cast<int64_t>((evaluator.seconds_in_network() - net_seconds_reported) * 1e6);
      net_seconds_reported = evaluator.seconds_in_network();
      if (cache) {
        control.cache_lookups += cache->lookups() - lookups_reported;
        control.cache_hits += cache->hits() - hits_reported;
        lookups_reported = cache->lookups();
        hits_reported = cache->hits();
      }
    }
    // Games still in flight are dropped: a finished shard is worth more than waiting.
    flush();
  } catch (const std::exception& e) {
    control.fail("self-play " + writer + ": " + e.what());
  }
}

}  // namespace quax
