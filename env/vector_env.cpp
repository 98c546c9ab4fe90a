#include "env/vector_env.h"

#include <cassert>

namespace quax {

VectorEnv::VectorEnv(const GameSpec& spec, int batch, bool auto_reset)
    : spec_(spec), auto_reset_(auto_reset), start_(new_game(spec)) {
  assert(check_spec(spec).empty() && batch >= 1);
  games_.reserve(batch);
  for (int i = 0; i < batch; ++i) games_.push_back(start_->clone());
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
