// What the game classes of env/ hold the same way, written once. A game class derives from
// BoardGame<Itself> (or TurnTakingGame<Itself> when it keeps its own turn) and declares its
// layout as constants, which answer the interface's questions about sizes:
//   static constexpr int kSpatialPlanes, kExtraActions, kNumPlanes;
// The rest of GameState stays the class's own: its rules, notation and network view.
#pragma once

#include <memory>

#include "env/game_state.h"

namespace quax {

template <class Game>
class BoardGame : public GameState {
 public:
  const GameSpec& spec() const final { return spec_; }
  // A copy through the class's own copy constructor (its tables are shared, its state copied).
  std::unique_ptr<GameState> clone() const final { return std::make_unique<Game>(static_cast<const Game&>(*this)); }

  int spatial_planes() const final { return Game::kSpatialPlanes; }
  int extra_actions() const final { return Game::kExtraActions; }
  int num_planes() const final { return Game::kNumPlanes; }

 protected:
  explicit BoardGame(const GameSpec& spec) : spec_(spec), n_(spec.size), nn_(spec.size * spec.size) {}

  GameSpec spec_;
  int n_ = 0, nn_ = 0;  // the board's side and its cells (the spatial action plane)
};

// A game class that keeps the turn itself: whose move it is, the outcome, the plies played.
// (QuikQuax reads its turn off the board it wraps, so it derives from BoardGame alone.)
template <class Game>
class TurnTakingGame : public BoardGame<Game> {
 public:
  Player to_move() const final { return outcome_ == Outcome::kOngoing ? to_move_ : Player::kNone; }
  Outcome outcome() const final { return outcome_; }
  int move_number() const final { return ply_; }

 protected:
  using BoardGame<Game>::BoardGame;
  // For copy_from: the turn of another state of the same class.
  void copy_turn_from(const TurnTakingGame& other) {
    to_move_ = other.to_move_;
    outcome_ = other.outcome_;
    ply_ = other.ply_;
  }

  Player to_move_ = Player::kBlack;  // the player to act while the game is on
  Outcome outcome_ = Outcome::kOngoing;
  int ply_ = 0;
};

}  // namespace quax
