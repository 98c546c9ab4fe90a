// Torax (docs/RULES.md section 2): quax on a torus after an auction. Black wins with a chain of
// black stones that wraps around the torus; White wins as soon as that has become
// impossible.
//
// Players and colours. The Player values name the two *seats*: kBlack is the player who
// opens the auction, kWhite the other. A seat's colour is fixed only when someone adopts:
// the adopter plays the white stones (the Blocker), the other seat the black stones and
// moves first. to_move(), outcome() and everything the search sees are by seat, so values
// stay attached to the same player through the auction; stones_of()/links_of() are by
// stone colour (blocks are white stones).
//
// Action layout (board frame, N = size, NN = N*N; the torus has N*N blocks, block r*N + c
// being the 2x2 group whose south-west cell is (c, r), wrapping):
//   [0, NN)       a cell: a block (white stone) during the auction, else a stone of the
//                 mover's colour
//   [NN, 3NN)     a link on the `/` then `\` diagonal of block r*N + c (play phase)
//   3NN           adopt   (auction, before any block of this turn)
//   3NN + 1       end     (auction, after at least one block; the N-th block ends the turn)
//   3NN + 2       pass    (Decision: only when the mover has no other legal action, which can
//                 happen to White on a full board while Black still needs a link)
// Notation: cells `c5`; links `a1-i9` (cell with the lower row number first; links may cross
// the seam); `adopt`, `end`, `pass`; a block is written as its cell (`block c3` is accepted).
// In game records an auction turn is one token (`c3g7`), see record_form().
//
// Network frame = board frame (the goal is the same for both colours' orientations).
// Input planes: black stones, white stones, black `/`, black `\`, white `/`, white `\`
// (block planes are N x N, no padding), mover plays black (constant; 0 in the auction),
// auction phase (constant), blocks placed this turn / N (constant), ones.
// Augmentation: the 8 symmetries of the square times the N*N translations of the torus.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "env/board_game.h"
#include "env/union_find.h"

namespace quax {

class ToraxGame final : public TurnTakingGame<ToraxGame> {
 public:
  static constexpr int kSpatialPlanes = 3;
  static constexpr int kExtraActions = 3;  // adopt, end, pass
  static constexpr int kNumPlanes = 10;

  // Precondition: the spec's variant is played on the torus and check_spec(spec) is empty.
  explicit ToraxGame(const GameSpec& spec);

  void copy_from(const GameState& other) override;

  void legal_mask(uint8_t* mask) const override;
  std::string why_illegal(int action) const override;
  void apply(int action) override;
  Outcome play_random_to_end(Rng& rng) override;

  std::string action_to_string(int action) const override;
  int parse_action(std::string_view text, std::string* error) const override;
  std::vector<std::string> stones_of(Player colour) const override;
  std::vector<std::string> links_of(Player colour) const override;
  std::string board_text() const override;
  // By seat, with the colour a seat plays once the auction has settled it.
  std::string move_help() const override;
  std::string status_line() const override;
  // Records write an auction turn as one token, its blocks joined with `end` implied
  // (docs/RULES.md Decision: `c3g7`; one block: `c3`); everything else one token per action.
  RecordForm record_form(int action) const override;
  std::vector<int> parse_record_token(std::string_view token, std::string* error) const override;

  std::vector<std::string> plane_names() const override;
  void encode(float* planes) const override;
  int to_net_action(int board_action) const override { return board_action; }
  std::vector<std::string> spatial_plane_names() const override {
    return {"cell_or_block", "link_slash", "link_backslash"};
  }
  std::string net_frame_note() const override {
    return "index plane * N * N + row * N + column (row 0 = rank 1; column 0 = file a; a link is named by the "
           "south-west cell of its wrapping 2x2 block); the network frame is the board frame for both seats, "
           "and input planes are by colour with a plane telling whether the mover plays black";
  }
  int from_net_action(int net_action) const override { return net_action; }
  // Symmetry s = d * N*N + t: dihedral element d (env/symmetry.h's bits) then the
  // translation by (t % N, t / N).
  int num_net_symmetries() const override { return 8 * nn_; }
  void transform_net_planes(int sym, const float* in, float* out) const override;
  void transform_net_policy(int sym, const float* in, float* out) const override;
  void transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const override;
  uint64_t position_key() const override;
  // Owners by seat (the stone's colour read through the adoption); the chain is the black
  // group holding a loop around the torus when the connecting seat won, none otherwise.
  std::vector<CellOwnership> final_ownership() const override;

  // --- Direct access ------------------------------------------------------------------
  int adopt_action() const { return 3 * nn_; }
  int end_action() const { return 3 * nn_ + 1; }
  int pass_action() const { return 3 * nn_ + 2; }
  bool in_auction() const { return connector_ == Player::kNone; }
  // The seat that plays the black stones; kNone during the auction.
  Player connector() const { return connector_; }
  int blocks_this_turn() const { return blocks_this_turn_; }
  // Stone colour on a cell (kBlack / kWhite / kNone).
  Player colour_at(int cell) const { return cells_[cell] == 0 ? Player::kNone : static_cast<Player>(cells_[cell] - 1); }
  // True while Black could still make a wrapping loop if given every empty cell and every
  // diagonal still open to it. Recomputed from scratch (see BENCHMARKS.md for its cost).
  bool black_can_still_win() const;
  // The image of an action under net symmetry `sym` (same layout; extras unchanged).
  int map_action(int sym, int action) const;

 private:
  struct Edge { int16_t a, b; int8_t wc, wr; };  // b = a + step, crossing the seam wc/wr times
  struct Geometry;

  // x modulo n in [0, n): a coordinate on the torus.
  static int wrap(int x, int n) { return ((x % n) + n) % n; }
  Player colour_of(Player seat) const { return seat == connector_ ? Player::kBlack : Player::kWhite; }
  bool link_legal(int block, int d, Player colour) const;
  bool has_play_move(Player colour) const;
  void place(int cell, Player colour);
  void add_link(int block, int d, Player colour);
  void adopt();
  void end_turn();
  void after_white_action();
  // The union-find over black stones with their wrap vectors (env/union_find.h), a view of
  // parent_, wrap_c_, wrap_r_.
  WindingSets black_sets() const;
  bool unite_black(const Edge& e);  // true when the edge closes a wrapping loop
  void map_cell_xy(int sym, int c, int r, int* oc, int* orow) const;
  void map_block(int sym, int block, int d, int* out_block, int* out_d) const;
  template <typename T>
  void transform_layout(int sym, int spatial, const T* in, T* out, int extra) const;

  std::shared_ptr<const Geometry> geo_;
  std::vector<uint8_t> cells_;  // 0 empty, 1 black, 2 white
  std::vector<uint8_t> links_;  // per block: 0 none, else 1 + 2 * d + colour
  mutable std::vector<int16_t> parent_;
  mutable std::vector<int8_t> wrap_c_, wrap_r_;  // to parent
  int empties_ = 0;
  Player connector_ = Player::kNone;  // to_move_ is a seat: the auction decides its colour
  int blocks_this_turn_ = 0;
  bool must_pass_ = false;
};

}  // namespace quax
