// One game of the browser board: its history (every action played, kept when the cursor moves
// back, so that undo and replay can step forward again), the cursor, and the engine that
// plays one seat. Not thread-safe by itself: the server holds lock() around every use.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "mcts/agent.h"

namespace quax {

class GameSession {
 public:
  // `engine` plays `engine_seat`; both empty/null for a game without an engine (two humans,
  // a replay). `opponent` is the engine's description, for the view.
  GameSession(std::string id, const GameSpec& spec, std::string opponent, std::optional<Player> engine_seat,
              std::unique_ptr<Agent> engine);

  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mu_); }

  const std::string& id() const { return id_; }
  const GameSpec& spec() const { return spec_; }
  const std::string& opponent() const { return opponent_; }
  std::optional<Player> engine_seat() const { return engine_seat_; }
  const GameState& state() const { return *state_; }  // the position at the cursor
  int ply() const { return ply_; }
  const std::vector<int>& history() const { return history_; }

  // Each returns "" on success, else one line saying why nothing changed.
  // Plays a board-frame action at the cursor; the history after the cursor is dropped.
  std::string play(int action);
  // Plays a record from the start (replacing everything); the cursor ends at its end.
  std::string load_record(const std::string& record);
  // The engine plays its whole turn (every action while its seat is to move), then is reset,
  // which frees its search tree (the server's memory budget counts a tree during a move only).
  std::string engine_move();
  // Moves the cursor to `ply` (0..history().size()).
  std::string go_to(int ply);
  // Back one ply, and on past the engine's plies to the human's turn when there is an engine.
  void undo();

  bool engine_to_move() const;

 private:
  void replay_to(int ply);

  std::mutex mu_;
  std::string id_;
  GameSpec spec_;
  std::string opponent_;
  std::optional<Player> engine_seat_;
  std::unique_ptr<Agent> engine_;
  std::unique_ptr<GameState> state_;
  std::vector<int> history_;
  int ply_ = 0;
};

}  // namespace quax
