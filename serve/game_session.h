// One game of the browser board: its history (every action played, kept when the cursor moves
// back, so that undo and replay can step forward again), the cursor, and the engine that
// plays one seat. Not thread-safe by itself: the server holds lock() around every use, but for
// engine_move(), which takes it itself and does not hold it while the engine searches (a timed
// move may take a minute: readers of the game, each holding an HTTP worker, would wait as long).
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
  // a replay). `opponent` is the engine's description, for the view; `engine_simulations` the
  // most simulations one of its moves may run (the memory a move reserves is sized by it).
  GameSession(std::string id, const GameSpec& spec, std::string opponent, std::optional<Player> engine_seat,
              std::unique_ptr<Agent> engine, int engine_simulations = 0);

  std::unique_lock<std::mutex> lock() { return std::unique_lock<std::mutex>(mu_); }

  const std::string& id() const { return id_; }
  const GameSpec& spec() const { return spec_; }
  const std::string& opponent() const { return opponent_; }
  int engine_simulations() const { return engine_simulations_; }
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
  // Call it WITHOUT holding lock(): it copies the position under the lock, searches on the copy
  // without it, and plays the engine's actions under it again only if the game did not change
  // meanwhile (a play, an undo, a goto, a record loaded), else says so and plays nothing. One
  // engine move at a time per game: another asked for during the search is refused. An
  // exception of the engine (a model that fails) leaves the game as it was, and propagates.
  std::string engine_move();
  // Moves the cursor to `ply` (0..history().size()).
  std::string go_to(int ply);
  // Back one ply, and on past the engine's plies to the human's turn when there is an engine.
  void undo();

  bool engine_to_move() const;

 private:
  void replay_to(int ply);
  // Forgets the engine's state after a change of position, unless it is searching (it owns the
  // engine then, and resets it when its search ends).
  void reset_engine();

  std::mutex mu_;
  std::string id_;
  GameSpec spec_;
  std::string opponent_;
  std::optional<Player> engine_seat_;
  std::unique_ptr<Agent> engine_;
  int engine_simulations_ = 0;
  std::unique_ptr<GameState> state_;
  std::vector<int> history_;
  int ply_ = 0;
  uint64_t changes_ = 0;           // counts the changes of the position, to see one during a search
  bool engine_searching_ = false;  // an engine_move() owns engine_ and searches, without the lock
};

}  // namespace quax
