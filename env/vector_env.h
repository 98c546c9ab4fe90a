// B games of one GameSpec stepped together: what self-play and benchmarks feed the network.
//
// Frames. Actions passed to step() are in the *network frame* of each game's player to move
// (the frame of the policy the network outputs and of the masks legal_masks() writes), so a
// caller samples from masked network output and steps with the index it drew, with no
// mapping of its own. step_board() takes board-frame actions instead (notation, agents that
// work on the board); to_board_action()/to_net_action() map one game's action.
//
// Finished games. With auto_reset (the default) a game that ends in step() is reported in that
// step's StepResult and immediately restarted, so every slot always holds a live game. Without
// it the game stays finished until reset(i): its legal mask is all zero, its planes show the
// final position, and step() ignores its action (pass anything, e.g. -1).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"

namespace quax {

// A uniformly random index i with mask[i] == 1 among `count` entries of a 0/1 mask (a row of
// legal_masks()), or -1 when none is set: what a random player does with a mask. Reads the
// mask 8 bytes at a time, as this sits in the benchmarks' inner loop.
int sample_legal(const uint8_t* mask, int count, Rng& rng);

class VectorEnv {
 public:
  // What happened to one game in one step.
  struct StepResult {
    bool finished = false;                 // the game ended with this step
    Outcome outcome = Outcome::kOngoing;   // its result when finished
    int length = 0;                        // its number of plies when finished
  };

  // Precondition: check_spec(spec) is empty, batch >= 1.
  VectorEnv(const GameSpec& spec, int batch, bool auto_reset = true);
  // An upper bound of the memory `batch` games of `spec` take with a [B, C, N, N] float buffer
  // for encode() and a [B, A] byte buffer for legal_masks(), in bytes, for callers that let a
  // user choose the batch (the Python VectorEnv). The games' own part (8 KB + 32 bytes a cell
  // each) is measured: 7 to 18 KB a game for the variants at sizes 5 to 26, stymie's 12x12
  // the most a cell. Precondition: check_spec(spec) is empty.
  static std::uint64_t memory_bound(const GameSpec& spec, std::int64_t batch);
  // The largest value encode() can write for games of `spec`: every value lies in
  // [0, max_observation(spec)], the bounds the Python VectorEnv's observation space states.
  // Precondition: check_spec(spec) is empty.
  static float max_observation(const GameSpec& spec);

  const GameSpec& spec() const { return spec_; }
  int batch_size() const { return static_cast<int>(games_.size()); }
  int num_planes() const { return start_->num_planes(); }
  int num_actions() const { return start_->num_actions(); }
  int board_size() const { return spec_.size; }
  // Floats per game in encode(): num_planes() * size * size.
  int planes_per_game() const { return num_planes() * spec_.size * spec_.size; }

  void reset_all();
  void reset(int i);

  // One action per game, network frame. Precondition: for each live game, the action is
  // legal (net_legal_mask says 1); checked only in debug builds. `results` (may be null)
  // receives batch_size() entries.
  void step(const int* net_actions, StepResult* results = nullptr);
  // The same with board-frame actions.
  void step_board(const int* board_actions, StepResult* results = nullptr);

  // [B, C, N, N] floats, each game's planes from its mover's point of view, network frame.
  void encode(float* planes) const;
  // [B, A] bytes, 1 where the network-frame action is legal.
  void legal_masks(uint8_t* masks) const;

  const GameState& game(int i) const { return *games_[i]; }
  Outcome outcome(int i) const { return games_[i]->outcome(); }
  // kNone for a finished game.
  Player to_move(int i) const { return games_[i]->to_move(); }
  int move_number(int i) const { return games_[i]->move_number(); }
  int to_board_action(int i, int net_action) const { return games_[i]->from_net_action(net_action); }
  int to_net_action(int i, int board_action) const { return games_[i]->to_net_action(board_action); }

 private:
  void step_one(int i, int board_action, StepResult* result);

  GameSpec spec_;
  bool auto_reset_;
  std::unique_ptr<GameState> start_;  // the initial position, copied on reset
  std::vector<std::unique_ptr<GameState>> games_;
};

}  // namespace quax
