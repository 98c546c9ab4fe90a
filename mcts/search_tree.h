// One search tree over a GameState: PUCT or Gumbel root, virtual loss for several leaves per
// evaluator batch, exact terminal values, tree reuse. It never calls an evaluator itself:
// collect() hands out leaf positions, deliver() takes their evaluations. The driver
// (selfplay_driver.h) and the agents run this loop.
//
// Values (the convention of mcts/evaluator.h): the evaluator's values, and what the tree
// hands out (root_value), are for the player to move at the position. Inside the tree every
// value a node keeps (value_sum, raw_value) is for the player who CHOSE the node: the player
// to move at its parent; a root's chooser is its own mover. Values are converted by
// comparing players, never by flipping sign each ply, so a player moving twice in a row is
// handled.
//
// Memory: nodes live in one vector; an expansion appends its children as one contiguous
// block, so no allocation happens once the vector has grown to the search's size. Tree
// reuse copies the kept subtree into a second vector and swaps the two.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "env/game_state.h"
#include "env/rng.h"
#include "mcts/search_settings.h"

namespace quax {

class SearchTree {
 public:
  struct Node {
    double value_sum = 0.0;  // sum of the values backed up through it (chooser's view)
    float prior = 0.0f;
    float raw_value = 0.0f;   // expanded: the evaluator's value; terminal: the exact value (chooser's view)
    int32_t visits = 0;
    int32_t first_child = -1;
    int16_t num_children = 0;
    int16_t action = -1;      // board frame, from the parent
    int16_t in_flight = 0;    // pending leaves below (virtual loss)
    int8_t to_move = -1;      // Player at this node, once expanded
    uint8_t status = 0;       // Status
  };
  enum Status : uint8_t { kFresh = 0, kPending = 1, kExpanded = 2, kTerminal = 3 };

  // The spec fixes the sizes of the scratch states.
  explicit SearchTree(const GameSpec& spec);

  // A new root; the tree is discarded. Precondition: !state.is_over().
  void set_root(const GameState& state);
  // The game moved on by `action` (board frame) from the root to `state_after`. Keeps the
  // action's subtree when `keep` and it was expanded; else starts afresh at state_after.
  void advance(int action, const GameState& state_after, bool keep);
  // The game moved on from the root to `state` by moves the tree was not told of (a player
  // that sees positions: the GTP engine, an Agent). When `keep` and `state` is the position of an
  // expanded node at most `max_plies` below the root (the player's own move and the
  // replies; 8 covers turns of several actions), that node's subtree is kept as advance()
  // keeps it; `state` equal to the root keeps the whole tree. Else the tree restarts at
  // `state`. Positions are matched by position_key() at the ply count move_number() gives.
  // Returns whether visits were kept.
  // Precondition: !state.is_over().
  bool reroot(const GameState& state, bool keep, int max_plies = 8);

  // Starts a search of settings.simulations (already-present root visits count, see
  // SearchSettings). `noise`: add Dirichlet noise (PUCT) or Gumbel samples (Gumbel, when
  // settings.gumbel_noise) at the root. `rng` is used for noise and must outlive the search.
  void start_search(const SearchSettings& settings, int simulations, bool noise, Rng* rng);

  // Selects leaves until leaves_per_batch are pending, the budget is reached, a selection
  // meets a pending leaf or 1024 terminal leaves were met (so a caller watching the clock
  // gets control back). Terminal leaves are backed up at once. Returns the number of
  // pending leaves (0 after terminal hits only); the first search of a fresh root hands
  // out the root alone.
  int collect();
  int num_pending() const { return num_pending_; }
  const GameState& pending_state(int i) const { return *leaves_[i].state; }
  // The legal actions of pending leaf i in the network frame (what the evaluator's mask holds).
  const std::vector<int16_t>& pending_net_actions(int i) const { return leaves_[i].net_actions; }
  // Expands pending leaf i with the evaluator's output (logits over the network-frame
  // layout, value for the leaf's player to move) and backs the value up. Every pending
  // leaf must be delivered before the next collect(). Non-finite output is replaced
  // (see nonfinite_evaluations()); values are clamped to [-1, 1].
  void deliver(int i, const float* net_logits, float value);

  // The budget is spent (and nothing is pending).
  bool done() const;
  // Simulations still to run before done(): the budget less the root visits below it.
  int simulations_left() const;
  // Whether choose_action(0) can no longer change if `more` simulations still run (PUCT,
  // nothing pending, the move chosen by the search): a visited child that wins at once is
  // played whatever the visits, and otherwise the most visited child leads every sibling by
  // more than `more` visits, so that not even a tie can arise (Fuego's count abort, Leela
  // Zero's pruning). An immediate win the search has not yet visited is the one thing more
  // simulations could still find. False for a Gumbel root: sequential halving decides at
  // the end.
  bool move_settled(int more) const;
  int simulations_done() const { return sims_done_; }
  int terminal_hits() const { return terminal_hits_; }
  int collisions() const { return collisions_; }
  // Evaluations of this search whose priors or value were not finite (NaN or inf) and were
  // replaced: uniform priors over the legal actions, value 0.
  int nonfinite_evaluations() const { return nonfinite_evaluations_; }

  // --- Results (after done()) ---------------------------------------------------------
  const GameState& root_state() const { return *root_state_; }
  const Node& root() const { return nodes_[0]; }
  const Node& node(int i) const { return nodes_[i]; }
  // The root's value for its player to move: the mean backed-up value (PUCT) or the
  // mixed value estimate (Gumbel).
  float root_value() const;
  // The policy target as (network-frame action, probability), sorted by action: visit
  // shares (PUCT) or the completed-Q improved policy (Gumbel).
  void policy_target(std::vector<std::pair<int, float>>* out) const;
  // The move to play (board frame). temperature 0: PUCT's immediate win if a child is one,
  // else the most visited child (ties: higher Q, then lower action) / Gumbel's sequential-halving winner; > 0: sampled from
  // visits^(1/T) (PUCT) or improved-policy^(1/T) (Gumbel). With settings.prior_temperature
  // >= 0 the search is not asked: the move is drawn from priors^(1/T), T the larger of the
  // two temperatures (0: the largest prior, ties to the first child).
  int choose_action(float temperature, Rng& rng) const;
  int tree_size() const { return static_cast<int>(nodes_.size()); }
  // The root's children as analysis shows them (during a search too): board-frame action,
  // visits, mean value for the root's player to move (0 while unvisited), prior.
  struct RootChild {
    int action;
    int visits;
    float q;
    float prior;
  };
  std::vector<RootChild> root_children() const;

  // Optional cost split for benchmarks (off by default: the clock reads cost ~5%).
  struct Profile {
    double select_s = 0, env_s = 0, expand_s = 0, backup_s = 0;  // env: copy + apply + legal mask
  };
  void set_profiling(bool on) { profiling_ = on; }
  const Profile& profile() const { return profile_; }

  // Sequential halving as in mctx (seq_halving.get_sequence_of_considered_visits): the
  // visit count a root action must have to be eligible at each of the n simulations,
  // m = number of actions considered.
  static std::vector<int> considered_visits(int m, int n);

 private:
  struct Leaf {
    std::unique_ptr<GameState> state;
    std::vector<int32_t> path;
    std::vector<int16_t> board_actions, net_actions;
  };

  // Appends to *path the actions from `node` (at position `at`) down expanded nodes to one
  // `plies` below whose position has `key`; false when none. `scratch` holds a state per ply.
  bool find_expanded_path(int node, const GameState& at, uint64_t key, int plies,
                          std::vector<std::unique_ptr<GameState>>& scratch, std::vector<int>* path) const;
  // chooser: the player who chose `node` (for a root, its own mover).
  int select_child_puct(int node, bool at_root, int8_t chooser) const;
  // Forced playouts: a root child below its forced count, or -1.
  int forced_root_child() const;
  bool forcing() const {
    return noise_ && settings_.forced_playouts_k > 0.0f && settings_.root_rule == RootRule::kPuct;
  }
  // The root children's visits for the policy target: the visits themselves, or with the
  // forced ones taken back (policy target pruning) when forcing().
  void target_visits(std::vector<float>* visits) const;
  int select_child_gumbel_root() const;
  int select_child_gumbel_interior(int node, int8_t chooser) const;
  // Returns false when the logits gave no distribution and the priors were made uniform.
  bool expand(int node, const Leaf& leaf, const float* net_logits, float value);
  void backup(const std::vector<int32_t>& path, Player player, float value, bool pending);
  void prepare_root();
  // Completed-Q transform of mctx (qtransform_completed_by_mix_value) at a node chosen by
  // `chooser`, written into sigma (one entry per child); returns the mixed value, for the
  // node's player to move.
  float completed_q(int node, int8_t chooser, std::vector<float>* sigma) const;
  float root_completed_q(std::vector<float>* sigma) const { return completed_q(0, nodes_[0].to_move, sigma); }

  GameSpec spec_;
  std::unique_ptr<GameState> root_state_;
  std::vector<Node> nodes_, spare_;
  std::vector<Leaf> leaves_;
  int num_pending_ = 0;
  std::vector<uint8_t> mask_;

  SearchSettings settings_;
  Rng* rng_ = nullptr;
  bool noise_ = false;
  bool root_prepared_ = false;
  int budget_ = 0;          // total root-child visits to reach
  int sims_done_ = 0, terminal_hits_ = 0, collisions_ = 0, nonfinite_evaluations_ = 0;
  int in_flight_ = 0;
  // Gumbel root data, one entry per root child.
  std::vector<float> gumbel_, root_logits_;
  std::vector<int> considered_visits_;  // mctx's get_sequence_of_considered_visits
  mutable std::vector<float> sigma_, scratch_;
  bool profiling_ = false;
  Profile profile_;
};

// An upper bound of the memory one search holds: its tree (each simulation expands at most
// one node, which allocates a child per legal action; the node vector may have up to twice
// its size allocated) and a fixed allowance for its leaves and evaluator batch. Measured on
// quax 26x26 (676 legal actions): 4,000 simulations held 104 MB, the bound says 177 MB.
// Every door that starts a search of a user's size checks it against the machine's memory
// (core/machine_memory.h) before it starts; the server also against its own budget.
std::uint64_t search_memory_bytes(int legal_actions, int simulations);

}  // namespace quax
