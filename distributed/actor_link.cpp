#include "distributed/actor_link.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/atomic_file.h"
#include "core/bounded_file.h"
#include "core/host_name.h"
#include "nets/net_evaluator.h"
#include "train/model_follower.h"
#include "train/run_files.h"
#include "train/shard.h"

namespace quax {
namespace {

namespace fs = std::filesystem;

constexpr std::chrono::milliseconds kPoll{10};
// Between counters sent to the learner (they are the actor's heartbeat too).
constexpr double kStatsSeconds = 2.0;
// Shard sends in flight before the actor waits for the link.
constexpr int kMaxPendingShards = 8;

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

ActorLink::ActorLink(MpiChannel& channel, double peer_timeout_s)
    : channel_(channel), peer_timeout_s_(peer_timeout_s), start_(Clock::now()), last_heard_(Clock::now()) {}

std::optional<TrainConfig> ActorLink::receive_config(const std::string& local_dir) {
  last_heard_ = Clock::now();
  while (seconds_since(last_heard_) <= peer_timeout_s_) {
    const auto m = channel_.receive();
    if (!m) {
      std::this_thread::sleep_for(kPoll);
      continue;
    }
    if (m->tag == MessageTag::kStop) return std::nullopt;
    if (m->tag != MessageTag::kConfig)
      throw std::runtime_error(fmt::format("the learner's first message is of kind {}, not a configuration",
                                           static_cast<int>(m->tag)));
    config_ = parse_config(m->bytes, "the learner's configuration");
    local_dir_ = local_dir;
    config_.run.dir = local_dir;
    fs::create_directories(local_dir + "/selfplay");
    last_heard_ = Clock::now();
    return config_;
  }
  learner_gone_ = true;
  throw std::runtime_error(fmt::format("no configuration from the learner (rank 0) in {:.0f} s", peer_timeout_s_));
}

void ActorLink::run(RunControl& control, MetricsFile& metrics) {
  control_ = &control;
  std::thread loader([this, &control] { load_models(control); });
  // The loader ends however this thread leaves (control.stop is already set unless it throws).
  auto end_loader = [&] {
    control.stop = true;
    model_arrived_.notify_all();
    loader.join();
  };
  try {
    exchange_messages(control);
  } catch (...) {
    end_loader();
    throw;
  }
  end_loader();
}

void ActorLink::exchange_messages(RunControl& control) {
  send_stats(/*final=*/false);  // the learner hears of the actor at once, before its first game
  auto last_stats = Clock::now();
  while (!control.stop) {
    while (auto m = channel_.receive()) {
      last_heard_ = Clock::now();
      if (m->tag == MessageTag::kModel) {
        take_model(m->bytes);
      } else if (m->tag == MessageTag::kStop) {
        control.stop = true;
      } else if (m->tag != MessageTag::kHeartbeat) {
        std::fprintf(stderr, "warning: a message of kind %d from rank %d was ignored\n", static_cast<int>(m->tag),
                     m->source);
      }
    }
    send_shards(/*all=*/false);
    if (seconds_since(last_stats) >= kStatsSeconds) {
      send_stats(/*final=*/false);
      last_stats = Clock::now();
    }
    if (seconds_since(last_heard_) > kActorPatience * peer_timeout_s_) {
      learner_gone_ = true;
      control.fail(fmt::format("no word from the learner (rank 0) for {:.0f} s", kActorPatience * peer_timeout_s_));
      return;
    }
    std::this_thread::sleep_for(kPoll);
  }
}

void ActorLink::take_model(const std::string& bytes) {
  const size_t newline = bytes.find('\n');
  int64_t step = -1;
  try {
    step = std::stoll(bytes.substr(0, newline));
  } catch (const std::exception&) {
  }
  if (newline == std::string::npos || step < 0) {
    std::fprintf(stderr, "warning: a model from the learner without a step was ignored\n");
    return;
  }
  {
    std::lock_guard<std::mutex> lock(model_mu_);
    const std::string path = model_path(local_dir_, step);
    write_file_atomically(path, bytes.substr(newline + 1));
    model_to_load_ = path;
  }
  model_arrived_.notify_one();
}

void ActorLink::load_models(RunControl& control) {
  ModelFollower follower(config_.game, config_.selfplay.precision, config_.selfplay.device);
  while (!control.stop) {
    std::string path;
    {
      std::unique_lock<std::mutex> lock(model_mu_);
      model_arrived_.wait_for(lock, kWaitPoll, [&] { return control.stop || !model_to_load_.empty(); });
      path.swap(model_to_load_);
    }
    if (path.empty()) continue;
    follower.offer(path, control.model);
    // The directory is a mailbox, not a history: only a model still waiting to load stays.
    std::lock_guard<std::mutex> lock(model_mu_);
    std::error_code ec;
    for (const auto& m : list_models(local_dir_))
      if (m.path != model_to_load_) fs::remove(m.path, ec);
  }
}

void ActorLink::send_shards(bool all) {
  for (const auto& path : list_shards(local_dir_ + "/selfplay")) {
    if (!all && channel_.pending_sends(0) >= kMaxPendingShards) return;
    channel_.send(0, MessageTag::kShard, fs::path(path).filename().string() + "\n" + read_regular_file(path, kShardFileLimit, "shard"));
    fs::remove(path);
  }
}

void ActorLink::send_stats(bool final) {
  if (!control_) return;
  const auto model = control_->model.get();
  nlohmann::json j = {{"games", control_->games.load()},
                      {"positions", control_->positions_written.load()},
                      {"evaluations", control_->evaluations.load()},
                      {"model_step", model ? inference_model_step(*model) : int64_t{-1}},
                      {"time_s", seconds_since(start_)},
                      {"host", host_name_token()},
                      {"pid", static_cast<int64_t>(::getpid())},
                      {"final", final}};
  channel_.send(0, MessageTag::kStats, j.dump());
}

void ActorLink::finish(const std::string& error) {
  if (finished_) return;
  finished_ = true;
  if (!learner_gone_) {
    try {
      send_shards(/*all=*/true);
      send_stats(/*final=*/true);
      channel_.send(0, MessageTag::kBye, nlohmann::json{{"error", error}}.dump());
      const auto start = Clock::now();
      while (channel_.pending_sends(0) > 0 && seconds_since(start) < peer_timeout_s_) std::this_thread::sleep_for(kPoll);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "warning: the last games could not be sent: %s\n", e.what());
    }
  }
  std::error_code ec;
  if (!local_dir_.empty()) fs::remove_all(local_dir_, ec);
}

}  // namespace quax
