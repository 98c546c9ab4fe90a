#include "env/vector_env.h"

#include <algorithm>
#include <cassert>
#include <cstring>

#include "env/hex_game.h"

namespace quax {

namespace {
// The number of set bytes among 8 bytes that are each 0 or 1.
inline int ones_in(uint64_t w) { return static_cast<int>((w * 0x0101010101010101ULL) >> 56); }
}  // namespace

int sample_legal(const uint8_t* mask, int count, Rng& rng) {
  int total = 0, i = 0;
  for (; i + 8 <= count; i += 8) {
    uint64_t w;
    std::memcpy(&w, mask + i, 8);
    total += ones_in(w);
  }
  for (; i < count; ++i) total += mask[i];
  if (total == 0) return -1;
  int k = static_cast<int>(rng.below(static_cast<uint32_t>(total)));
  for (i = 0; i + 8 <= count; i += 8) {
    uint64_t w;
    std::memcpy(&w, mask + i, 8);
    const int c = ones_in(w);
    if (k >= c) {
      k -= c;
      continue;
    }
    break;  // the chosen one is among these 8
  }
  for (; i < count; ++i)
    if (mask[i] && k-- == 0) return i;
  return -1;  // not reached: k < total
}

VectorEnv::VectorEnv(const GameSpec& spec, int batch, bool auto_reset)
    : spec_(spec), auto_reset_(auto_reset), start_(new_game(spec)) {
  assert(check_spec(spec).empty() && batch >= 1);
  games_.reserve(batch);
  for (int i = 0; i < batch; ++i) games_.push_back(start_->clone());
}

std::uint64_t VectorEnv::memory_bound(const GameSpec& spec, std::int64_t batch) {
  const auto start = new_game(spec);
  const std::uint64_t cells = static_cast<std::uint64_t>(spec.size) * spec.size;
  const std::uint64_t per_game = sizeof(float) * start->num_planes() * cells +
                                 static_cast<std::uint64_t>(start->num_actions()) + 8 * 1024 + 32 * cells;
  return per_game * static_cast<std::uint64_t>(std::max<std::int64_t>(batch, 0));
}

float VectorEnv::max_observation(const GameSpec& spec) {
  // Every other variant's planes hold 0 or 1, or a fraction of a turn's quota (quikquax's
  // stones left / 4, torax's blocks placed / N); the hex family's won-games planes add up.
  return is_hex_variant(spec.variant) ? HexGame::max_plane_value(spec) : 1.0f;
}

void VectorEnv::reset_all() {
  for (auto& g : games_) g->copy_from(*start_);
}

void VectorEnv::reset(int i) { games_[i]->copy_from(*start_); }

void VectorEnv::step_one(int i, int board_action, StepResult* result) {
  GameState& g = *games_[i];
  StepResult r;
  if (!g.is_over()) {
    assert(g.is_legal(board_action));
    g.apply(board_action);
    if (g.is_over()) {
      r.finished = true;
      r.outcome = g.outcome();
      r.length = g.move_number();
      if (auto_reset_) g.copy_from(*start_);
    }
  }
  if (result) *result = r;
}

void VectorEnv::step(const int* net_actions, StepResult* results) {
  for (int i = 0; i < batch_size(); ++i) {
    GameState& g = *games_[i];
    const int board_action = g.is_over() ? -1 : g.from_net_action(net_actions[i]);
    step_one(i, board_action, results ? results + i : nullptr);
  }
}

void VectorEnv::step_board(const int* board_actions, StepResult* results) {
  for (int i = 0; i < batch_size(); ++i) step_one(i, board_actions[i], results ? results + i : nullptr);
}

void VectorEnv::encode(float* planes) const {
  const size_t stride = static_cast<size_t>(planes_per_game());
  for (int i = 0; i < batch_size(); ++i) games_[i]->encode(planes + i * stride);
}

void VectorEnv::legal_masks(uint8_t* masks) const {
  const size_t stride = static_cast<size_t>(num_actions());
  for (int i = 0; i < batch_size(); ++i) games_[i]->net_legal_mask(masks + i * stride);
}

}  // namespace quax
