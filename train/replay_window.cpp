#include "train/replay_window.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "env/ownership.h"
#include "train/shard.h"

namespace quax {

ReplayWindow::ReplayWindow(const GameSpec& spec, const ReplayConfig& config, bool ownership_targets)
    : spec_(spec), config_(config), ownership_targets_(ownership_targets) {}

int64_t ReplayWindow::window_target(int64_t total) const {
  const double grown = config_.window_scale * std::pow(static_cast<double>(std::max<int64_t>(total, 1)),
                                                       config_.window_exponent);
  return std::clamp<int64_t>(static_cast<int64_t>(grown), config_.window_min, config_.window_max);
}

namespace {
// Shards are remembered by file name, so a run directory that was moved or copied resumes
// without reading its shards a second time.
std::string shard_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

// The board a game ended with, or nothing for a game that did not end on the board.
std::vector<CellOwnership> final_board(const GameRecord& game) {
  if (game.resigned || game.truncated) return {};
  auto s = new_game(game.spec);
  for (const auto& m : game.moves) s->apply(m.action);
  return s->final_ownership();  // empty if the moves did not finish the game
}
}  // namespace

std::optional<std::vector<GameRecord>> ReplayWindow::read_or_set_aside(const std::string& path) {
  try {
    return read_shard(path, spec_);
  } catch (const std::exception& e) {
    std::error_code ec;
    std::string fate = "skipped";
    if (std::filesystem::exists(path, ec)) {
      try {
        fate += ", moved to " + set_aside_bad_shard(path);
      } catch (const std::exception& move_error) {
        fate += "; " + std::string(move_error.what());
      }
    }
    std::fprintf(stderr, "warning: %s; %s\n", e.what(), fate.c_str());
    std::fflush(stderr);
    return std::nullopt;
  }
}

int64_t ReplayWindow::ingest_new(const std::string& dir) { return ingest(list_shards(dir)); }

int64_t ReplayWindow::ingest(const std::vector<std::string>& paths) {
  std::set<std::string> seen(ingested_.begin(), ingested_.end());
  seen.insert(rejected_.begin(), rejected_.end());
  const int64_t before = total_positions_;
  for (const auto& path : paths) {
    if (seen.count(shard_name(path))) continue;
    auto games = read_or_set_aside(path);
    if (!games) {
      rejected_.insert(shard_name(path));
      continue;
    }
    for (const auto& g : *games) total_positions_ += trainable_positions(g);
    ingested_.push_back(shard_name(path));
    add_games(std::move(*games), ingested_.size() - 1, true);
  }
  if (total_positions_ != before) evict_and_index();
  return total_positions_ - before;
}

void ReplayWindow::restore(const std::string& dir, const std::vector<std::string>& ingested,
                           int64_t total_positions) {
  games_.clear();
  game_positions_.clear();
  game_shards_.clear();
  final_boards_.clear();
  held_positions_ = 0;
  ingested_.clear();
  for (const auto& entry : ingested) ingested_.push_back(shard_name(entry));
  total_positions_ = total_positions;
  const int64_t target = window_target(total_positions_);
  // Newest shards first until the window is full, then add them oldest first.
  size_t first = ingested_.size();
  int64_t covered = 0;
  std::vector<std::pair<size_t, std::vector<GameRecord>>> loaded;
  while (first > 0 && covered < target) {
    const std::string path = dir + "/" + ingested_[first - 1];
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      // Deleted (--keep-shards of a smaller window, or by hand): the older ones are gone too.
      std::fprintf(stderr, "warning: shard '%s' is gone; the window restarts from the %zu shards after it\n",
                   path.c_str(), ingested_.size() - first);
      break;
    }
    --first;
    auto games = read_or_set_aside(path);
    if (!games) continue;
    for (const auto& g : *games) covered += trainable_positions(g);
    loaded.emplace_back(first, std::move(*games));
  }
  pruned_ = 0;
  for (auto it = loaded.rbegin(); it != loaded.rend(); ++it) add_games(std::move(it->second), it->first, false);
  evict_and_index();
}

int ReplayWindow::prune_shards(const std::string& dir, int keep) {
  if (keep <= 0) return 0;
  // Shards before the one of the window's oldest game hold none of its games.
  const size_t out_of_window = games_.empty() ? ingested_.size() : game_shards_.front();
  const size_t end = std::min(out_of_window, ingested_.size() - std::min(ingested_.size(), static_cast<size_t>(keep)));
  int deleted = 0;
  for (; pruned_ < end; ++pruned_) {
    std::error_code ec;
    if (std::filesystem::remove(dir + "/" + ingested_[pruned_], ec)) ++deleted;
  }
  return deleted;
}

void ReplayWindow::add_games(std::vector<GameRecord>&& games, size_t shard, bool count_stats) {
  for (auto& g : games) {
    if (count_stats) {
      ++stats_.games;
      stats_.plies += static_cast<int64_t>(g.moves.size());
      if (g.outcome == Outcome::kBlackWins) ++stats_.black_wins;
      else if (g.outcome == Outcome::kWhiteWins) ++stats_.white_wins;
      else ++stats_.draws;
      if (g.resigned) ++stats_.resigned;
      if (g.resign_disabled && g.would_have_resigned) {
        ++stats_.played_out_would_resign;
        if (winner_of(g.outcome) == g.would_resign_player) ++stats_.false_resignations;
      }
    }
    const int64_t n = trainable_positions(g);
    held_positions_ += n;
    game_positions_.push_back(n);
    game_shards_.push_back(shard);
    if (ownership_targets_) final_boards_.push_back(final_board(g));
    games_.push_back(std::move(g));
  }
}

void ReplayWindow::evict_and_index() {
  const int64_t target = window_target(total_positions_);
  while (!games_.empty() && held_positions_ - game_positions_.front() >= target) {
    held_positions_ -= game_positions_.front();
    game_positions_.pop_front();
    game_shards_.pop_front();
    if (ownership_targets_) final_boards_.pop_front();
    games_.pop_front();
  }
  index_.clear();
  index_.reserve(static_cast<size_t>(held_positions_));
  for (size_t gi = 0; gi < games_.size(); ++gi) {
    const auto& moves = games_[gi].moves;
    for (size_t ply = 0; ply < moves.size(); ++ply)
      if (moves[ply].full_search && !moves[ply].policy.empty())
        index_.emplace_back(static_cast<uint32_t>(gi), static_cast<uint16_t>(ply));
  }
}

void ReplayWindow::sample(int batch, Rng& rng, TrainingBatch* out) const {
  auto state = new_game(spec_);
  const int n = spec_.size, planes = state->num_planes(), actions = state->num_actions();
  const int plane_floats = planes * n * n;
  out->size = batch;
  out->planes = planes;
  out->n = n;
  out->actions = actions;
  out->inputs.assign(static_cast<size_t>(batch) * plane_floats, 0.0f);
  out->policy.assign(static_cast<size_t>(batch) * actions, 0.0f);
  out->mask.assign(static_cast<size_t>(batch) * actions, 0);
  out->value.assign(batch, 0.0f);
  const int ownership_floats = ownership_targets_ ? kOwnershipPlanes * n * n : 0;
  out->ownership.assign(static_cast<size_t>(batch) * ownership_floats, 0.0f);
  out->ownership_weight.assign(ownership_targets_ ? batch : 0, 0.0f);
  std::vector<float> enc(plane_floats), pol(actions);
  std::vector<uint8_t> net_mask(actions);
  const auto symmetries = static_cast<uint32_t>(state->num_net_symmetries());
  for (int b = 0; b < batch; ++b) {
    const auto [gi, ply] = index_[rng.below(static_cast<uint32_t>(index_.size()))];
    const GameRecord& g = games_[gi];
    const int sym = config_.symmetries ? static_cast<int>(rng.below(symmetries)) : 0;
    auto s = new_game(spec_);
    for (int i = 0; i < ply; ++i) s->apply(g.moves[i].action);
    s->encode(enc.data());
    s->net_legal_mask(net_mask.data());
    std::fill(pol.begin(), pol.end(), 0.0f);
    for (const auto& [a, p] : g.moves[ply].policy) pol[a] = p;
    const Player mover = g.moves[ply].mover;
    const Player winner = winner_of(g.outcome);
    const float result = winner == Player::kNone ? 0.0f : (winner == mover ? 1.0f : -1.0f);
    const auto w = static_cast<float>(config_.root_value_weight);
    out->value[b] = (1.0f - w) * result + w * g.moves[ply].root_value;
    s->transform_net_planes(sym, enc.data(), out->inputs.data() + static_cast<size_t>(b) * plane_floats);
    s->transform_net_policy(sym, pol.data(), out->policy.data() + static_cast<size_t>(b) * actions);
    s->transform_net_mask(sym, net_mask.data(), out->mask.data() + static_cast<size_t>(b) * actions);
    if (ownership_targets_ && !final_boards_[gi].empty()) {
      net_ownership_targets(*s, final_boards_[gi], sym, out->ownership.data() + static_cast<size_t>(b) * ownership_floats);
      out->ownership_weight[b] = 1.0f;
    }
  }
}

GameStats ReplayWindow::take_game_stats() {
  GameStats s = stats_;
  stats_ = GameStats{};
  return s;
}

}  // namespace quax
