// QuikQuax (docs/RULES.md section 2): quickway's board (stones only, diagonal pairs linked
// automatically, first come first linked) with turns of 1, then 3, then 4 stones ("134*"),
// the stones of one turn in different quadrants, no swap. The same class plays any square
// variant of several stones a turn (Rules::stones_per_turn, one_stone_per_quadrant) on a
// quickway or a quadrex board (diagonal automatic, or none with the fourth point imposed).
//
// The board rules are SquareGame's (the shipped one-stone variant with the same diagonal and
// fourth-point rules, without swap); this class only adds the turn structure. Each stone is one
// action; the same player stays to move until the turn's quota is placed or, docs/RULES.md
// Decision, no unused quadrant has an empty cell left. The game ends at once when a stone
// completes a connection, even mid-turn.
//
// Action layout (board frame): one plane, [0, N*N) = a stone on cell r*N + c. No extra
// actions: a turn never ends by choice.
// Network frame as SquareGame's: transposed when White moves. Input planes: SquareGame's
// eight with plane 6 (swap, never available here) holding the stones left this turn / Q,
// then `used_quadrants` (1 on the cells of quadrants already used this turn; 0 without the
// quadrant rule) and `next_turn_quota` (the opponent's next quota / Q), Q the largest count of
// the schedule (quikquax: 4, so 3/4 during the first turn, else 1).
#pragma once

#include <array>
#include <memory>

#include "env/board_game.h"
#include "env/square_game.h"

namespace quax {

class QuikQuaxGame final : public BoardGame<QuikQuaxGame> {
 public:
  static constexpr int kSpatialPlanes = 1;
  static constexpr int kExtraActions = 0;
  static constexpr int kNumPlanes = 10;

  // Precondition: check_spec(spec) is empty (so the size is even under the quadrant rule).
  explicit QuikQuaxGame(const GameSpec& spec);

  void copy_from(const GameState& other) override;

  // The turn is the board's: the board keeps the same player to move within a turn.
  Player to_move() const override { return board_.to_move(); }
  Outcome outcome() const override { return board_.outcome(); }
  int move_number() const override { return board_.move_number(); }

  void legal_mask(uint8_t* mask) const override;
  std::string why_illegal(int action) const override;
  void apply(int action) override;
  Outcome play_random_to_end(Rng& rng) override;

  std::string action_to_string(int action) const override { return board_.action_to_string(action); }
  int parse_action(std::string_view text, std::string* error) const override;
  std::vector<std::string> stones_of(Player p) const override { return board_.stones_of(p); }
  std::vector<std::string> links_of(Player p) const override { return board_.links_of(p); }
  std::string board_text() const override;
  std::string move_help() const override;
  std::string status_line() const override;

  std::vector<std::string> plane_names() const override;
  void encode(float* planes) const override;
  int to_net_action(int board_action) const override { return board_.to_net_action(board_action); }
  std::vector<std::string> spatial_plane_names() const override { return {"cell"}; }
  std::string net_frame_note() const override { return board_.net_frame_note(); }
  int from_net_action(int net_action) const override { return board_.from_net_action(net_action); }
  // The 4 goal-keeping symmetries: under the quadrant rule N is even, so they map quadrants
  // onto quadrants.
  int num_net_symmetries() const override { return 4; }
  void transform_net_planes(int sym, const float* in, float* out) const override;
  void transform_net_policy(int sym, const float* in, float* out) const override;
  void transform_net_mask(int sym, const uint8_t* in, uint8_t* out) const override;
  uint64_t position_key() const override;
  std::vector<CellOwnership> final_ownership() const override { return board_.final_ownership(); }

  // --- Turn state, for tests and the text board ----------------------------------------
  const SquareGame& board() const { return board_; }
  int stones_left_this_turn() const { return stones_left_; }
  // Bit q set when quadrant q (0 south-west, 1 south-east, 2 north-west, 3 north-east)
  // already holds a stone of this turn.
  int used_quadrants() const { return used_; }
  int quadrant_of(int cell) const { return (cell % n_ >= n_ / 2 ? 1 : 0) + (cell / n_ >= n_ / 2 ? 2 : 0); }

 private:
  bool turn_can_continue() const;
  int quota(int turn) const { return stones_in_turn(*rules_, turn); }
  // Under the quadrant rule, quadrant q is open to the turn's next stone.
  bool quadrant_open(int q) const { return !one_per_quadrant_ || !(used_ & (1 << q)); }
  void count_empty_quadrant_cells();

  const Rules* rules_;      // the registry's: stones_per_turn
  bool one_per_quadrant_;   // Rules::one_stone_per_quadrant
  bool cascade_;            // the board fills cells of its own (quadrex): recount the quadrants
  float quota_scale_;       // 1 / the schedule's largest count
  int key_turns_;           // turns after which the schedule ahead no longer changes
  SquareGame board_;
  int turn_ = 0;         // turns completed
  int stones_left_ = 1;  // of the current turn's quota
  int used_ = 0;         // quadrant bits of the current turn
  std::array<int, 4> empty_in_quadrant_{};
};

}  // namespace quax
