#include "distributed/learner_link.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <thread>

#include "core/bounded_json.h"
#include "core/atomic_file.h"
#include "core/bounded_file.h"
#include "core/steady_time.h"
#include "env/rng.h"
#include "train/progress_text.h"
#include "train/run_files.h"
#include "train/shard.h"

namespace quax {
namespace {

// The link's poll: messages wait at most this long, far below any step of the run.
constexpr std::chrono::milliseconds kPoll{10};
// Between heartbeats to the actors: they take the learner for dead after the peer timeout.
constexpr double kHeartbeatSeconds = 1.0;

double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void warn(const std::string& line) {
  std::fprintf(stderr, "warning: %s\n", line.c_str());
  std::fflush(stderr);
}

// "shard-<13 digits>-<writer>-<counter>.qxs" -> writer and counter (is_shard_name holds).
std::pair<std::string, int64_t> shard_writer_and_counter(const std::string& name) {
  const size_t writer_start = 6 + 13 + 1;
  const size_t counter_start = name.rfind('-') + 1;
  return {name.substr(writer_start, counter_start - 1 - writer_start),
          std::stoll(name.substr(counter_start, name.size() - 4 - counter_start))};
}

}  // namespace

LearnerLink::LearnerLink(MpiChannel& channel, const TrainConfig& config, int actors, double peer_timeout_s)
    : channel_(channel), config_(config), peer_timeout_s_(peer_timeout_s), shard_dir_(config.run.dir + "/selfplay") {
  for (int r = 1; r <= actors; ++r) {
    Actor a;
    a.rank = r;
    actors_.push_back(a);
  }
  greeter_ = std::thread([this] {
    try {
      send_configs();
      auto last_heartbeat = Clock::now();
      while (greeting_) {
        if (seconds_between(last_heartbeat, Clock::now()) >= kHeartbeatSeconds) {
          send_heartbeats();
          last_heartbeat = Clock::now();
        }
        std::this_thread::sleep_for(kPoll);
      }
    } catch (const std::exception& e) {
      // MPI refused a send: the run's own calls meet the same fault and end it.
      warn(fmt::format("the actors could not be greeted: {}", e.what()));
    }
  });
}

LearnerLink::~LearnerLink() { stop_greeting(); }

void LearnerLink::stop_greeting() {
  greeting_ = false;
  if (greeter_.joinable()) greeter_.join();
}

TrainConfig LearnerLink::actor_config(const TrainConfig& run_config, int rank, uint64_t invocation) {
  TrainConfig c = run_config;
  c.run.seed = derive_seed(derive_seed(run_config.run.seed, invocation), 0xAC7000ULL + static_cast<uint64_t>(rank));
  c.run.max_steps = 0;
  c.run.max_minutes = 0;
  c.run.max_games = 0;
  c.run.snapshot_minutes = 0;
  c.gating.games = 0;
  return c;
}

LearnerLink::Actor* LearnerLink::actor_of(int rank) {
  return rank >= 1 && rank <= static_cast<int>(actors_.size()) ? &actors_[rank - 1] : nullptr;
}

void LearnerLink::send_configs() {
  const uint64_t invocation = list_shards(shard_dir_).size();
  for (auto& a : actors_) channel_.send(a.rank, MessageTag::kConfig, dump_config(actor_config(config_, a.rank, invocation)));
}

void LearnerLink::send_heartbeats() {
  for (auto& a : actors_)
    if (a.status == Status::kPlaying) channel_.send(a.rank, MessageTag::kHeartbeat, "");
}

void LearnerLink::run(RunControl& control, MetricsFile& metrics) {
  stop_greeting();
  metrics_ = &metrics;
  // Silence counts from now: what the actors sent while the learner started is read below.
  for (auto& a : actors_) a.last_heard = Clock::now();
  auto last_heartbeat = Clock::now();
  int64_t model_version_seen = -1;
  bool model_wanted = false;
  while (!control.stop) {
    while (auto m = channel_.receive()) handle(*m, &control);
    {
      std::lock_guard<std::mutex> lock(mu_);
      learner_step_ = control.step.load();
    }
    if (control.model.version() != model_version_seen) {
      model_version_seen = control.model.version();
      model_wanted = true;
    }
    if (model_wanted) {
      const auto models = list_models(config_.run.dir);
      // A file pruned between listing and reading is tried again on the next poll.
      if (!models.empty() && models.back().step != model_step_) {
        try {
          model_bytes_ = std::to_string(models.back().step) + "\n" + read_regular_file(models.back().path, kModelFileLimit, "model file");
          model_step_ = models.back().step;
          model_wanted = false;
        } catch (const std::exception&) {
        }
      } else if (!models.empty()) {
        model_wanted = false;
      }
    }
    send_newest_model();
    const auto now = Clock::now();
    if (seconds_between(last_heartbeat, now) >= kHeartbeatSeconds) {
      send_heartbeats();
      last_heartbeat = now;
    }
    int64_t games = 0;
    int playing = 0;
    for (auto& a : actors_) {
      if (a.status == Status::kPlaying && seconds_between(a.last_heard, now) > peer_timeout_s_)
        lose(a, fmt::format("silent for {:.0f} s", peer_timeout_s_));
      if (a.status == Status::kPlaying) ++playing;
      if (a.stats.is_object()) games += a.stats.value("games", int64_t{0});
    }
    if (config_.run.max_games > 0 && games >= config_.run.max_games) {
      control.selfplay_done = true;
      stop_actors();
    }
    if (playing == 0 && !stop_sent_ && control.games.load() == 0) {
      control.fail(fmt::format("every actor ({} of them) has stopped; resume with --resume", actors_.size()));
      break;
    }
    std::this_thread::sleep_for(kPoll);
  }
  stop_actors();
}

void LearnerLink::handle(const Message& m, RunControl* control) {
  Actor* a = actor_of(m.source);
  if (!a) {
    warn(fmt::format("a message from rank {}, which is no actor of this run, was ignored", m.source));
    return;
  }
  a->last_heard = Clock::now();
  if (a->status == Status::kLost) {
    // Its link healed after the peer timeout: it is out of the run, and is told so once, so
    // that it ends cleanly rather than giving up later with this learner's messages in flight.
    if (!a->told_to_stop) channel_.send(a->rank, MessageTag::kStop, "");
    a->told_to_stop = true;
    return;
  }
  switch (m.tag) {
    case MessageTag::kShard:
      write_shard_of(*a, m.bytes);
      break;
    case MessageTag::kStats:
      record_stats(*a, m.bytes, control);
      break;
    case MessageTag::kBye: {
      std::string error;
      try {
        error = parse_json(m.bytes, "goodbye").value("error", "");
      } catch (const std::exception&) {
        error = "an unreadable goodbye";
      }
      if (!error.empty()) {
        lose(*a, error);
      } else {
        std::lock_guard<std::mutex> lock(mu_);
        if (a->status == Status::kPlaying) a->status = Status::kFinished;
      }
      break;
    }
    default:
      warn(fmt::format("a message of unknown kind {} from rank {} was ignored", static_cast<int>(m.tag), m.source));
  }
}

void LearnerLink::write_shard_of(Actor& actor, const std::string& bytes) {
  const size_t newline = bytes.find('\n');
  const std::string name = bytes.substr(0, std::min(newline, bytes.size()));
  if (newline == std::string::npos || !is_shard_name(name)) {
    warn(fmt::format("rank {} sent a shard without a valid name; it was dropped", actor.rank));
    return;
  }
  // The rank joins the writer: names stay unique across machines whose pids coincide.
  const auto [writer, counter] = shard_writer_and_counter(name);
  const std::string path = new_shard_path(shard_dir_, fmt::format("r{}{}", actor.rank, writer), counter);
  try {
    write_file_atomically(path, bytes.substr(newline + 1));
    std::lock_guard<std::mutex> lock(mu_);
    ++actor.shards;
  } catch (const std::exception& e) {
    // The run goes on without these games (a full disk may clear); the learner is not stopped.
    warn(fmt::format("a shard of rank {} was dropped: {}", actor.rank, e.what()));
    if (metrics_) metrics_->write({{"kind", "shard_dropped"}, {"rank", actor.rank}, {"reason", e.what()}});
  }
}

void LearnerLink::record_stats(Actor& actor, const std::string& bytes, RunControl* control) {
  nlohmann::json stats;
  try {
    stats = parse_json(bytes, "counters");
  } catch (const std::exception&) {
    warn(fmt::format("rank {} sent unreadable counters; they were ignored", actor.rank));
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  const int64_t step = control ? control->step.load() : learner_step_;
  // One metrics line per actor per progress period: rates over that period.
  if (!stats.is_object()) {
    warn(fmt::format("rank {} sent counters that are no JSON object; they were ignored", actor.rank));
    return;
  }
  const bool first = !actor.stats.is_object();
  const double dt = first ? 0 : stats.value("time_s", 0.0) - actor.stats.value("time_s", 0.0);
  if (!first && dt < config_.run.progress_seconds && !stats.value("final", false)) {
    actor.stats["model_step"] = stats.value("model_step", int64_t{-1});  // lag stays current
    return;
  }
  nlohmann::json j = {{"kind", "actor"},
                      {"rank", actor.rank},
                      {"games", stats.value("games", int64_t{0})},
                      {"positions", stats.value("positions", int64_t{0})},
                      {"shards", actor.shards},
                      {"model_step", stats.value("model_step", int64_t{-1})}};
  if (stats.value("model_step", int64_t{-1}) >= 0) j["lag_steps"] = std::max<int64_t>(0, step - j["model_step"].get<int64_t>());
  if (dt > 0) {
    for (const char* key : {"games", "positions", "evaluations"})
      j[std::string(key) + "_per_s"] = (stats.value(key, int64_t{0}) - actor.stats.value(key, int64_t{0})) / dt;
  }
  for (const char* key : {"host", "pid"})
    if (stats.contains(key)) j[key] = stats[key];
  actor.stats = stats;
  actor.stats["positions_per_s"] = j.value("positions_per_s", 0.0);
  if (metrics_) metrics_->write(j);
}

void LearnerLink::lose(Actor& actor, const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    actor.status = Status::kLost;
  }
  channel_.abandon(actor.rank);
  warn(fmt::format("actor rank {} is left out: {}", actor.rank, why));
  if (metrics_)
    metrics_->write({{"kind", "actor_lost"}, {"rank", actor.rank}, {"reason", why}});
}

void LearnerLink::send_newest_model() {
  if (model_step_ < 0) return;
  for (auto& a : actors_) {
    // One model in flight per actor: a slow link gets the newest when it is free again.
    if (a.status != Status::kPlaying || a.model_step_sent >= model_step_ || channel_.pending_sends(a.rank) > 0)
      continue;
    channel_.send(a.rank, MessageTag::kModel, model_bytes_);
    a.model_step_sent = model_step_;
  }
}

void LearnerLink::stop_actors() {
  if (stop_sent_) return;
  for (auto& a : actors_)
    if (a.status == Status::kPlaying) channel_.send(a.rank, MessageTag::kStop, "");
  stop_sent_ = true;
}

void LearnerLink::finish(const std::string& error) {
  if (finished_) return;
  finished_ = true;
  stop_greeting();
  stop_actors();
  // The actors' last shards: written, so that a resume trains on them.
  const auto deadline = seconds_from_now(peer_timeout_s_);
  auto still_playing = [&] {
    return std::any_of(actors_.begin(), actors_.end(), [](const Actor& a) { return a.status == Status::kPlaying; });
  };
  while (still_playing() && Clock::now() < deadline) {
    while (auto m = channel_.receive()) handle(*m, nullptr);
    std::this_thread::sleep_for(kPoll);
  }
  for (auto& a : actors_)
    if (a.status == Status::kPlaying) lose(a, "no goodbye after the stop");
}

bool LearnerLink::all_actors_well() const {
  std::lock_guard<std::mutex> lock(mu_);
  return std::none_of(actors_.begin(), actors_.end(), [](const Actor& a) { return a.status == Status::kLost; });
}

std::string LearnerLink::progress_text() {
  std::lock_guard<std::mutex> lock(mu_);
  int playing = 0;
  int64_t games = 0, positions = 0, lag = 0;
  double rate = 0;
  for (const auto& a : actors_) {
    if (a.status == Status::kPlaying) ++playing;
    if (!a.stats.is_object()) continue;
    games += a.stats.value("games", int64_t{0});
    positions += a.stats.value("positions", int64_t{0});
    if (a.status != Status::kPlaying) continue;
    rate += a.stats.value("positions_per_s", 0.0);
    const int64_t model_step = a.stats.value("model_step", int64_t{-1});
    if (model_step >= 0) lag = std::max(lag, learner_step_ - model_step);
  }
  return fmt::format(" | actors {}/{}: games {} positions {} ({}/s) lag {}", playing, actors_.size(), games,
                     short_count(static_cast<double>(positions)), short_count(rate), lag);
}

}  // namespace quax
