// The square-grid family of docs/RULES.md section 2 with one action per turn:
// quax, link, quickway, crossway and quadrex. One class: they differ only in the facts their
// files register (VariantInfo::links, fill_cascade; env/variants/), never by name.
//
// Action layout (board frame, N = size, NN = N*N):
//   [0, NN)          place a stone on cell r*N + c
//   [NN, 2NN)        link the `/` diagonal (south-west to north-east) of block r*N + c
//   [2NN, 3NN)       link the `\` diagonal (south-east to north-west) of block r*N + c
//                    (a block is named by its south-west cell; row and column N-1 hold none)
//   3NN              swap
//   3NN + 1          pass (crossway's forced pass)
// Input planes (network frame, from the mover's point of view): own stones, opponent
// stones, own `/` links, own `\` links, opponent `/`, opponent `\` (link planes on the block
// grid, padded to N x N), swap available, ones (the board).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "env/board_game.h"

namespace quax {

class SquareGame final : public TurnTakingGame<SquareGame> {
 public:
  static constexpr int kSpatialPlanes = 3;
  static constexpr int kExtraActions = 2;
  static constexpr int kNumPlanes = 8;

  explicit SquareGame(const GameSpec& spec);

  void copy_from(const GameState& other) override;

  void legal_mask(uint8_t* mask) const override;
  std::string why_illegal(int action) const override;
  void apply(int action) override;
  Outcome play_random_to_end(Rng& rng) override;

  std::string action_to_string(int action) const override;
  int parse_action(std::string_view text, std::string* error) const override;
  std::vector<std::string> stones_of(Player p) const override;
  std::vector<std::string> links_of(Player p) const override;
  std::string board_text() const override;
  std::string move_help() const override;
  std::string status_line() const override;

  std::vector<std::string> plane_names() const override;
  void encode(float* planes) const override;
  int to_net_action(int board_action) const override;
  std::vector<std::string> spatial_plane_names() const override { return {"cell", "link_slash", "link_backslash"}; }
  std::string net_frame_note() const override;
  int from_net_action(int net_action) const override;
  void net_legal_mask(uint8_t* mask) const override;
  // The 4 goal-keeping symmetries of the square (env/symmetry.h, kGoalKeepingSymmetries).
  int num_net_symmetries() const override;
  void transform_net_planes(int sym, const float* in, float* out) const override;
  void transform_net_policy(int sym, const float* in, float* out) const override;
  void transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const override;
  uint64_t position_key() const override { return key_ ^ turn_key(); }
  std::vector<CellOwnership> final_ownership() const override;

  // --- Direct access for tests, symmetry and fast encoders ----------------------------
  int swap_action() const { return kSpatialPlanes * nn_; }
  int pass_action() const { return kSpatialPlanes * nn_ + 1; }
  int cell_action(int c, int r) const { return r * n_ + c; }
  // d = 0 for `/`, 1 for `\`; (c, r) is the block's south-west cell.
  int link_action(int c, int r, int d) const { return (1 + d) * nn_ + r * n_ + c; }
  // Stone on a cell: kNone when empty.
  Player stone(int c, int r) const { return stone_at(r * n_ + c); }
  // Link on block (c, r): sets *d and returns its owner, or kNone when the block is free.
  Player link_on(int c, int r, int* d) const;
  bool swap_available() const override;
  // True when the player to move has no legal placement (crossway) and so must pass.
  bool must_pass() const { return must_pass_; }
  // For variants whose turn is several stones (quikquax wraps a quickway board): apply()
  // that leaves the same player to move unless the game ends. Precondition: is_legal(action).
  void apply_keep_turn(int action);
  // The other player to move, no move made: ends such a turn after apply_keep_turn.
  // Precondition: the game is not over and no pass is due (a board without crossway's rule).
  void hand_over_turn() { to_move_ = opponent(to_move_); }

  // Builds a position from stones and links (each link given as block r*N+c, d, owner)
  // with `mover` to play at ply `ply`. Links are taken as they are (no rules applied), the
  // cascade of quadrex is not run, and the winner is read off the position.
  // For symmetry transforms and tests.
  static std::unique_ptr<SquareGame> from_position(const GameSpec& spec,
                                                   const std::vector<Player>& stones,
                                                   const std::vector<std::array<int, 3>>& links,
                                                   Player mover, int ply);

 private:
  struct Geometry;  // per-size tables shared by all states of that size

  Player stone_at(int cell) const {
    return cells_[cell] == 0 ? Player::kNone : static_cast<Player>(cells_[cell] - 1);
  }
  bool placement_legal(int cell, Player p) const;
  bool has_placement(Player p) const;
  void place(int cell, Player p);       // stone, unions, automatic links, quadrex cascade
  void fill_cascade(int cell);          // quadrex: the fills that follow a stone on `cell`
  void put_stone(int cell, Player p);   // one stone and its unions, no cascade
  void add_link(int block, int d, Player p);
  void do_swap();
  void after_move();                    // winner, draw, forced pass, next player
  int find(int x) const;
  void unite(int a, int b);
  void add_candidate(int link_id, Player p);
  void remove_candidate(int link_id);
  uint64_t turn_key() const;

  std::shared_ptr<const Geometry> geo_;
  // The family member's rules, read from its registered facts (VariantInfo) at construction:
  // the players make links (quax, link); a stone links its diagonal pairs (quickway); diagonal
  // neighbours connect and no checkerboard may be completed, with forced passes (crossway);
  // placements cascade (quadrex).
  bool link_moves_ = false, auto_links_ = false, diagonals_connect_ = false, fill_cascade_ = false;

  std::vector<uint8_t> cells_;        // 0 empty, 1 black, 2 white
  std::vector<uint8_t> links_;        // per block: 0 none, else 1 + 2 * d + player
  mutable std::vector<int16_t> parent_;  // union-find over cells + 4 edge nodes
  std::vector<int16_t> empties_;      // the empty cells, in no order
  std::vector<int16_t> empty_pos_;    // cell -> index in empties_, -1 if occupied
  // Quax and link: link moves available to each player (link id = block * 2 + d).
  std::array<std::vector<int16_t>, 2> candidates_;
  std::vector<int16_t> candidate_pos_;
  std::vector<int16_t> cascade_queue_;  // quadrex scratch, kept to avoid allocation

  bool must_pass_ = false;
  uint64_t key_ = 0;
  // False only in final_ownership()'s scratch board: stones then join their groups but not
  // the edge nodes, so that each set of the union-find is one group of stones.
  bool join_edges_ = true;
};

}  // namespace quax
