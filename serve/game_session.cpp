#include "serve/game_session.h"

#include "env/notation.h"

namespace quax {

GameSession::GameSession(std::string id, const GameSpec& spec, std::string opponent,
                         std::optional<Player> engine_seat, std::unique_ptr<Agent> engine, int engine_simulations)
    : id_(std::move(id)), spec_(spec), opponent_(std::move(opponent)), engine_seat_(engine_seat),
      engine_(std::move(engine)), engine_simulations_(engine_simulations), state_(new_game(spec)) {}

std::string GameSession::play(int action) {
  if (std::string why = state_->why_illegal(action); !why.empty()) return why;
  history_.resize(ply_);
  state_->apply(action);
  history_.push_back(action);
  ++ply_;
  ++changes_;
  reset_engine();  // the position changed under it
  return "";
}

void GameSession::reset_engine() {
  if (engine_ && !engine_searching_) engine_->reset();
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
  ++changes_;
  reset_engine();
  return "";
}

bool GameSession::engine_to_move() const {
  return engine_ && engine_seat_ && !state_->is_over() && state_->to_move() == *engine_seat_;
}

std::string GameSession::engine_move() {
  std::unique_ptr<GameState> position;
  uint64_t changes = 0;
  {
    auto lock = this->lock();
    if (engine_searching_) return "the engine is already searching this position";
    if (!engine_to_move()) return engine_ ? "it is not the engine's turn" : "this game has no engine";
    position = state_->clone();
    changes = changes_;
    engine_searching_ = true;
  }
  // Ends the search whatever happens: the engine's tree freed (a game waiting for the human
  // holds none), the game open to the next engine move.
  struct EndSearch {
    GameSession* game;
    ~EndSearch() {
      game->engine_->reset();
      auto lock = game->lock();
      game->engine_searching_ = false;
    }
  } end_search{this};
  std::vector<int> actions;
  while (!position->is_over() && position->to_move() == *engine_seat_) {
    const int action = engine_->choose_action(*position);
    position->apply(action);
    actions.push_back(action);
  }
  auto lock = this->lock();
  if (changes_ != changes) return "the game changed while the engine searched: its move was not played";
  history_.resize(ply_);
  for (int action : actions) {
    state_->apply(action);
    history_.push_back(action);
    ++ply_;
  }
  ++changes_;
  return "";
}

void GameSession::replay_to(int ply) {
  state_ = new_game(spec_);
  for (int i = 0; i < ply; ++i) state_->apply(history_[i]);
  ply_ = ply;
  ++changes_;
  reset_engine();
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
