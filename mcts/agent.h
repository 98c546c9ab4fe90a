// A player that chooses moves one position at a time: what gtp, play and simple matches
// use. Batched play across many games goes through the multi-game driver instead.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "env/game_state.h"

namespace quax {

// What choose_action returns for "I resign" (never a legal action). Only an agent that plays
// for a program outside (arena/gtp_agent.h) returns it; the arena's play_game scores it as a
// loss of the agent's side.
inline constexpr int kResignAction = -2;

class Agent {
 public:
  virtual ~Agent() = default;
  // A short description, e.g. "uct:1000".
  virtual std::string name() const = 0;
  // A legal action (board frame) for the player to move. Precondition: !state.is_over().
  virtual int choose_action(const GameState& state) = 0;
  // Told of every action applied to the game this agent plays, its own and its opponent's, in
  // order, with the position before it: the arena's play_game tells both agents, other
  // drivers do not. An agent that searches the position it is given ignores it; one that keeps
  // the game elsewhere (a program over GTP) needs it.
  virtual void inform_action(const GameState& /*before*/, int /*action*/) {}
  // Forget any state kept between moves (a new game or a position set from outside), and free
  // the memory it held (a search tree).
  virtual void reset() {}
  // The value of the position the last choose_action was given, for its player to move, in
  // [-1, 1], as the agent's search estimated it (a search's root value; uct: the mean playout
  // result); nullopt for an agent that estimates none (random) or before its first move.
  // `hint` shows it.
  virtual std::optional<double> last_value() const { return std::nullopt; }
  // The root's visits of the last choose_action's search: (action in the board frame, visits)
  // for each child of the root; empty for an agent that searches no tree (random) or before
  // its first move. The balance lab draws its sampled moves from them (arena/balance_player.h).
  virtual std::vector<std::pair<int, int>> last_root_visits() const { return {}; }
};

}  // namespace quax
