// The opening map of the balance lab (`quax balance`, docs/BALANCE.md): every first move of
// a game, valued for the player who made it by the model's search and by a few self-play
// games from it, with the solver's proof beside it where one comes within a time limit.
// Torch-free: the caller supplies the Evaluator.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "arena/balance_player.h"
#include "env/game_state.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"
#include "solve/book.h"
#include "solve/solver.h"

namespace quax {

// The first moves of `spec` grouped by symmetry: moves that are images of each other under a
// symmetry of the network frame (GameState::num_net_symmetries: those that keep the mover and
// the goals, so the empty board's images of a move are worth the same) share a class: on the
// square boards the two mirrors and the half turn, on the hex rhombus the half turn, on the
// torus every translation too. Classes in order of their first move (by action), each the
// legal first actions (board frame) in action order; the first of each stands for it.
std::vector<std::vector<int>> first_move_classes(const GameSpec& spec);

// The game in which an opening is valued: `spec` without the pie rule. An opening's value
// under the pie rule is the value of the game going on after it, that is with the swap
// declined, and its sign says whether to swap.
GameSpec opening_game(const GameSpec& spec);

struct OpeningValue {
  int action = -1;             // the first move, board frame
  std::string move;            // in notation
  std::string representative;  // the move of its symmetry class that was searched
  // The search's value of the position after the move, for the player who made it, in
  // [-1, 1]: the map's value.
  double value = 0;
  // The self-play games from the position after the move (model against itself), from the
  // opener's side, and their mean result (+1 win, -1 loss) with its 95% interval.
  int games = 0, wins = 0, draws = 0, losses = 0;
  double games_value = 0, low = -1, high = 1;
  GameValue proven = GameValue::kUnknown;  // the solver's value for the opener, when proven
  bool swap = false;                       // value > 0: under the pie rule the second player should take the opening
};

struct OpeningMapOptions {
  SearchSettings search;                          // the valuing search (its simulations) and the games' searches
  int games_per_opening = 4;                      // self-play games from each class's position
  int sampled_turns = 2;                          // of those games, turns drawn from the visit counts
  double solve_seconds = 0;                       // the solver's time per class (0: no solver)
  size_t solve_memory_bytes = size_t{256} << 20;  // its transposition table, shared by all classes
  uint64_t seed = 1;
};

// The map: one entry per legal first move, in action order, every move of a class carrying
// its class's figures. `progress` (may be null) is told each phase in one line.
// `player` values each class's position with its own search (a model's, mcts:N's, or uct:N's
// mean playout result at its root) and plays the games from it.
std::vector<OpeningValue> opening_map(const GameSpec& spec, const BalancePlayer& player,
                                      const OpeningMapOptions& options,
                                      const std::function<void(const std::string&)>& progress = nullptr);

// Fills in `proven` from solved-position books (solve/book.h) where the map has none: an entry
// for the start position of opening_game(spec) proves its winning moves wins and, when it is
// complete and the game cannot draw, every other move a loss (a lost start: every move a
// loss); an entry for the position after one first move proves that move (its value turned
// to the opener's side). A proof holds for the move's whole symmetry class. Entries of other
// games, deeper positions and unknown values are skipped. Returns the number of map entries
// it proved.
int apply_books(const GameSpec& spec, const std::vector<BookEntry>& book, std::vector<OpeningValue>* map);

}  // namespace quax
