// Stymie (docs/RULES.md section 3): the 4.8.8 board whose N x N octagons and (N-1)^2 squares
// both take pieces. Vert (black) connects north-south, Horz (white) west-east. An octagon
// touches its orthogonal octagons and its corner squares; a square its 4 corner octagons.
//
// Turns. The opening is one black piece. Afterwards a turn is one piece; or an octagon and
// an adjacent square; or, only when the opponent's last turn was a single piece (neither the
// opening nor a swap counts), an octagon with two adjacent squares or a square with two
// adjacent octagons. Each piece is one action; the engine offers only pieces that keep the
// turn completable to one of these shapes, `end` once the pieces form a complete shape, and
// ends the turn by itself when nothing can be added. A connection ends the game at once.
//
// Action layout (board frame, NN = N*N): [0, NN) octagon r*N + c; [NN, 2NN) the square of
// block r*N + c (south-west octagon (c, r); row and column N-1 hold none); 2NN swap;
// 2NN + 1 end. Notation: `c5` an octagon, `c5+` a square, `swap`, `end`.
// Network frame as the square games: transposed when White moves. Input planes (mover's
// view): own octagons, opponent octagons, own squares, opponent squares, octagons and
// squares placed this turn, triple allowed (constant), swap available (constant), ones,
// square exists (1 on the (N-1)^2 real squares).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "env/board_game.h"

namespace quax {

class StymieGame final : public TurnTakingGame<StymieGame> {
 public:
  static constexpr int kSpatialPlanes = 2;
  static constexpr int kExtraActions = 2;  // swap, end
  static constexpr int kNumPlanes = 10;

  // Precondition: the spec's variant is played on octagons and check_spec(spec) is empty.
  explicit StymieGame(const GameSpec& spec);

  void copy_from(const GameState& other) override { *this = static_cast<const StymieGame&>(other); }

  void legal_mask(uint8_t* mask) const override;
  std::string why_illegal(int action) const override;
  void apply(int action) override;
  Outcome play_random_to_end(Rng& rng) override;

  std::string action_to_string(int action) const override;
  int parse_action(std::string_view text, std::string* error) const override;
  // Octagons and squares (`c5+`) of one colour; Stymie has no links.
  std::vector<std::string> stones_of(Player p) const override;
  std::string board_text() const override;
  std::string move_help() const override;
  std::string status_line() const override;

  std::vector<std::string> plane_names() const override;
  void encode(float* planes) const override;
  int to_net_action(int board_action) const override;
  std::vector<std::string> spatial_plane_names() const override { return {"octagon", "square"}; }
  std::string net_frame_note() const override {
    return "index plane * N * N + row * N + column (row 0 = rank 1, the south edge; column 0 = file a; a square "
           "is named by its south-west octagon); when White is to move the board is transposed (row and column "
           "swapped), so the mover always connects south-north";
  }
  int from_net_action(int net_action) const override { return to_net_action(net_action); }
  // The 4 goal-keeping symmetries (identity, west-east mirror, north-south mirror, half turn).
  int num_net_symmetries() const override { return 4; }
  void transform_net_planes(int sym, const float* in, float* out) const override;
  void transform_net_policy(int sym, const float* in, float* out) const override;
  void transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const override;
  uint64_t position_key() const override;
  // Octagons only (the cells); the chain's squares connect it but are not listed.
  std::vector<CellOwnership> final_ownership() const override;

  // --- Direct access ------------------------------------------------------------------
  int octagon_action(int c, int r) const { return r * n_ + c; }
  int square_action(int c, int r) const { return nn_ + r * n_ + c; }
  int swap_action() const { return 2 * nn_; }
  int end_action() const { return 2 * nn_ + 1; }
  Player piece(int action) const { return pieces_[action] == 0 ? Player::kNone : static_cast<Player>(pieces_[action] - 1); }
  bool triple_allowed() const { return triple_allowed_; }
  const std::vector<int>& placed_this_turn() const { return turn_; }
  // Board-frame image of an action under goal-keeping symmetry k (0..3: flip-column bit 1,
  // flip-row bit 2, as env/symmetry.h's indices 0, 2, 4, 6).
  int map_action(int k, int action) const;

  // A position from its pieces (one entry per action of [0, 2NN), kNone for empty) with
  // `mover` to start a fresh turn, no triple allowed; the winner is read off the position.
  static std::unique_ptr<StymieGame> from_position(const GameSpec& spec, const std::vector<Player>& pieces,
                                                   Player mover);

 private:
  bool is_square(int a) const { return a >= nn_; }
  bool real_square(int a) const { return (a - nn_) % n_ < n_ - 1 && (a - nn_) / n_ < n_ - 1; }
  bool adjacent(int octagon, int square) const;
  bool piece_fits(int a) const;     // keeps the turn completable
  bool turn_complete() const;
  bool can_continue() const;
  bool swap_available() const override { return spec_.swap && turn_number_ == 1 && turn_.empty() && outcome_ == Outcome::kOngoing; }
  void put(int a, Player p);
  void end_turn(bool counts_as_single);
  int find(int x);
  void unite(int a, int b);
  std::string name(int a) const;

  std::vector<uint8_t> pieces_;   // per action of [0, 2NN): 0 empty, 1 black, 2 white
  std::vector<int16_t> parent_;   // union-find over the 2NN pieces and 4 edge nodes
  std::vector<int> turn_;         // actions placed in the current turn
  int empties_ = 0;
  int turn_number_ = 0;           // 0 is the opening
  bool triple_allowed_ = false;
  // False only in final_ownership()'s scratch board: pieces join their groups but not the
  // edge nodes, so that each set of the union-find is one group.
  bool join_edges_ = true;
};

}  // namespace quax
