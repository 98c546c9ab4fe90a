#include "train/selfplay_worker.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <thread>

#include "core/thread_priority.h"
#include "mcts/evaluation_cache.h"
#include "mcts/mixed_driver.h"
#include "nets/evaluation_server.h"
#include "nets/net_evaluator.h"
#include "train/pacing.h"
#include "train/shard.h"

namespace quax {

namespace {

// The wait of a self-play thread that is ahead of the learner: shorter than kWaitPoll, as the
// learner frees room with every step.
constexpr std::chrono::milliseconds kThrottlePoll{20};

size_t spec_index(const std::vector<GameSpec>& specs, const GameSpec& spec) {
  for (size_t i = 0; i < specs.size(); ++i)
    if (specs[i] == spec) return i;
  throw std::logic_error("self-play finished a game of " + describe(spec) + ", which is none of the run's");
}

// The thread's searches: one cache (selfplay.cache_entries) and one driver per size of the run
// (game.sizes), all on the thread's one evaluator (each call holds one size's positions;
// nets/net_evaluator.h), stepped by a MixedDriver as the sizes' weights say.
struct SizeSearches {
  std::vector<std::unique_ptr<CachingEvaluator>> caches;
  std::unique_ptr<MixedDriver> driver;
};
SizeSearches size_searches(const TrainConfig& config, const std::vector<GameSpec>& specs, Evaluator& evaluator,
                           uint64_t seed) {
  SizeSearches out;
  std::vector<DriverOptions> options;
  std::vector<std::vector<Evaluator*>> evaluators;
  for (size_t i = 0; i < specs.size(); ++i) {
    if (config.selfplay.cache_entries > 0) {
      const auto probe = new_game(specs[i]);
      out.caches.push_back(std::make_unique<CachingEvaluator>(&evaluator, config.selfplay.cache_entries,
                                                              probe->num_planes() * probe->size() * probe->size(),
                                                              probe->num_actions()));
    }
    options.push_back(config.driver_options(seed + 0x632BE59BD9B4E019ULL * i));
    options.back().spec = specs[i];
    evaluators.push_back({out.caches.empty() ? &evaluator : static_cast<Evaluator*>(out.caches.back().get())});
  }
  out.driver = std::make_unique<MixedDriver>(options, evaluators, config.game_weights());
  return out;
}

// The thread's finished games on their way to shards: one stream per size (its own writer
// name), written every selfplay.games_per_shard games.
class ShardStreams {
 public:
  ShardStreams(const std::vector<GameSpec>& specs, const std::string& dir, const std::string& writer)
      : specs_(specs), dir_(dir), streams_(specs.size()) {
    for (size_t i = 0; i < specs.size(); ++i)
      streams_[i].writer = specs.size() == 1 ? writer : fmt::format("{}n{}", writer, specs[i].size);
  }
  // Counts a finished game in `control` (games, moves, positions played) and keeps it.
  void add(GameRecord&& game, RunControl& control) {
    control.games += 1;
    control.moves += static_cast<int64_t>(game.moves.size());
    Stream& s = streams_[spec_index(specs_, game.spec)];
    const int64_t positions = trainable_positions(game);
    s.positions_pending += positions;
    control.positions_played += positions;
    s.pending.push_back(std::move(game));
  }
  // Writes the streams holding at least `games` games (1: every one that holds any).
  void flush(int games, RunControl& control) {
    for (auto& s : streams_) {
      if (s.pending.empty() || static_cast<int>(s.pending.size()) < games) continue;
      write_shard(new_shard_path(dir_, s.writer, s.shards++), s.pending);
      control.positions_written += s.positions_pending;
      s.pending.clear();
      s.positions_pending = 0;
    }
  }

 private:
  struct Stream {
    std::string writer;
    std::vector<GameRecord> pending;
    int64_t shards = 0, positions_pending = 0;
  };
  const std::vector<GameSpec>& specs_;
  const std::string dir_;
  std::vector<Stream> streams_;
};

// What the thread adds to the run's counters (evaluations, network time, cache lookups and
// hits): the growth of its evaluator's and caches' totals since the last report.
class CounterReport {
 public:
  void report(const NetworkEvaluator& evaluator, const std::vector<std::unique_ptr<CachingEvaluator>>& caches,
              RunControl& control) {
    control.evaluations += evaluator.positions_evaluated() - evals_;
    evals_ = evaluator.positions_evaluated();
    control.network_micros += static_cast<int64_t>((evaluator.seconds_in_network() - net_seconds_) * 1e6);
    net_seconds_ = evaluator.seconds_in_network();
    if (caches.empty()) return;
    int64_t lookups = 0, hits = 0;
    for (const auto& c : caches) {
      lookups += c->lookups();
      hits += c->hits();
    }
    control.cache_lookups += lookups - lookups_;
    control.cache_hits += hits - hits_;
    lookups_ = lookups;
    hits_ = hits;
  }

 private:
  int64_t evals_ = 0, lookups_ = 0, hits_ = 0;
  double net_seconds_ = 0;
};

}  // namespace

void run_selfplay_worker(const TrainConfig& config, const std::string& run_dir, const std::string& writer,
                         uint64_t seed, RunControl& control, EvaluationServer* server) {
  try {
    set_torch_threads(config.selfplay.inference_threads);
    if (config.selfplay.nice > 0 && !lower_this_thread_priority(config.selfplay.nice))
      std::fprintf(stderr, "warning: selfplay.nice %d was not applied: %s\n", config.selfplay.nice, std::strerror(errno));
    while (!control.stop && !control.model.get()) std::this_thread::sleep_for(kWaitPoll);
    if (control.stop) return;
    int64_t model_version = control.model.version();
    // The evaluator is the thread's own network, or its client of the shared server.
    const std::unique_ptr<NetworkEvaluator> evaluator = thread_evaluator(server, control.model.get());
    const auto specs = config.game_specs();
    SizeSearches searches = size_searches(config, specs, *evaluator, seed);
    MixedDriver& driver = *searches.driver;
    driver.set_simulations(config.simulations_at(inference_model_step(*control.model.get())));
    ShardStreams shards(specs, run_dir + "/selfplay", writer);
    CounterReport counters;
    while (!control.stop) {
      if (config.run.max_games > 0 && control.games.load() >= config.run.max_games) {
        control.selfplay_done = true;
        break;
      }
      if (selfplay_should_wait(config, control)) {
        std::this_thread::sleep_for(kThrottlePoll);
        continue;
      }
      if (control.model.version() != model_version) {
        model_version = control.model.version();
        evaluator->set_model(control.model.get());
        for (auto& c : searches.caches) c->clear();
        driver.set_simulations(config.simulations_at(inference_model_step(*control.model.get())));
      }
      driver.step();
      for (auto& g : driver.take_finished()) shards.add(std::move(g), control);
      shards.flush(config.selfplay.games_per_shard, control);
      counters.report(*evaluator, searches.caches, control);
    }
    // Games still in flight are dropped: a finished shard is worth more than waiting.
    shards.flush(1, control);
  } catch (const std::exception& e) {
    control.fail("self-play " + writer + ": " + e.what());
  }
}

}  // namespace quax
