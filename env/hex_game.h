// The hexagonal boards of docs/RULES.md section 4: hex and quadhex on an N x N rhombus, y, quady
// (and quady2, the split applied twice) on a triangle of side N. One class for all: the
// shapes differ only in the tables of env/hex_geometry.h, the notation and the diagram.
//
// Action layout (board frame): [0, NN) place a stone on grid cell y*N + x (see
// hex_geometry.h; triangle cells with x > y are off the board and never legal), NN = swap.
// Scoring: every game on the board (the whole board and each sub-game) is worth one point to
// whoever connects its sides; the first to a majority (1 of 1, 3 of 5, 11 of 21) wins.
// Swap (docs/RULES.md section 1): on the rhombus the stone moves to the mirror cell (x, y) ->
// (y, x) and changes colour, on the triangle it only changes colour; Black moves next.
// Network frame: on the rhombus White sees the board transposed, so the mover always
// connects south-north; on the triangle both goals are the same and the frame is the board's.
// Input planes (network frame, mover's view): own stones, opponent stones, swap available,
// on the board, sub-game borders, own won games, opponent won games (each of the last two is,
// per cell, the number of that player's won games holding the cell over depth + 1).
#pragma once

#include <memory>
#include <vector>

#include "env/board_game.h"
#include "env/hex_geometry.h"

namespace quax {

class HexGame final : public TurnTakingGame<HexGame> {
 public:
  static constexpr int kSpatialPlanes = 1;
  static constexpr int kExtraActions = 1;  // swap
  static constexpr int kNumPlanes = 7;

  // Precondition: is_hex_variant(spec.variant) and check_spec(spec) is empty.
  explicit HexGame(const GameSpec& spec);

  void copy_from(const GameState& other) override;

  void legal_mask(uint8_t* mask) const override;
  void legal_actions(std::vector<int>* out) const override;  // from the empty cells, not the mask
  std::string why_illegal(int action) const override;
  void apply(int action) override;
  Outcome play_random_to_end(Rng& rng) override;

  std::string action_to_string(int action) const override;
  int parse_action(std::string_view text, std::string* error) const override;
  std::vector<std::string> stones_of(Player p) const override;
  std::string board_text() const override;  // env/hex_text.cpp
  std::string move_help() const override;    // env/hex_text.cpp
  std::string status_line() const override;  // env/hex_text.cpp

  std::vector<std::string> plane_names() const override;
  void encode(float* planes) const override;
  int to_net_action(int board_action) const override;
  std::vector<std::string> spatial_plane_names() const override { return {"cell"}; }
  std::string net_frame_note() const override;
  int from_net_action(int net_action) const override { return to_net_action(net_action); }
  void net_legal_mask(uint8_t* mask) const override;
  int num_net_symmetries() const override { return static_cast<int>(geo_->symmetries.size()); }
  void transform_net_planes(int sym, const float* in, float* out) const override;
  void transform_net_policy(int sym, const float* in, float* out) const override;
  void transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const override;
  uint64_t position_key() const override;
  std::vector<CellOwnership> final_ownership() const override;

  // --- Direct access for tests and diagrams ------------------------------------------------
  const HexGeometry& geometry() const { return *geo_; }
  int swap_action() const { return nn_; }
  Player stone(int cell) const { return cells_[cell] == 0 ? Player::kNone : static_cast<Player>(cells_[cell] - 1); }
  // Winner of game g (index into geometry().games), kNone while undecided.
  Player game_winner(int g) const { return static_cast<Player>(game_winner_[g]); }
  int points(Player p) const { return points_[index_of(p)]; }
  // The score of a quadrant board as the diagram and the browser board write it:
  // "points (3 of 5 win): black 2, white 1; whole board: open" (the whole board's winner
  // otherwise). "" on hex and y, which have one game. Defined in env/hex_text.cpp.
  std::string points_text() const;
  bool swap_available() const override { return spec_.swap && ply_ == 1 && outcome_ == Outcome::kOngoing; }

  // Stones placed one by one without the rules' turn order (each game's winner is read off
  // the position, the overall winner from the points), `mover` to play at ply `ply`.
  // stones has N*N entries; off-board ones must be kNone. For tests and symmetry checks.
  static std::unique_ptr<HexGame> from_position(const GameSpec& spec, const std::vector<Player>& stones,
                                                Player mover, int ply);

  // The largest value encode() can write on boards of `spec` (every value lies in [0, it]):
  // 1, or on the quadrant boards the won-games planes of a cell that lies in the most games,
  // all won, when that adds up to more (quady's corner and centre triangles share cells).
  // Precondition: is_hex_variant(spec.variant) and check_spec(spec) is empty.
  static float max_plane_value(const GameSpec& spec);

 private:
  void place(int cell, Player p);
  void do_swap();
  void after_move();
  int find(int x) const;

  std::shared_ptr<const HexGeometry> geo_;

  std::vector<uint8_t> cells_;           // 0 empty, 1 black, 2 white
  mutable std::vector<int16_t> parent_;  // union-find over the geometry's nodes
  std::vector<uint8_t> sides_;           // side bits of each root's group
  std::vector<int8_t> game_winner_;      // per game: -1 undecided, else the player index
  std::vector<int16_t> empties_;         // empty on-board cells, in no order
  std::vector<int16_t> empty_pos_;       // cell -> index in empties_, -1 if occupied or off board
  int points_[2] = {0, 0};
  uint64_t key_ = 0;
};

}  // namespace quax
