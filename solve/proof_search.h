// Depth-first proof-number search (df-pn, Nagai 2002) over the generic GameState interface:
// does a given attacker win from a position against every defence?
//
// The search works in the attacker's frame: a node is an OR node when the attacker is to
// move and an AND node otherwise, so a player who moves twice in a row (the progressive
// turns of later variants) needs no special case, and a draw simply counts as "the
// attacker does not win". Positions never repeat in these games (every action adds a stone
// or a link), so the graph is acyclic and df-pn needs no repetition handling.
//
// What keeps the tree small:
//  - Win in one: a new position whose mover has a move ending the game in the mover's
//    favour is decided on the spot, without a node of its own. A move that leaves the
//    opponent such a win is therefore refuted as soon as it is generated: when the opponent
//    threatens to win, only the replies that stop the threat stay open. This is exact (no
//    rule is assumed); the scan tries first the winning move found for a sibling, which in
//    connection games is usually the threat itself, so a refuted reply costs a few moves.
//  - Leaf numbers from connection distances on square boards (solve/connection_distance.h):
//    pn = a^2 + 1, dn = d^2 + 1 for the moves a (attacker) and d (defender) still need. The
//    same distances skip the win-in-one scan for a mover two or more moves away (not in
//    quadrex, whose fills place several stones at once) and decide a position at once when
//    a player has no path left. All three are off while swap is available.
//  - Virtual connections in quax, link, quickway, crossway and quadrex while swap is out of play
//    (solve/virtual_connection.h), and in hex (solve/hex_connection.h: H-search, asked when a
//    node is expanded, with the same distances on its board): a position where a player holds
//    a virtual win, or where the player to move is one move from one, is decided at once; and a
//    player facing threats is given only the stones in the must-play region and the links
//    across every threat's key block: the others lose.
//  - Inferior moves in quax, link, quickway and hex while swap is out of play, when asked for
//    (solve/inferior_move.h, solve/hex_dead_cell.h): a link across a block holding a third
//    stone of the mover's, and a stone on a dead cell, act as a pass and are not searched while
//    a placement remains. Off by default (BENCHMARKS.md).
//  - Proof sets in hex up to 8x8 while swap is out of play (the pruning of Benzene's hex
//    solvers): with each decided position the search keeps a set P of its empty cells such that
//    the winner still wins when the loser's stones are added on any empty cells outside P.
//    Once a move m of the mover is refuted with proof set P, every other move of the mover
//    outside P loses too, and is not searched. Why: the position after such a move m2, with a
//    stone of the mover's on m added, is the refuted position with a loser's stone more
//    outside P, which the winner wins; and hex is monotone, so m empty again helps the mover no
//    more. P is built as the search decides: a finished game, or a player with no path left:
//    empty (stones added change nothing); a win in one at k: {k}; a virtual win or a threat
//    (solve/hex_connection.h): its carrier, captured pairs and key included (the dead cells
//    filled before H-search stay dead whatever is added); a mover who wins with move m: the
//    child's P and m; a mover who loses: the union of the P of the moves searched (one pruned by
//    a sibling's P adds nothing: that P is in the union) and, when the must-play region left
//    moves out, every threat's carrier (each move left out misses one). A P that was lost from
//    the table counts as every cell. Checked against the plain search on random 4x4 and 5x5
//    positions (tests/solve_hex_proof_set_test.cpp).
//  - The pie rule: a position where the mover may swap, in a game without draws, is a win for
//    the mover, decided without search. Why: swapping gives the position the mover would
//    face without the swap, with the colours exchanged (RULES.md's mirror maps each player's
//    goal onto the other's) and the other player to move, so the swap wins exactly when
//    playing on loses. The mover does not learn which of the two wins (the winning moves of
//    such a position need their own proofs), only that one does. Checked against the plain
//    search after every first move of each variant with the pie rule on small boards
//    (tests/solve_swap_rule_test.cpp).
//  - Move ordering: children are created centre first (tie-break of the pn/dn choice). With a
//    move prior (set_move_prior: a model's policy), a fresh child's number on its parent's
//    side (pn below an OR node, dn below an AND node: the number the parent minimises) is
//    multiplied by 1 + weight * ln(p_best / p), so the moves the policy prefers are tried
//    first; values stay exact, only the order of the work changes. The prior is asked once
//    per expansion that creates a new child (a node searched again finds its children in
//    the table).
//  - 1 + epsilon thresholds (Pawlewicz and Lew 2007) against thrashing between siblings.
//  - A transposition table bounded by a memory cap (solve/transposition_table.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "env/game_state.h"
#include "solve/transposition_table.h"
#include "solve/virtual_connection.h"

namespace quax {

enum class Proof : int8_t { kProven, kDisproven, kUnknown };

struct ProofStats {
  int64_t nodes = 0;        // positions expanded (children generated)
  int64_t evaluations = 0;  // positions created and checked for a win in one
  double seconds = 0;
  size_t tt_used = 0, tt_capacity = 0;
};

class ProofSearch {
 public:
  // `memory_bytes` caps the transposition table. States must be of `spec`.
  ProofSearch(const GameSpec& spec, size_t memory_bytes);

  // Does `attacker` win from `state` against every defence? kUnknown only when a limit
  // below stopped the search. The table is kept between calls (later proofs reuse it).
  Proof prove(const GameState& state, Player attacker);

  // A wall-clock limit for the following prove() calls (none by default). Once it has
  // passed, prove() returns kUnknown (stopped() tells) until clear_deadline().
  void set_deadline(std::chrono::steady_clock::time_point deadline) {
    deadline_ = deadline;
    has_deadline_ = true;
  }
  void clear_deadline() {
    has_deadline_ = false;
    stopped_ = false;
  }
  // A flag someone else sets (Ctrl-C: command/stop_signal.h), read with the clock: once true,
  // prove() returns kUnknown like after the deadline. Null (the default) is none.
  void set_stop_flag(const std::atomic<bool>* stop) { stop_flag_ = stop; }
  bool stopped() const { return stopped_; }
  // The virtual-connection rules above (on by default where they apply): off gives the plain
  // search, against which the rules are checked. Changing it clears nothing: values are the
  // same either way, only the work differs.
  void set_virtual_connections(bool on) { virtual_connections_ = on && (virtual_connections_apply(spec_) || hex_); }
  // The inferior-move rule above (off by default; on applies it where it is sound).
  void set_inferior_moves(bool on);
  // The proof sets above (on by default where they apply): off, to compare. Values are the
  // same either way.
  void set_proof_sets(bool on);
  // The proof set kept for `state` when it was decided with `attacker` attacking: bit c for
  // the board's cell c (hex's action c), or kEveryCell when none is known (not decided, not
  // hex up to 8x8, or no longer in the table).
  uint64_t proof_set(const GameState& state, Player attacker) const;
  // The pie rule's theorem above (on by default where the pie rule is on and draws are not
  // possible): off searches the swap like any other move, to check the theorem.
  void set_swap_rule(bool on);
  // A policy over the actions of a position (board frame, num_actions() entries, at least
  // the legal ones filled, any positive scale), for the move ordering above, asked only at
  // nodes fewer than `max_depth` plies below the position being proven (a network's
  // evaluation costs as much as hundreds of nodes; near the root it orders the most work).
  // Weight 0, max_depth 0 or an empty function turn it off. The solver never depends on a
  // network: `quax solve --model` passes one's policy through this function.
  using MovePrior = std::function<void(const GameState& state, float* prior)>;
  void set_move_prior(MovePrior prior, double weight, int max_depth);
  // Positions the move prior was asked for.
  int64_t prior_calls() const { return prior_calls_; }
  // Called about every `period_seconds` during long searches.
  void set_progress(std::function<void(const ProofStats&)> progress, double period_seconds);

  // Totals since construction.
  ProofStats stats() const;
  const GameSpec& spec() const { return spec_; }

 private:
  struct Child {
    int action;
    uint64_t key;
    uint32_t pn, dn;
    uint64_t proof = kEveryCell;  // once decided: its proof set, as the table's
    bool by_sibling = false;      // decided against the mover by a sibling's proof set
  };
  struct Level {
    std::unique_ptr<GameState> state;  // the position at this depth
    std::vector<Child> children;
    std::vector<uint8_t> mask;
    int killer = -1;           // a winning move of the mover found among this level's children
    std::vector<float> prior;  // the move prior of this level's position (when asked)
  };

  Level& level(int depth);
  uint64_t salted(uint64_t key) const;
  // The pie rule may still change the game: the swap is available, or will be after the
  // first move. Connections and must-play regions assume play goes on without it.
  bool pie_ahead(const GameState& s) const;
  // pn/dn of a position seen for the first time (terminal, win in one, or fresh leaf), and
  // its proof set when decided. `parent` holds the killer move shared by siblings.
  void evaluate(const GameState& s, Level& parent, uint32_t* pn, uint32_t* dn, uint64_t* proof);
  // Marks the undecided children of `node` that a refuted sibling's proof set shows lost for
  // the mover (proof_search.h's proof sets).
  void prune_by_proof_sets(Level& node, bool or_node) const;
  // The proof set of `node` once decided: the mover won with child `winner` or, when `winner`
  // is negative, lost; `threat_cells`: the carriers that left moves out of the must-play
  // region (0 when it left none out).
  uint64_t node_proof(const Level& node, int winner, uint64_t threat_cells) const;
  // Multiplies a fresh child's parent-side number by its move-prior factor (asks the prior
  // for the node's position on the first call of an expansion: `asked`).
  void weigh_by_prior(Level& node, bool or_node, int action, bool* asked, Child* child);
  void mid(int depth, uint32_t pn_threshold, uint32_t dn_threshold, uint32_t* pn, uint32_t* dn);
  bool out_of_time();

  GameSpec spec_;
  TranspositionTable table_;
  std::vector<std::unique_ptr<Level>> levels_;
  std::unique_ptr<GameState> scratch_;  // the win-in-one scan's position and legal mask
  std::vector<uint8_t> scratch_mask_;
  bool square_ = false;  // SquareGame positions: connection distances initialise leaves
  bool hex_ = false;     // plain hex: solve/hex_connection.h's rules and distances
  bool virtual_connections_ = false;
  bool inferior_moves_ = false;
  bool proof_sets_ = false;  // hex up to 8x8: proof sets kept and used
  int swap_action_ = -1;  // the `swap` action, where the pie rule is on
  bool swap_rule_ = false;
  std::vector<int> by_rank_;  // all actions, centre first
  MovePrior prior_;
  double prior_weight_ = 0;
  int prior_depth_ = 0;
  int64_t prior_calls_ = 0;
  Player attacker_ = Player::kBlack;

  int64_t nodes_ = 0, evaluations_ = 0;
  double seconds_ = 0;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point deadline_;
  bool has_deadline_ = false;
  const std::atomic<bool>* stop_flag_ = nullptr;
  bool stopped_ = false;
  std::function<void(const ProofStats&)> progress_;
  double progress_period_ = 0;
  std::chrono::steady_clock::time_point next_progress_;
};

}  // namespace quax
