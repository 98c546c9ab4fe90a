// What answers `genmove` and the analysis commands of `quax gtp`: a baseline (random, uct:,
// mcts:) or a model whose search runs here rather than inside an opaque Agent, so that a
// clock can set each move's time (command/gtp_clock.h) and the analysis commands can read the
// tree (visits, values, the principal variation).
//
// A player made by following_shipped() has no fixed model: before each use it takes the
// shipped model that should play the game at hand (nets/default_model.h), so that `variant
// hex 11` after starting on quax plays hex's model, at the level the command line gave.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "env/game_state.h"
#include "mcts/agent.h"
#include "mcts/evaluation_batch.h"
#include "mcts/search_tree.h"
#include "nets/default_model.h"
#include "nets/device.h"
#include "nets/players.h"

namespace quax {

class NetEvaluator;
struct InferenceModel;

// A search of one position as the analysis commands show it.
struct GtpAnalysis {
  std::vector<SearchTree::RootChild> children;  // board-frame actions, visits, Q for the player to move
  std::vector<int> pv;                          // the most visited line from the root (board frame)
  float root_value = 0;                         // for the player to move, [-1, 1]
};

class GtpPlayer {
 public:
  ~GtpPlayer();

  // The player `d` describes (search size already set: set_player_search_size). Null and
  // *error (one line) as make_player (nets/players.h) says; a model is loaded and probed here.
  static std::unique_ptr<GtpPlayer> make(const PlayerDescription& d, const GameSpec& spec, uint64_t seed,
                                         std::string* error, const Device& device);
  // A player of the shipped model of each game it is asked about, at `size` (only its level
  // is used; 0: the model's default search). Loads nothing until first asked. A game with no
  // shipped model of its rules is played by `fallback` (a baseline description).
  static std::unique_ptr<GtpPlayer> following_shipped(const PlayerSearchSize& size, uint64_t seed, const Device& device,
                                                      std::string fallback);

  // What `name` says after "quax": the model's file name or the baseline's description, for
  // the game `spec` (a following player names the model it would take for it).
  std::string label(const GameSpec& spec);
  // The learner step of the model that plays `spec`, nullopt for a baseline.
  std::optional<int64_t> model_step(const GameSpec& spec);

  // A legal action for the player to move in `state` (not over). `seconds` > 0: a model
  // searches that long instead of its own size (a Gumbel search, which needs its budget in
  // advance, keeps its size); baselines ignore it. Throws std::runtime_error (one line) when
  // no model can play the game (another variant, no shipped model, a load that fails).
  int choose(const GameState& state, double seconds);

  // Searches `state` (not over) with at least `min_sims` simulations for the analysis
  // commands. Returns false with *error for a baseline (it has no tree) or as choose throws.
  bool analyse(const GameState& state, int min_sims, GtpAnalysis* out, std::string* error);

  // Loads what plays `spec` now rather than at the next move (a clock should not pay for a
  // model's load); a failure is left for the next choose or analyse to report.
  void prepare(const GameSpec& spec);

  // Forgets the last search (a new game).
  void reset();

 private:
  GtpPlayer() = default;
  // Makes sure the model (or baseline) for `spec` is the one held; throws as choose.
  void sync(const GameSpec& spec);
  // The path of the shipped model for `spec`, "" when none (following players only).
  std::string shipped_path(const GameSpec& spec);

  uint64_t seed_ = 1;
  Device device_ = kCpuDevice;
  // A following player: its level, the shipped models' cards (read once), the fallback.
  bool following_ = false;
  PlayerSearchSize size_;
  std::optional<std::vector<ModelSummary>> shipped_;
  std::string fallback_;

  // What plays now: a baseline agent, or a model and its search.
  PlayerDescription desc_;
  std::unique_ptr<Agent> baseline_;
  std::shared_ptr<const InferenceModel> model_;
  std::shared_ptr<NetEvaluator> evaluator_;
  std::string model_path_;  // "" before the first load of a following player
  int64_t step_ = 0;
  GameSpec checked_{};      // the game check_model_plays last accepted
  bool checked_any_ = false;
  std::unique_ptr<SearchTree> tree_;
  EvaluationBatch batch_;
  std::unique_ptr<Rng> rng_;
};

}  // namespace quax
