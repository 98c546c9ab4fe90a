#include "train/replay_windows.h"

#include <filesystem>
#include <stdexcept>

#include "train/shard.h"

namespace quax {

ReplayWindows::ReplayWindows(const std::vector<GameSpec>& specs, const std::vector<double>& weights,
                             const ReplayConfig& config, bool ownership_targets)
    : specs_(specs), weights_(weights) {
  if (specs.empty() || weights.size() != specs.size())
    throw std::invalid_argument("replay windows need one weight per game spec");
  for (const auto& spec : specs) windows_.emplace_back(spec, config, ownership_targets);
}

int64_t ReplayWindows::ingest_new(const std::string& dir) {
  if (windows_.size() == 1) return windows_[0].ingest_new(dir);
  std::vector<std::vector<std::string>> paths(windows_.size());
  for (const auto& path : list_shards(dir)) {
    const std::string name = std::filesystem::path(path).filename().string();
    auto it = window_of_shard_.find(name);
    if (it == window_of_shard_.end()) {
      size_t to = 0;
      if (const auto spec = read_shard_spec(path))
        for (size_t i = 0; i < specs_.size(); ++i)
          if (specs_[i] == *spec) to = i;
      it = window_of_shard_.emplace(name, to).first;
    }
    paths[it->second].push_back(path);
  }
  int64_t added = 0;
  for (size_t i = 0; i < windows_.size(); ++i) added += windows_[i].ingest(paths[i]);
  return added;
}

void ReplayWindows::restore(const std::string& dir, const std::vector<WindowState>& saved) {
  for (size_t i = 0; i < windows_.size(); ++i) {
    WindowState mine;
    for (const auto& s : saved)
      if (s.size == specs_[i].size) mine = s;
    windows_[i].restore(dir, mine.ingested_shards, mine.total_positions);
    if (windows_.size() > 1)
      for (const auto& name : windows_[i].ingested()) window_of_shard_[name] = i;
  }
}

std::vector<WindowState> ReplayWindows::state() const {
  std::vector<WindowState> out;
  for (size_t i = 0; i < windows_.size(); ++i)
    out.push_back(WindowState{specs_[i].size, windows_[i].ingested(), windows_[i].total_positions()});
  return out;
}

int ReplayWindows::prune_shards(const std::string& dir, int keep) {
  int deleted = 0;
  for (auto& w : windows_) deleted += w.prune_shards(dir, keep);
  return deleted;
}

int64_t ReplayWindows::total_positions() const {
  int64_t n = 0;
  for (const auto& w : windows_) n += w.total_positions();
  return n;
}

int64_t ReplayWindows::window_positions() const {
  int64_t n = 0;
  for (const auto& w : windows_) n += w.window_positions();
  return n;
}

GameStats ReplayWindows::take_game_stats() {
  GameStats sum;
  for (auto& w : windows_) sum += w.take_game_stats();
  return sum;
}

size_t ReplayWindows::sample(int batch, Rng& rng, TrainingBatch* out) const {
  size_t chosen = 0;
  if (windows_.size() > 1) {
    double total = 0;
    for (size_t i = 0; i < windows_.size(); ++i)
      if (windows_[i].window_positions() > 0) total += weights_[i];
    double u = rng.uniform() * total;
    for (size_t i = 0; i < windows_.size(); ++i) {
      if (windows_[i].window_positions() == 0) continue;
      chosen = i;
      if (u < weights_[i]) break;
      u -= weights_[i];
    }
  }
  windows_[chosen].sample(batch, rng, out);
  return chosen;
}

}  // namespace quax
