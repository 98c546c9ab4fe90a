// The multi-game driver: many games searched side by side, the leaves of all their trees
// gathered into ONE evaluator call per step (per evaluator). Self-play uses it with one
// player setting for both colours; the arena uses two player settings (and two
// evaluators), one per colour, alternating colours between games.
//
// Usage (self-play):
//   DriverOptions opt;
//   opt.spec = {Variant::kQuax, 9, true};
//   opt.parallel_games = 64;
//   opt.players[0].search.simulations = 200;          // see PlayerSettings below
//   opt.players[0].search.dirichlet_fraction = 0.25f;  // noise on for self-play
//   opt.players[0].record_policy = true;
//   opt.games_to_play = -1;                            // keep going until you stop calling
//   GameDriver driver(opt, {&net_evaluator});
//   while (!stop) {
//     driver.step();                                   // one batched evaluator call
//     for (GameRecord& g : driver.take_finished()) write_shard(g);
//   }
// or simply driver.run(n_games, callback).
//
// Threading: a GameDriver is not thread-safe. Run one driver per thread (each with its own
// evaluator, or an evaluator that is itself thread-safe). Evaluator::evaluate is called
// from the thread that calls step().
//
// Determinism: for the same options, seed and evaluator outputs, the games are identical.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "env/game_state.h"
#include "mcts/evaluation_batch.h"
#include "mcts/evaluator.h"
#include "mcts/search_settings.h"

namespace quax {

// How one side searches and chooses its moves.
// How a player's moves are chosen beyond its search: the temperature of the choice and
// playout cap randomization. A training config holds one for self-play (train/config.h).
struct MoveChoice {
  // Move choice. For the first `temperature_moves` plies of a game (counted over both
  // players' moves, i.e. GameState::move_number() < temperature_moves) moves are sampled
  // with visits^(1/temperature_early); afterwards with temperature_final. A temperature of
  // 0 means "best by visits" (ties broken by the root Q, then by the lower action).
  // With Gumbel, temperature 0 plays the action sequential halving selected; a positive
  // temperature samples from the improved policy softmax(log(pi)/T) instead.
  int temperature_moves = 0;
  // Count `temperature_moves` in turns instead of plies: a run of one player's actions
  // (torax's auction turns, the turns of several actions of quikquax and stymie) counts
  // once. Arena games do: the first plies of torax are the first seat's blocks, which the
  // torus's translations make alike, so games sampled by plies repeat each other.
  bool temperature_counts_turns = false;
  float temperature_early = 1.0f;
  float temperature_final = 0.0f;

  // Playout cap randomization (KataGo): with probability `full_search_fraction` a move gets
  // a full search (search.simulations) and is recorded as a policy target; otherwise it
  // gets `fast_simulations`, no root noise, and MoveRecord::full_search = false (its
  // policy target is left empty; train on its value target only, or skip it).
  // full_search_fraction = 1 turns this off.
  float full_search_fraction = 1.0f;
  int fast_simulations = 0;
};

// What a range of each field cannot say: "" when `m` is sound, else one line naming the field
// (full_search_fraction in [0, 1], fast_simulations >= 1 when full_search_fraction < 1,
// temperatures >= 0).
std::string check_move_choice(const MoveChoice& m);

struct PlayerSettings : MoveChoice {
  SearchSettings search;  // simulations, PUCT/Gumbel, c_puct, FPU, noise, virtual loss...
  int evaluator = 0;      // index into the evaluators passed to the driver
  // Store the search's policy target in the records (self-play: yes, arena: no).
  bool record_policy = false;
};

// Resignation: a player resigns after its root value (its own point of view) stayed below
// `threshold` for `consecutive` of its own moves in a row. In a fraction `playout_fraction`
// of games resignation is disabled, so the record says whether the resigning side would
// have lost anyway (false-resignation rate).
struct ResignSettings {
  bool enabled = false;
  float threshold = -0.9f;
  int consecutive = 3;
  float playout_fraction = 0.1f;
  // Plies at the start of a game during which nobody resigns.
  int min_moves = 0;
};

struct DriverOptions {
  GameSpec spec;
  // Games in flight at once. The evaluator batch per step is at most
  // parallel_games * search.leaves_per_batch positions (per evaluator).
  int parallel_games = 64;
  // Games to start in total; -1 = without end (step() keeps starting new games).
  int64_t games_to_play = -1;
  // players[i] are the settings a game can assign to a colour; see seats_for_game.
  std::vector<PlayerSettings> players = std::vector<PlayerSettings>(1);
  // Which entry of `players` plays {black, white} in the game-th game started (0-based).
  // Null: {0, 0} (self-play). The arena passes e.g. g % 2 ? {1, 0} : {0, 1}.
  std::function<std::pair<int, int>(int64_t game)> seats_for_game;
  ResignSettings resign;
  // A game reaching this many plies stops with Outcome::kDraw and truncated = true.
  // 0 = 4 * (number of actions of the layout), which no game of the square family reaches.
  int max_moves = 0;
  uint64_t seed = 1;
};

// One move of a finished game.
struct MoveRecord {
  int action = -1;               // board frame, as GameState::apply takes it
  Player mover = Player::kNone;  // who played it
  // True when this move had a full search (playout cap randomization); only then is
  // `policy` filled (and only if PlayerSettings::record_policy).
  bool full_search = true;
  // The search's value of the root position, from the mover's point of view, in [-1, 1]
  // (PUCT: mean value over the root's visits; Gumbel: the mixed value estimate).
  float root_value = 0.0f;
  // The policy target: (network-frame action of THIS position, probability), probabilities
  // summing to 1, sorted by action, zero entries omitted. PUCT: root visit distribution;
  // Gumbel: the completed-Q improved policy. To train: build the position by replaying
  // the actions before this one, encode() it, and scatter these pairs into a dense
  // vector of num_actions() entries (both already in the network frame).
  std::vector<std::pair<int, float>> policy;
  int simulations = 0;  // simulations actually spent on this move
};

struct GameRecord {
  GameSpec spec;
  int64_t game_index = 0;          // order in which the game was started
  std::pair<int, int> seats{0, 0};  // entries of DriverOptions::players for black, white
  std::vector<MoveRecord> moves;
  // The result: the winner on the board, or by resignation; kDraw if truncated.
  Outcome outcome = Outcome::kOngoing;
  bool truncated = false;  // stopped at max_moves

  // Resignation. `resigned`: the game ended by resignation of `resigner` after
  // moves.size() plies. `resign_disabled`: this game was chosen to be played out; then
  // `would_have_resigned` / `would_resign_player` / `would_resign_move` (ply index)
  // say whether and when a resignation would have happened, and `outcome` is the real
  // result, so resigned-but-won games count as false resignations.
  bool resigned = false;
  Player resigner = Player::kNone;
  bool resign_disabled = false;
  bool would_have_resigned = false;
  Player would_resign_player = Player::kNone;
  int would_resign_move = -1;
};

struct DriverStats {
  int64_t steps = 0;              // evaluator calls, summed over evaluators
  int64_t evaluations = 0;        // positions evaluated
  int64_t simulations = 0;        // simulations completed (terminal ones included)
  int64_t terminal_hits = 0;      // simulations ended at a finished game (no evaluation)
  int64_t collisions = 0;         // selections that met a leaf already in the batch
  int64_t moves = 0;
  int64_t games_finished = 0;
};

class GameDriver {
 public:
  // `evaluators` are not owned and must outlive the driver; every
  // PlayerSettings::evaluator must index into it. Throws std::invalid_argument with a
  // one-line message for bad options (spec, settings, indices).
  GameDriver(const DriverOptions& options, std::vector<Evaluator*> evaluators);
  ~GameDriver();
  GameDriver(const GameDriver&) = delete;
  GameDriver& operator=(const GameDriver&) = delete;

  // One round: every unfinished search gives up to leaves_per_batch leaves, each
  // evaluator is called once on its share, values are backed up, and every game whose
  // search completed plays its move (finished games move to the finished list and new
  // games start in their slots while games_to_play allows). Returns false when there is
  // nothing left to do (all games started and finished).
  bool step();
  // Finished games since the last call, in order of completion.
  std::vector<GameRecord> take_finished();
  // Steps until `games` more games have finished (or nothing is left), handing each to
  // `on_game` as it finishes.
  void run(int64_t games, const std::function<void(GameRecord&&)>& on_game);

  // The simulations of player `player`'s full searches from now on (searches under way keep
  // theirs): growing simulations over a run. std::invalid_argument for a player index or a
  // count (< 1) that is not valid.
  void set_simulations(int player, int simulations);

  const DriverStats& stats() const { return stats_; }
  const DriverOptions& options() const { return options_; }
  // Games currently in flight.
  int active_games() const;

 private:
  struct Slot;
  void start_game(Slot& slot);
  void finish_move(Slot& slot);
  void finish_game(Slot& slot);

  DriverOptions options_;
  std::vector<Evaluator*> evaluators_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<GameRecord> finished_;
  DriverStats stats_;
  int64_t games_started_ = 0;
  std::vector<EvaluationBatch> batches_;  // one per evaluator
};

}  // namespace quax
