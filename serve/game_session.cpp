#include "serve/game_session.h"

#include "env/notation.h"

namespace quax {

GameSession::GameSession(std::string id, const GameSpec& spec, std::string opponent,
                         std::optional<Player> engine_seat, std::unique_ptr<Agent> engine)
    : id_(std::move(id)), spec_(spec), opponent_(std::move(opponent)), engine_seat_(engine_seat),
      engine_(std::move(engine)), state_(new_game(spec)) {}

std::string GameSession::play(int action) {
  if (std::string why = state_->why_illegal(action); !why.empty()) return why;
  history_.resize(ply_);
  state_->apply(action);
  history_.push_back(action);
  ++ply_;
  if (engine_) engine_->reset();  // the position changed under it
  return "";
}

std::string GameSession::load_record(const std::string& record) {
  ParsedRecord parsed;
  std::string error;
  if (!parse_record(record, &parsed, &error)) return error;
  std::vector<int> actions;
  auto state = replay_record(spec_, parsed, &error, &actions);
  if (!state) return error;
  state_ = std::move(state);
  history_ = std::move(actions);
  ply_ = static_cast<int>(history_.size());
  return "";
}

bool GameSession::engine_to_move() const {
  return engine_ && engine_seat_ && !state_->is_over() && state_->to_move() == *engine_seat_;
}

std::string GameSession::engine_move() {
  if (!engine_to_move()) return engine_ ? "it is not the engine's turn" : "this game has no engine";
  history_.resize(ply_);
  while (engine_to_move()) {
    const int action = engine_->choose_action(*state_);
    state_->apply(action);
    history_.push_back(action);
    ++ply_;
  }
  engine_->reset();  // frees its search tree: a game waiting for the human holds none
  return "";
}

void GameSession::replay_to(int ply) {
  state_ = new_game(spec_);
  for (int i = 0; i < ply; ++i) state_->apply(history_[i]);
  ply_ = ply;
  if (engine_) engine_->reset();
}

std::string GameSession::go_to(int ply) {
  if (ply < 0 || ply > static_cast<int>(history_.size()))
    return "ply " + std::to_string(ply) + " is out of range 0.." + std::to_string(history_.size());
  replay_to(ply);
  return "";
}

void GameSession::undo() {
  if (ply_ == 0) return;
  int ply = ply_ - 1;
  // Past the engine's plies, so that the human is to move again.
  while (ply > 0 && engine_seat_) {
    auto before = new_game(spec_);
    for (int i = 0; i < ply; ++i) before->apply(history_[i]);
    if (before->to_move() != *engine_seat_) break;
    --ply;
  }
  replay_to(ply);
}

}  // namespace quax
