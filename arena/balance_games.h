// The games of the balance lab (`quax balance`, docs/BALANCE.md): a model's self-play from
// given positions with the search's value at every ply, and what a designer reads off them:
// the first player's score, the game length, how early a game is decided and how often the
// lead changes. Torch-free: the caller supplies the player (an Evaluator, or a baseline's agents).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "arena/balance_player.h"
#include "env/game_state.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"

namespace quax {

// One finished self-play game.
struct PlayedGame {
  Outcome outcome = Outcome::kOngoing;  // kDraw also when the move guard stopped it
  int plies = 0;                        // the game's length from the start of the game
  Player opener = Player::kNone;        // who moved at the position the game started from
  // The search's root value before each move played here, for Black (converted from the
  // mover's view), in [-1, 1]; one entry per ply played from the starting position.
  std::vector<float> black_values;
  bool swapped = false;  // the pie rule's swap was played
};

struct SelfPlayOptions {
  SearchSettings search;  // noise is never added: these games measure, not train
  // The actions of the first `sampled_turns` turns played from each start (a turn: one
  // player's run of actions, a single ply in most variants, an auction turn of blocks in
  // torax) are drawn from the visit counts (temperature 1), the later ones are the most
  // visited move: the same start would otherwise give the same game every time.
  int sampled_turns = 4;
  int parallel_games = 64;  // games in flight at once (each holds a search tree)
  uint64_t seed = 1;
};

// Plays one game from each of `starts` (positions not over, all of one spec) to the end,
// `player` searching for both sides (arena/balance_player.h: a model's or mcts:N's tree search
// over an evaluator, or a baseline such as uct:N) at options.search.simulations; the games in
// flight search side by side, one evaluator call per round for all of them. Results in the
// order of `starts`. A game longer than 4 times the number of actions stops as a draw (no game
// of these rules gets there).
std::vector<PlayedGame> play_self_games(const std::vector<const GameState*>& starts, const BalancePlayer& player,
                                        const SelfPlayOptions& options);

// Counts of a set of games from Black's side (Black moves first).
struct FirstPlayerTally {
  int games = 0, black_wins = 0, draws = 0, white_wins = 0;
  int swapped = 0;                     // games in which the second player swapped
  double rate = 0, low = 0, high = 0;  // Black's score (wins + draws / 2) / games, 95% Wilson interval
};
FirstPlayerTally tally_first_player(const std::vector<PlayedGame>& games);

// Game length in plies: mean, quartiles (the nearest-rank ones) and a histogram (plies -> games).
struct LengthSummary {
  int games = 0;
  double mean = 0;
  int min = 0, q1 = 0, median = 0, q3 = 0, max = 0;
  std::map<int, int> histogram;
};
LengthSummary summarize_lengths(const std::vector<PlayedGame>& games);

// The first ply index k of a game from which the eventual winner's value (black_values seen
// from the winner) stays above `threshold` for every later ply, as a share of the plies
// recorded (k / black_values.size(), 1 when the last value is not above it); -1 for a draw or
// a game without values. Small: the game was decided early; near 1: it stayed open to the end.
double decided_share(const PlayedGame& game, double threshold);
// How often the value trace changes sides: the trace counts as Black's while Black's value is
// above `margin`, White's while below -margin, and keeps its side in between; the number of
// times the side changes.
int lead_changes(const PlayedGame& game, double margin);

struct GameFlow {
  double threshold = 0.5, margin = 0.2;
  int decisive_games = 0;    // games with a winner (the ones decided_share describes)
  double decided_share = 0;  // mean over them
  double lead_changes = 0;   // mean per game, over all games
};
GameFlow summarize_flow(const std::vector<PlayedGame>& games, double threshold = 0.5, double margin = 0.2);

}  // namespace quax
